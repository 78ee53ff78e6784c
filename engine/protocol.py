"""What a game declares so that the platform can serve it: the core every game
implements, and the capabilities a game may add.

The platform (store, API, pages, mail, clocks, bots, the command line) knows a
game only through these protocols and the registry (``engine.registry``); it
never imports a game's own modules. A game is one object, in the manner of
boardgame.io's ``Game`` and Rally the Troops' rules modules, over a pure package
of rules under ``engine/<key>/`` (no Django, no I/O), typed for ``mypy --strict``.

- ``Rules``: the core. What the game is, its start, its fold, who acts and what
  they may do, what each seat sees, the result.
- The capabilities, each a small protocol over the core, with the default a game
  without it gets: ``Randomness`` (what is left to chance, chance draws),
  ``ServerEvents`` (automatic events, time running out, leaving),
  ``SubmittedActions`` (what a player may send), ``Notation`` (actions and
  events in words, the turn mail; ``ModuleNotation`` forwards it to a module of
  the rules), ``HiddenInformation`` (secret views, events
  and replays), ``SimultaneousChoices`` (seats choosing at once), ``Queries``
  (reads the pages ask for) and ``BotHooks`` (the computer players).
- ``Game``: the core and all of those, as the registry holds a game
  (``AnyGame``). A game subclasses ``Game[State, Event]``, writes the core and
  overrides the defaults that do not fit.
- ``Snapshots``: a game's whole state written as JSON for the server. No default
  fits, so it is not part of ``Game``: a game that writes snapshots implements
  it (``ModuleSnapshots`` forwards to a module of its rules) and the platform
  checks for it (``engine.snapshot.supported``).

Each member is described once, where it is declared. ``docs/adding-a-game.md``
walks through a whole game (``tests/engine/tictactoe.py``). Nothing here knows a
game's rules, and no game's rules know the platform.
"""
from __future__ import annotations

import copy as copying
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Literal, Protocol, TypeVar, cast, runtime_checkable

from .errors import BadOptions, IllegalAction, NotationError, RecordError

JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]
"""A JSON value, as records, views and query answers are written."""

JSONObject = dict[str, JSON]

Seat = int
"""A player's index in the record's ``config.players`` (the seat order)."""

OptionValue = str | int | bool
Options = dict[str, OptionValue]
"""A game's options by name, every declared option present (defaults filled in)."""

Score = int | float | None
"""A seat's score: points, a distance, or None where it has none (yet)."""

ScoreOrder = Literal["higher", "lower"]
"""Which scores win: ``higher`` (points) or ``lower`` (Make-a-snake's distances)."""

StateT = TypeVar("StateT")
EventT = TypeVar("EventT", bound=Mapping[str, object])
StateIn = TypeVar("StateIn", contravariant=True)


# ---------------------------------------------------------------- options

@dataclass(frozen=True, slots=True)
class Choice:
    value: OptionValue
    label: str


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a game, offered as a choice in the lobby."""

    name: str
    label: str
    choices: tuple[Choice, ...]
    default: OptionValue
    help: str = ""

    def values(self) -> tuple[OptionValue, ...]:
        return tuple(c.value for c in self.choices)


# ---------------------------------------------------------------- who acts

@dataclass(frozen=True, slots=True)
class Task:
    """What one awaited seat must do."""

    seat: Seat
    kind: str
    """The kind of action due, in the game's words ("move", "guess", "keep", "take")."""
    prompt: str
    """The same in a sentence, for pages and mail ("choose a tile to keep")."""
    detail: JSONObject = field(default_factory=dict)
    """Game-specific facts about it (Marram: ``{"move": 2}`` or ``{"creature": "fly"}``)."""
    short: str = ""
    """The task in a few words after "the game waits for Ann to" ("move"); the
    kind when empty."""

    def to_json(self) -> JSONObject:
        return {"seat": self.seat, "kind": self.kind, "prompt": self.prompt,
                "detail": dict(self.detail)}


@dataclass(frozen=True, slots=True)
class Awaiting:
    """What the game waits for: nothing (it is over), a chance draw, or seats.

    Several seats are awaited at once when they act in secret at the same time
    (Animals on Board's first ``keep``); each seat's clock runs until its own
    action is in, and any of them may act first.
    """

    tasks: tuple[Task, ...] = ()
    chance: str | None = None
    """The chance event due, in words ("the fly hops"); the server draws it."""
    finished: bool = False

    @classmethod
    def over(cls) -> Awaiting:
        return cls(finished=True)

    @classmethod
    def draw(cls, what: str) -> Awaiting:
        return cls(chance=what)

    @classmethod
    def seats(cls, *tasks: Task) -> Awaiting:
        if not tasks:
            raise ValueError("a game that awaits seats awaits at least one")
        return cls(tasks=tasks)

    @property
    def players(self) -> tuple[Seat, ...]:
        """The seats awaited, in seat order."""
        return tuple(sorted(t.seat for t in self.tasks))

    def task(self, seat: Seat) -> Task | None:
        return next((t for t in self.tasks if t.seat == seat), None)

    def to_json(self) -> JSONObject:
        return {"finished": self.finished, "chance": self.chance,
                "seats": [t.to_json() for t in sorted(self.tasks, key=lambda t: t.seat)]}


@dataclass(frozen=True, slots=True)
class Chance(Generic[EventT]):
    """The chance event due: each outcome as the event recording it, with its odds.

    The order of ``outcomes`` is part of the game's rules (draws are verified
    against it), so it must not depend on anything but the state; the odds are
    exact and add up to 1.
    """

    what: str
    outcomes: tuple[tuple[EventT, Fraction], ...]


# ---------------------------------------------------------------- results

@dataclass(frozen=True, slots=True)
class Projection:
    """The small picture of a game kept for lists: scores, whose turn, winners.

    ``winners`` is empty until the game ends (and stays empty for a lost
    co-operative game); ``to_act`` is empty when the game waits for a chance
    draw or is over.
    """

    finished: bool
    scores: tuple[Score, ...]
    winners: tuple[Seat, ...]
    to_act: tuple[Seat, ...]
    out: tuple[Seat, ...] = ()
    """Seats that resigned or were taken out: they cannot win."""
    better: ScoreOrder = "higher"
    cooperative: bool = False
    """Every seat plays for one shared result: all win or all lose."""
    end: str | None = None
    """Why the game ended, in the game's words ("target", "resign", "won", "lost")."""

    @property
    def result(self) -> Literal["won", "lost"] | None:
        """A finished co-operative game's shared result; None otherwise."""
        if not (self.cooperative and self.finished):
            return None
        return "won" if self.winners else "lost"

    def to_json(self) -> JSONObject:
        return {"finished": self.finished, "scores": list(self.scores),
                "winners": list(self.winners), "to_act": list(self.to_act),
                "out": list(self.out), "better": self.better,
                "cooperative": self.cooperative, "result": self.result, "end": self.end}


@dataclass(frozen=True, slots=True)
class Standing:
    seat: Seat
    score: Score
    rank: int
    """1 for the best; seats that tie share a rank (1, 1, 3)."""
    won: bool
    out: bool


def standings(p: Projection) -> list[Standing]:
    """The seats from best to worst, one rule for every game and every reader (the
    end screen, ratings): the winners the rules name first (after an elimination,
    a resignation or Make-a-snake's last seat left the score alone may not name
    them), then the others by score in the projection's order (``lower`` for
    distances), seats without a score, then seats that are out; equal keys share a
    rank (1, 1, 3). In a co-operative game everybody shares rank 1: one result."""
    seats = range(len(p.scores))
    if p.cooperative:
        return [Standing(s, p.scores[s], 1, s in p.winners, s in p.out) for s in seats]
    sign = 1 if p.better == "lower" else -1

    def key(s: Seat) -> tuple[bool, bool, bool, float]:
        if s in p.winners:
            return (False, False, False, 0.0)
        score = p.scores[s]
        return (True, s in p.out, score is None, sign * score if score is not None else 0.0)

    order = sorted(seats, key=key)
    return [Standing(s, p.scores[s], 1 + sum(1 for o in order if key(o) < key(s)),
                     s in p.winners, s in p.out) for s in order]


# ---------------------------------------------------------------- words

@dataclass(frozen=True, slots=True)
class TurnMail:
    """What a "your turn" mail asks of a seat."""

    subject: str
    """Short, after the game's name: "your move", "your guess"."""
    prompt: str
    """What to do and how to reply, one paragraph."""
    examples: tuple[str, ...] = ()
    """Some legal actions in the notation, ready to paste into a reply."""


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How the strong bot (``engine.bots.mcts``) searches a game: its budget and
    tuning. The defaults fit a small game played to the end in every playout."""

    playouts: int = 1000
    """The budget: determinized playouts per move (replayable for a seed),
    chosen so that a move stays inside ``cpu_seconds`` on the reference
    machine (docs/bots.md)."""
    cpu_seconds: float = 2.0
    """A guard on the CPU time of one move, from the call on (ranking
    included), read before every playout: it only ever cuts the budget short,
    logged, and a move it cuts no longer replays from its seed."""
    rollout_moves: int | None = None
    """Actions played at random after the tree before the state is evaluated
    (``Game.evaluate``); None plays every playout to the end."""
    width: int | None = None
    """Search only this many candidates at each node of the first
    ``ranked_depth`` levels of the tree, the best by one-ply evaluation for the
    seat to act (as the medium bot ranks them); None searches them all."""
    ranked_depth: int = 1
    """How many levels of the tree ``width`` prunes: 1 the root only, 2 also the
    next action (Marram's second move of a turn, or the reply)."""
    evaluation_scale: float = 10.0
    """An evaluation difference worth about 76% to 24%: a cut-off playout's
    reward is ``1 / (1 + exp(-evaluation / scale))``."""
    exploration: float = 0.7
    """UCB's exploration constant (rewards lie between 0 and 1)."""
    rollout_policy: str = "random"
    """The ``bot_action`` policy the playouts follow after the tree."""
    margin_weight: float = 0.0
    """The share of each playout's reward that is a logistic of the seat's
    margin at ``margin_scale`` rather than the win (or the evaluation at
    ``evaluation_scale``): past a lead where the win is sure, a bigger lead
    is still worth more."""
    margin_scale: float = 30.0
    """The margin in points worth about 76% to 24% in that share."""
    others_policy: str | None = None
    """The ``bot_action`` policy that plays the other seats' actions within the
    tree (one action a node, as in the playouts): the search then branches on
    the seat's own actions alone. None searches every seat's actions by UCB."""


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """How the review of a finished game (``engine.bots.review``) judges a seat's
    move against the strong bot's choice."""

    measure: Literal["points", "win"] = "points"
    """What a move's cost is told in: ``points`` (the margin over the best other
    seat: the final scores, or ``evaluate`` of a position before the end) where
    the evaluation counts the game's points; ``win``, the search's reward (the
    chance of winning, in percent) where it does not."""
    samples: int = 16
    """Paired samples (determinizations and draws) that judge the move played
    against the search's choice."""
    horizon: int = 2
    """Actions played in each sample after the judged one, each seat's best by
    one-ply evaluation (the reply, and the turn's rest), before it is measured."""


class Query(Protocol[StateIn]):
    """A named read the pages ask for (``Queries.queries``)."""

    def __call__(self, state: StateIn, seat: Seat | None, args: Mapping[str, JSON]) -> JSON: ...


# ---------------------------------------------------------------- the core

class Rules(Protocol[StateT, EventT]):
    """The core of a game, which every game implements.

    **State** is the game's own type, opaque to the platform. **Event** is the
    union of the game's event ``TypedDict`` s: JSON objects with a ``"type"``
    and, for a seat's own action, ``"player"`` (its seat). The action a player
    submits *is* the event appended to the log, so the notation, the API and the
    record speak one shape; the server appends events of the same union (chance
    draws, timeouts, leaving, automatic events). Events are past facts: renaming
    a field needs a new record version and an upcaster.
    """

    key: str
    """The game's name in the registry, the API and URLs: its package's name
    (``"marram"`` for ``engine/marram/``)."""
    title: str
    """The game's name in words ("Animals on Board")."""
    rules_version: str
    """Bumped whenever a fix could change the outcome of a stored game: a game
    keeps the version it was created under, and a snapshot of other rules is
    refused."""
    record_format: str
    """The ``format`` of the game's records (``shared/spec/<game>.md``): a record
    is read by the game of its format."""
    record_version: int
    """The ``version`` of the game's records."""
    seat_counts: tuple[int, ...]
    """The numbers of players the game is for (``(2, 3, 4)``)."""
    options_declared: tuple[Option, ...]
    """The game's options, each a named choice with a default (variants, lengths,
    board sizes, modes): the lobby offers them, ``read_options`` checks them."""
    event_types: tuple[str, ...]
    """The ``type`` of every event of the game's records."""
    score_unit: tuple[str, str] = ("point", "points")
    """What a score counts, singular and plural, in the game's words (Pond's
    pieces in the pile, Make-a-snake's cm): pages say "wins with 10 pieces"."""

    # -- the start

    def check_options(self, options: Options, seats: int) -> None:
        """Refuse (``BadOptions``) what the declared choices cannot say alone: what
        depends on several options or on the number of seats (Marram's Animals is
        played long only). By default every combination is allowed."""
        return None

    def setup(self, options: Options, players: Sequence[str], seed: str) -> JSONObject:
        """The record's ``config`` for a new game: the players in seat order, the
        options, and every hidden order (decks, stacks) drawn from ``seed`` with
        ``engine.fairness.shuffle`` (one label for each order)."""
        ...

    def start(self, config: Mapping[str, JSON]) -> StateT:
        """The state before any event, of a new config or a record's: a
        ``RecordError`` saying in one line what it cannot read."""
        ...

    def config(self, state: StateT) -> JSONObject:
        """The config the state was started from, as a record writes it
        (canonical): ``engine.fairness.verify`` checks that ``setup`` of the
        game's ``options``, players and seed gives it back, key by key."""
        ...

    def options(self, state: StateT) -> Options:
        """The options the game is played with: by default each declared option
        as the config holds it, under its own name. A game whose config keeps its
        options otherwise (Pond's spelled-out pond) gives them here."""
        config = self.config(state)
        options: Options = {}
        for option in self.options_declared:
            value = config.get(option.name)
            if not isinstance(value, str | int | bool):
                raise RecordError(f"the config holds no option {option.name!r}")
            options[option.name] = value
        return options

    # -- events

    def read_event(self, raw: object) -> EventT:
        """``raw`` as one of this game's events, its fields still unchecked (the
        fold checks them): by default a JSON object whose ``type`` is one of
        ``event_types``; a ``bad_event`` ``IllegalAction`` otherwise."""
        if not isinstance(raw, dict):
            raise IllegalAction("bad_event", f"an event is a JSON object, got {raw!r}")
        kind = raw.get("type")
        if kind not in self.event_types:
            raise IllegalAction("bad_event", f"unknown event type {kind!r}: expected one of "
                                + ", ".join(self.event_types))
        return cast(EventT, raw)

    def fold(self, state: StateT, event: EventT) -> StateT:
        """Check ``event`` against the rules and apply it. Events come from the
        network and from hand-written records, so every field it reads is
        checked; a broken rule is an ``IllegalAction(code, message)``, the code
        stable (clients switch on it: ``not_your_turn``, ``occupied``) and the
        message naming the rule and quoting the input. The fold may update
        ``state`` in place and return it (fast replays: after an
        ``IllegalAction`` the caller throws ``state`` away) or return a new
        state; ``engine.replay.apply`` copies first wherever the old state must
        survive."""
        ...

    def copy(self, state: StateT) -> StateT:
        """A copy of ``state`` that folding into leaves ``state`` as it was: by
        default the state's own ``copy()``, or a deep copy of a state that has
        none (or is a plain dict, list or set, whose ``copy()`` is shallow)."""
        own = getattr(state, "copy", None)
        if own is None or isinstance(state, dict | list | set):
            return copying.deepcopy(state)
        return cast(StateT, own())

    # -- who acts, and what they may do

    def awaiting(self, state: StateT) -> Awaiting:
        """What the game waits for: ``Awaiting.over()`` once it has ended,
        ``Awaiting.draw(what)`` when a chance draw is due (the server draws it),
        or ``Awaiting.seats(task, ...)``: a ``Task`` for each seat that must act
        now."""
        ...

    def legal_actions(self, state: StateT, seat: Seat) -> list[EventT]:
        """What ``seat`` may do now, as the events that would record it; empty
        when nothing is awaited of it. Asked on every request, so fast. An
        action's parts that a page picks afterwards (Marram's claims) are left
        out and offered by a query (``Queries``)."""
        ...

    # -- what people see, and the result

    def view(self, state: StateT, seat: Seat | None) -> JSONObject:
        """Everything ``seat`` may see (``None``: a spectator): every secret (deck
        orders, the seed, future draws, another seat's hidden choice) stripped
        until the game is over."""
        ...

    def summary(self, state: StateT) -> JSONObject:
        """What ``python -m engine replay`` prints of the state, as the game's
        note in ``shared/spec/`` gives it: always ``finished``, ``winners`` and
        ``current_player``."""
        ...

    def projection(self, state: StateT) -> Projection:
        """The small picture kept for lists and tables (``Projection``):
        ``standings`` ranks the seats from it."""
        ...


def read_options(game: Rules[Any, Any], raw: Mapping[str, object] | None,
                 seats: int) -> Options:
    """Options as the lobby or a command line gives them, checked, with every
    default filled in; ``BadOptions`` says what is wrong."""
    if seats not in game.seat_counts:
        counts = ", ".join(map(str, game.seat_counts))
        raise BadOptions(f"{game.title} is for {counts} players, not {seats}")
    raw = raw or {}
    declared = {o.name: o for o in game.options_declared}
    unknown = sorted(set(raw) - set(declared))
    if unknown:
        raise BadOptions(f"{game.title} has no option {unknown[0]!r}: its options are "
                         + (", ".join(declared) or "none"))
    options: Options = {}
    for name, option in declared.items():
        value = raw.get(name, option.default)
        # True == 1 in Python: an option's value matches only its own type
        if not any(type(value) is type(v) and value == v for v in option.values()):
            choices = ", ".join(repr(v) for v in option.values())
            raise BadOptions(f"{option.label} must be one of {choices}, not {value!r}")
        options[name] = cast(OptionValue, value)
    game.check_options(options, seats)
    return options


# ---------------------------------------------------------------- capabilities

class Randomness(Rules[StateT, EventT], Protocol[StateT, EventT]):
    """What a game leaves to chance: hidden orders dealt from the seed by
    ``setup``, and chance draws while it is played."""

    has_chance: bool
    """Whether anything in the game is left to chance, dealt or drawn; every game
    says. A game of pure skill (Pond) says False, and its pages say nothing of
    fair chance."""

    def chance(self, state: StateT) -> Chance[EventT] | None:
        """The chance draw due now (``Awaiting.draw``) as a ``Chance``, or None.
        The server picks its outcome from the committed seed
        (``engine.fairness.draw_event``); replays never draw, so ``fold``
        refuses an outcome that is not possible (``impossible_chance``). A seat
        may leave while a draw is due: ``fold`` takes its ``resign`` events then
        too and says what becomes of the draw (it stays due, passes on, or the
        game ends). By default there are no draws: None."""
        return None


class ServerEvents(Rules[StateT, EventT], Protocol[StateT, EventT]):
    """The events the server appends by itself; what each does is the game's
    fold (its note in ``shared/spec/`` fixes it)."""

    def automatic(self, state: StateT) -> EventT | None:
        """An event the server must append by itself now (Marram's pass when no
        tile fits), or None; the platform appends it and asks again. By default
        None."""
        return None

    def timeout(self, state: StateT, seat: Seat) -> list[EventT]:
        """The events for a seat whose time ran out: by default the record's
        ``{"type": "timeout", "player": seat}``. The platform decides when a seat
        has timed out twice in a row, and then calls ``resign``."""
        return [cast(EventT, {"type": "timeout", "player": seat})]

    def resign(self, state: StateT, seat: Seat) -> list[EventT]:
        """The events for a seat that leaves: by default ``{"type": "resign",
        "player": seat}``."""
        return [cast(EventT, {"type": "resign", "player": seat})]


class SubmittedActions(Rules[StateT, EventT], Protocol[StateT, EventT]):
    """What a player may submit: the platform refuses other types and unknown
    fields with a 400 before the fold sees them."""

    action_fields: Mapping[str, tuple[str, ...]] = {}
    """The events a player may submit, by type, with every field each may have
    (``"type"`` and ``"player"`` included). Empty (the default): the types of the
    awaited seats' legal actions and of leaving."""
    action_defaults: Mapping[str, JSONObject] = {}
    """Fields filled in, by type, when a player's action leaves them out
    (Marram's ``"claim": null``), so that the stored event is the record's."""
    action_schema: JSONObject | None = None
    """The JSON Schema (as OpenAPI writes it) of an action a player submits,
    which the API's documentation gives as one of each game's (``oneOf``): an
    object whose ``type`` names the action. None (the default): any object with
    a ``type``."""

    def normalise_event(self, raw: Mapping[str, object]) -> JSONObject | None:
        """The event as the store keeps it: every field checked, none but its own
        kept, defaults filled in; an ``IllegalAction`` (with a ``field``
        attribute naming a wrong field, if it can) otherwise. The platform passes
        players' actions and imported records through it. None (the default):
        the platform checks actions against ``action_fields`` alone."""
        return None


EXAMPLES_IN_MAIL = 3
"""Legal actions a turn mail gives as examples, by default (``Notation.task_mail``)."""


class Notation(Rules[StateT, EventT], Protocol[StateT, EventT]):
    """Actions and events in words: one line a move, for replies by mail, the
    history and the mails. By default an action is written as its JSON object
    without its ``player`` (the seat that writes it)."""

    def parse_action(self, text: str, seat: Seat) -> EventT:
        """The action one line of the notation writes, for ``seat``; whether it
        is legal is the fold's business. A ``NotationError`` with a helpful
        message for a line it cannot read."""
        try:
            raw = json.loads(text)
        except ValueError:
            raw = None
        if not isinstance(raw, dict):
            raise NotationError(f"write an action as a JSON object, such as "
                                f'{{"type": "{self.event_types[0]}"}}') from None
        try:
            return self.read_event({**raw, "player": seat})
        except IllegalAction as e:
            raise NotationError(e.message) from None

    def format_action(self, action: EventT) -> str:
        """The action as its canonical line, which ``parse_action`` reads back."""
        return json.dumps({k: v for k, v in action.items() if k != "player"})

    def describe_event(self, event: EventT, names: Sequence[str], *,
                       forced: bool = False) -> str:
        """Any event of the log in words, one line of the game's story, the
        players called by ``names`` (by seat); ``forced``: an event the server
        appended by itself. It never names a secret (``HiddenInformation``)."""
        seat = event.get("player")
        line = self.format_action(event)
        if isinstance(seat, int) and 0 <= seat < len(names):
            return f"{names[seat]}: {line}"
        return line

    def turn_mail(self, state: StateT, seat: Seat) -> TurnMail | None:
        """What a "your turn" mail asks of ``seat``: its task's (``task_mail``),
        or None when nothing is awaited of it."""
        task = self.awaiting(state).task(seat)
        return None if task is None else self.task_mail(state, task)

    def task_mail(self, state: StateT, task: Task) -> TurnMail:
        """The turn mail of one awaited task: by default "your move", its
        prompt, and the first legal actions in the notation as examples."""
        examples = tuple(self.format_action(a)
                         for a in self.legal_actions(state, task.seat)[:EXAMPLES_IN_MAIL])
        reply = f": reply '{examples[0]}'" if examples else ""
        return TurnMail("your move", f"Please {task.prompt}{reply}.", examples)


class NotationModule(Protocol[EventT]):
    """A module of a game's rules that reads and writes its notation (what
    ``ModuleNotation`` forwards to)."""

    def parse_action(self, text: str, seat: Seat, /) -> EventT: ...

    def format_action(self, action: EventT, /) -> str: ...

    def describe_event(self, event: EventT, names: Sequence[str], /, *,
                       forced: bool = False) -> str: ...


class ModuleNotation(Notation[StateT, EventT], Protocol[StateT, EventT]):
    """``Notation`` read and written by a module of the game's rules,
    ``notation_module`` (``engine/<key>/notation.py``): its ``parse_action``,
    ``format_action`` and ``describe_event``."""

    notation_module: NotationModule[EventT]

    def parse_action(self, text: str, seat: Seat) -> EventT:
        return self.notation_module.parse_action(text, seat)

    def format_action(self, action: EventT) -> str:
        return self.notation_module.format_action(action)

    def describe_event(self, event: EventT, names: Sequence[str], *,
                       forced: bool = False) -> str:
        return self.notation_module.describe_event(event, names, forced=forced)


class HiddenInformation(Rules[StateT, EventT], Protocol[StateT, EventT]):
    """What a game with secrets (others' hands, face-down tiles, deck orders,
    choices made in secret) shows in the event list and the replay. Its views
    strip them (``Rules.view``), ``describe_event`` never names them and its bots
    redraw them (``BotHooks.determinize``). The defaults fit a game without
    hidden information."""

    hidden_information: bool = False
    """Whether some of the state is secret from some seat (a deck's order,
    another seat's hand or choice). A game that says so must write its own
    ``determinize``: the registry refuses it otherwise, and the default
    refuses to hand its bots the state."""

    def event_view(self, state: StateT, event: EventT, seat: Seat | None) -> JSONObject:
        """``event`` as ``seat`` (None: a spectator) may read it in the event list
        of the game now in ``state``: what it may not know yet removed until the
        game is over (Animals on Board shows another seat's ``keep`` without its
        tile). By default events are public and shown whole."""
        return cast(JSONObject, dict(event))

    def view_revealed(self, state: StateT, seat: Seat | None) -> JSONObject:
        """What the replay of a *finished* game shows at each of its steps: the
        seat's view with every secret of that moment shown, as the seed now is
        (Animals on Board's arks, face-down tile and stack order; Make-a-snake's
        stacks; Marram's deck), marked ``"revealed": true`` for the game's replay
        module. The platform never shows it while the game runs. By default the
        view itself."""
        return self.view(state, seat)


class SimultaneousChoices(Rules[StateT, EventT], Protocol[StateT, EventT]):
    """Seats that choose at the same time, in secret (Animals on Board's keeps):
    ``awaiting`` names them together (``Awaiting``)."""

    def unaffected(self, state: StateT, since: Sequence[EventT], seat: Seat) -> bool:
        """Whether ``seat``'s choice is as it was before ``since``, the events
        appended after the seq its action was made at (``state``: the game after
        them): True when they are only other seats' choices made at the same
        time, in secret, that leave its options unchanged. The platform then
        judges the action on ``state`` instead of refusing it as stale
        (``stale_seq``), so players choosing together never collide, by the API
        or by mail. Asked only while ``state`` still awaits ``seat`` and at most
        one event a seat came since: otherwise the action is stale. By default
        False: any event since is a change the player has not seen."""
        return False


class Queries(Rules[StateT, EventT], Protocol[StateT, EventT]):
    """Reads the pages ask for besides the view. By default there are none."""

    queries: Mapping[str, Query[StateT]] = {}
    """Named reads (Marram's ``claims``, a score preview), each called with the
    state, the asking seat and JSON arguments (``query``), and also served at
    ``/api/games/{id}/{name}/``; a bad argument is an ``IllegalAction``
    (``bad_query``)."""

    def view_tables(self) -> Mapping[str, JSONObject]:
        """Tables the game's views refer to by key, fixed by the rules (Marram's
        tile drawings): the API serves each once for browsers and clients to
        keep, so that no view repeats them."""
        return {}


def query(game: Queries[StateT, EventT], state: StateT, name: str, seat: Seat | None,
          args: Mapping[str, JSON]) -> JSON:
    """Run one of the game's named queries; an unknown name is an IllegalAction."""
    run: Callable[[StateT, Seat | None, Mapping[str, JSON]], JSON] | None = \
        game.queries.get(name)
    if run is None:
        raise IllegalAction("unknown_query", f"{game.title} answers no query {name!r}: "
                            "it answers " + (", ".join(game.queries) or "none"))
    return run(state, seat, args)


def query_action(args: Mapping[str, JSON], seat: Seat | None,
                 kinds: Sequence[str]) -> JSONObject:
    """A query's ``action`` argument (the move it asks about: its claims, what it
    would do) as the asking seat's own: an object whose ``type`` is one of
    ``kinds`` (``bad_query`` otherwise), its ``player`` the seat
    (``not_your_seat`` for another); a spectator's names its player."""
    action = args.get("action")
    if not isinstance(action, dict) or action.get("type") not in kinds:
        raise IllegalAction("bad_query", "give " + " or ".join(f"a {k}" for k in kinds)
                            + " as 'action': a JSON object")
    if seat is None:
        return action
    if action.get("player", seat) != seat:
        raise IllegalAction("not_your_seat", f"you play seat {seat}")
    return {**action, "player": seat}


class BotHooks(Rules[StateT, EventT], Protocol[StateT, EventT]):
    """The computer players (``engine.bots``: easy, medium and strong; see
    ``docs/bots.md``) and self-play (``python -m engine selfplay``) play every
    game through the core alone; these hooks make them fair, good and fast."""

    bot_policies: tuple[str, ...] = ("random",)
    """The names ``bot_action`` plays by."""
    search: SearchSettings = SearchSettings()
    """The strong bot's budget and tuning."""
    review: ReviewSettings = ReviewSettings()
    """How a finished game's review judges a move."""
    medium_replies: bool = False
    """Whether the medium bot judges each action after the other seat's best
    reply (``engine.bots.ranking.replied``) instead of right after it: for a
    game of two seats taking turns whose evaluation one ply ahead is blind to
    what the reply takes (Pond)."""

    def bot_action(self, state: StateT, seat: Seat, rng: random.Random,
                   policy: str = "random") -> EventT:
        """An action for an awaited seat by one of ``bot_policies``: by default
        any legal one."""
        return rng.choice(self.legal_actions(state, seat))

    def selfplay_stats(self, state: StateT) -> Mapping[str, float]:
        """Figures of a finished game that self-play averages and prints."""
        return {}

    def determinize(self, state: StateT, seat: Seat, rng: random.Random) -> StateT:
        """A state the seat cannot tell from ``state``: everything it sees kept,
        every secret it does not see (deck orders, others' hidden choices, future
        draws) redrawn with ``rng`` from what its view allows (sort what is
        unseen before shuffling it). Every bot looks at this state alone, so the
        result must depend on nothing but the seat's view and ``rng``; the
        caller may fold into it. The default, a copy, is right only for a game
        without hidden information: for a game that declares some
        (``HiddenInformation.hidden_information``) it refuses, so that a game
        with secrets that forgot to write this cannot hand them to its bots."""
        if getattr(self, "hidden_information", False):  # HiddenInformation's
            raise NotImplementedError(
                f"{self.title} declares hidden information but has no determinize: its "
                "bots would see the whole state")
        return self.copy(state)

    def evaluate(self, state: StateT, seat: Seat) -> float:
        """How good ``state`` is for ``seat``, higher better, in points: the medium
        bot plays the action whose result evaluates best, the strong bot judges
        cut-off playouts by it. By default the seat's score less the best other
        score (the other way round when lower scores win), plus or minus a
        million once the game is won or lost; a game gives the worth of what is
        not scored yet (open features, tokens, material)."""
        p = self.projection(state)
        sign = -1.0 if p.better == "lower" else 1.0
        mine = float(p.scores[seat] or 0) * sign
        others = [float(score or 0) * sign for s, score in enumerate(p.scores) if s != seat]
        value = mine if p.cooperative or not others else mine - max(others)
        if p.finished:
            value += 1e6 if seat in p.winners else -1e6
        return value

    def bot_candidates(self, state: StateT, seat: Seat) -> list[EventT]:
        """The actions a medium or strong bot weighs for the seat: by default
        ``legal_actions``. A game adds the parts a page picks afterwards (Marram's
        claims) or leaves out actions no good player makes; each must be legal."""
        return self.legal_actions(state, seat)


# ---------------------------------------------------------------- a game

class Game(Randomness[StateT, EventT], ServerEvents[StateT, EventT],
           SubmittedActions[StateT, EventT], Notation[StateT, EventT],
           HiddenInformation[StateT, EventT], SimultaneousChoices[StateT, EventT],
           Queries[StateT, EventT], BotHooks[StateT, EventT], Protocol[StateT, EventT]):
    """A game as the platform holds it: the core (``Rules``) and every capability
    the platform calls without asking, each with its default. A game subclasses
    ``Game[State, Event]``, writes the core and ``has_chance``, overrides what
    does not fit it, and registers its object in ``engine.registry``."""


AnyGame = Game[Any, Any]
"""A game of any state and event types, as the registry holds them."""


# ---------------------------------------------------------------- snapshots

@runtime_checkable
class Snapshots(Protocol[StateT]):
    """The whole state written as JSON and read back, so that the server starts
    a long game from a stored state rather than from its first event
    (``engine.snapshot``, which versions it). Server-side only: a snapshot holds
    every secret. A game without snapshots is always read by replay."""

    @property
    def snapshot_version(self) -> int:
        """The version of ``dump_state``'s JSON: bumped when its shape changes."""
        ...

    def dump_state(self, state: StateT) -> JSONObject:
        """The whole state as JSON, secrets included: ``load_state`` of it, folded
        on, must act exactly as the state it was dumped from."""
        ...

    def load_state(self, config: Mapping[str, JSON], data: Mapping[str, JSON]) -> StateT:
        """The state ``dump_state`` wrote, for the game of this ``config``; a
        ``SnapshotError`` when ``data`` cannot be read."""
        ...


class SnapshotModule(Protocol[StateT]):
    """A module of a game's rules that writes its states as JSON (what
    ``ModuleSnapshots`` forwards to)."""

    @property
    def VERSION(self) -> int:  # noqa: N802 (a module's constant)
        """The version of ``dump``'s JSON."""
        ...

    def dump(self, state: StateT) -> JSONObject:
        """The whole state as JSON."""
        ...

    def load(self, start: StateT, data: Mapping[str, JSON]) -> StateT:
        """The state ``dump`` wrote, made from the game's start."""
        ...


class ModuleSnapshots(Snapshots[StateT], Protocol[StateT]):
    """``Snapshots`` written by a module of the game's rules, ``snapshot_module``
    (``engine/<key>/snapshot.py``): its ``VERSION``, ``dump(state)`` and
    ``load(start, data)``, onto the state the game's ``start`` makes."""

    snapshot_module: SnapshotModule[StateT]

    def start(self, config: Mapping[str, JSON]) -> StateT: ...

    @property
    def snapshot_version(self) -> int:
        return self.snapshot_module.VERSION

    def dump_state(self, state: StateT) -> JSONObject:
        return self.snapshot_module.dump(state)

    def load_state(self, config: Mapping[str, JSON], data: Mapping[str, JSON]) -> StateT:
        return self.snapshot_module.load(self.start(config), data)
