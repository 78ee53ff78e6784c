"""What a game declares so that the platform can serve it: the Game protocol.

The platform (store, API, pages, mail, clocks, bots, the command line) knows a
game only through this protocol and the registry (``engine.registry``); it
never imports a game's own modules. A game is one object, in the manner of
boardgame.io's ``Game`` and Rally the Troops' rules modules, and its rules are a
pure package under ``engine/<key>/`` (no Django, no I/O), typed for
``mypy --strict``. ``docs/adding-a-game.md`` walks through writing one.

How a game author implements it
-------------------------------
Subclass ``Game[State, Event]`` (the defaults below then come for free) and
register an instance in ``engine.registry``:

- **State** is the game's own type, opaque to the platform. ``fold`` may update
  a state in place and return it (fast replays) or return a new one (immutable
  states); ``copy`` gives an independent copy. The platform calls
  ``engine.replay.apply`` (copy, then fold) wherever the old state must survive.
- **Event** is the union of the game's event ``TypedDict`` s: JSON objects with
  a ``"type"`` and, for a seat's own action, ``"player"`` (its seat). An action a
  player submits *is* the event appended to the log; the server adds its own
  events (chance draws, ``timeout``, ``resign``, automatic ones). Events are
  past facts: renaming a field needs a new record version and an upcaster.
- **Describe** the game: ``key`` (``"marram"``, the package name), ``title``,
  ``rules_version`` (bump it when a fix could change a stored game's outcome),
  ``record_format`` and ``record_version`` (the record of
  ``shared/spec/<game>.md``), ``seat_counts``, and ``options``: each a named
  choice with a default (variants, lengths, board sizes, modes). The generic
  ``read_options`` checks names, choices and defaults; ``check_options`` adds
  what depends on several options or on the number of seats.
- **Start**: ``setup(options, players, seed)`` is the record's ``config`` for a
  new game, every hidden order (decks, stacks) drawn from ``seed`` with
  ``engine.fairness.shuffle``; ``start(config)`` reads a record's config (a
  ``RecordError`` saying what is wrong) and returns the state before any event.
  ``config(state)`` and ``options(state)`` give them back, canonical.
- **Events**: ``read_event`` checks that a JSON value is an event of this game
  at all (the default checks the object and its ``type`` against
  ``event_types``); ``fold`` checks it against the rules, raising
  ``IllegalAction(code, message)`` with a stable code, and applies it.
- **Who acts**: ``awaiting(state)`` is an ``Awaiting``: the game is over, or a
  chance draw is due (the server draws it), or one *or several* seats must act
  (several at once when players choose in secret at the same time), each with a
  ``Task`` saying what that seat must do. ``legal_actions(state, seat)`` lists
  what the seat may do now (empty when nothing is awaited of it).
- **Chance**: ``has_chance`` says whether the game leaves anything to chance
  (False for a game of pure skill). ``chance(state)`` is ``None`` or a
  ``Chance``: every outcome as the event that records it, with its exact odds
  as ``Fraction`` s, in a fixed order; ``engine.fairness.draw_event`` picks
  one from the committed seed. Replays never draw: chance arrives as events and
  ``fold`` checks each is possible.
- **Automatic events**: ``automatic(state)`` is an event the server must append
  by itself now (a forced pass), or ``None``; the platform appends it and asks
  again.
- **Simultaneous choices**: ``unaffected(state, since, seat)`` says that the
  events appended since a seat's action was made (other seats' choices made in
  secret at the same time) leave that action's meaning unchanged, so that it is
  not refused as stale; by default nothing is.
- **Views**: ``view(state, seat)`` is what that seat may see, ``seat=None`` a
  spectator's; both strip every secret (deck orders, the seed, future draws,
  others' hidden choices) until the game is over. ``summary(state)`` is the
  ``python -m engine replay`` output of the game's note (always ``finished``,
  ``winners`` and ``current_player``). ``event_view(state, event, seat)`` is an
  event of the log as that seat (or a spectator) may read it: a game whose
  events carry a secret (Animals on Board's ``keep``) strips it there until the
  game is over; by default events are public. ``view_revealed(state, seat)`` is
  what the replay of a *finished* game shows at any of its steps: the seat's view
  with every secret of that moment shown (others' hands and arks, face-down
  tiles, the order of decks and stacks), as the seed is revealed; it defaults to
  ``view``, right for a game without hidden information, and is never shown
  while the game runs.
- **Snapshots**: ``dump_state`` and ``load_state`` write a whole state as JSON
  and read it back, so the server can start a long game from a stored state
  rather than from its first event; ``snapshot_version`` (0 by default: no
  snapshots, replay only) versions that JSON. Server-side only: they hold the
  deck order.
- **Results**: ``projection(state)`` is the small ``Projection`` kept for lists
  (scores, whose turn, winners, finished), with ``better`` saying whether higher
  or lower scores win and ``cooperative`` for games everybody wins or loses
  together; ``standings`` ranks it. ``score_unit`` names what a score counts
  (points by default).
- **Queries**: ``queries`` maps names to functions the pages call with the
  state, the asking seat and JSON arguments (Marram's ``claims``, a score
  preview). A bad argument is an ``IllegalAction`` too.
- **Words**: ``parse_action(text, seat)`` reads one line of the game's notation
  (``NotationError`` says why not), ``format_action`` writes it,
  ``describe_event`` tells any event in words; ``turn_mail(state, seat)`` is what
  a "your turn" mail asks of that seat.
- **Time and leaving**: ``timeout(state, seat)`` and ``resign(state, seat)``
  are the events the server appends when a seat's time runs out or it leaves;
  what they do is the game's fold.
- **Bots**: ``bot_action`` picks a random legal action by default; a game may
  name better ``bot_policies``. ``selfplay_stats`` adds the game's own figures
  to ``python -m engine selfplay``. The computer players of ``engine.bots``
  (easy, medium, strong) need nothing more, but play better and fairly with
  four optional hooks: ``determinize`` (a state consistent with what the seat
  sees, its secrets redrawn: required for a game with hidden information),
  ``evaluate`` (how good a state is for a seat), ``bot_candidates`` (the actions
  a bot weighs, e.g. with the claims ``legal_actions`` leaves out) and
  ``search`` (the strong bot's budget and tuning, a ``SearchSettings``).

Nothing here knows a game's rules, and no game's rules know the platform.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

from .errors import BadOptions, IllegalAction

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
    """The budget: determinized playouts per move (replayable for a seed)."""
    cpu_seconds: float = 2.0
    """A safety cap on the CPU time of one move; a move that hits it is no longer
    replayable, so the playouts should fit well inside it."""
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
    others_policy: str | None = None
    """The ``bot_action`` policy that plays the other seats' actions within the
    tree (one action a node, as in the playouts): the search then branches on
    the seat's own actions alone. None searches every seat's actions by UCB."""


class Query(Protocol[StateIn]):
    """A named read the pages ask for (``Game.queries``)."""

    def __call__(self, state: StateIn, seat: Seat | None, args: Mapping[str, JSON]) -> JSON: ...


# ---------------------------------------------------------------- the game

class Game(Protocol[StateT, EventT]):
    """One game's rules, as the platform sees them (see the module's docstring)."""

    key: str
    title: str
    rules_version: str
    record_format: str
    record_version: int
    seat_counts: tuple[int, ...]
    options_declared: tuple[Option, ...]
    event_types: tuple[str, ...]
    queries: Mapping[str, Query[StateT]]
    has_chance: bool = True
    """Whether anything in the game is left to chance: an order dealt from the
    seed (a deck, stacks of tiles) or a chance draw (``chance``). A game of pure
    skill (Pond) says False, and its pages say nothing of fair chance."""
    bot_policies: tuple[str, ...] = ("random",)
    action_fields: Mapping[str, tuple[str, ...]] = {}
    """The events a player may submit, by type, with every field each may have
    (``"type"`` and ``"player"`` included): the platform refuses other types and
    unknown fields before the fold. Empty: any of ``event_types`` but the chance
    draws and timeouts, which are the server's."""
    action_schema: JSONObject | None = None
    """The JSON Schema (as OpenAPI writes it) of the actions a player submits, for
    the API's documentation: an object whose ``type`` names the action. None: the
    API documents the game's actions as any object with a ``type``."""
    action_defaults: Mapping[str, JSONObject] = {}
    """Fields filled in, by type, when a player's action leaves them out (Marram's
    ``"claim": null``), so that the stored event is the record's."""
    search: SearchSettings = SearchSettings()
    score_unit: tuple[str, str] = ("point", "points")
    """What a score counts, singular and plural, in the game's own words (Pond's
    "pieces" in the pile, Make-a-snake's "cm"): pages say "wins with 10 pieces"."""

    # -- options and the start

    def check_options(self, options: Options, seats: int) -> None:
        """Refuse (``BadOptions``) what the declared choices cannot say alone."""
        return None

    def setup(self, options: Options, players: Sequence[str], seed: str) -> JSONObject:
        """The record's ``config`` of a new game; hidden orders drawn from ``seed``."""
        ...

    def start(self, config: Mapping[str, JSON]) -> StateT:
        """The state before any event; ``RecordError`` for a config it cannot read."""
        ...

    def config(self, state: StateT) -> JSONObject:
        """The state's config as a record writes it (canonical)."""
        ...

    def options(self, state: StateT) -> Options:
        ...

    # -- events

    def normalise_event(self, raw: Mapping[str, object]) -> JSONObject | None:
        """The event as the store keeps it: every field checked, none but its own
        kept, defaults filled in; an ``IllegalAction`` (with a ``field`` attribute
        naming a wrong field, if it can) otherwise. The platform passes players'
        actions and imported records through it. None (the default): the platform
        checks actions against ``action_fields`` alone."""
        return None

    def read_event(self, raw: object) -> EventT:
        """``raw`` as one of this game's events, its fields still unchecked."""
        if not isinstance(raw, dict):
            raise IllegalAction("bad_event", f"an event is a JSON object, got {raw!r}")
        kind = raw.get("type")
        if kind not in self.event_types:
            raise IllegalAction("bad_event", f"unknown event type {kind!r}: expected one of "
                                + ", ".join(self.event_types))
        return cast(EventT, raw)

    def fold(self, state: StateT, event: EventT) -> StateT:
        """Check ``event`` against the rules and apply it. May update ``state`` in
        place: after an ``IllegalAction`` the caller throws ``state`` away."""
        ...

    def copy(self, state: StateT) -> StateT:
        ...

    # -- who acts, and what they may do

    def awaiting(self, state: StateT) -> Awaiting:
        ...

    def legal_actions(self, state: StateT, seat: Seat) -> list[EventT]:
        ...

    def chance(self, state: StateT) -> Chance[EventT] | None:
        ...

    def automatic(self, state: StateT) -> EventT | None:
        """An event the server appends by itself now, or None."""
        return None

    def unaffected(self, state: StateT, since: Sequence[EventT], seat: Seat) -> bool:
        """Whether ``seat``'s choice is as it was before ``since``, the events
        appended after the position its action was made on (``state``: the game
        after them). True when they are only other seats' choices made at the same
        time as this seat's, in secret, and leaving its options unchanged
        (Animals on Board's keeps): the action is then judged on ``state``, not
        refused for a stale seq. By default False: any event since is a change the
        player has not seen."""
        return False

    def timeout(self, state: StateT, seat: Seat) -> list[EventT]:
        """The events for a seat whose time ran out: by default the record's
        ``{"type": "timeout", "player": seat}``, which the game's fold gives meaning."""
        return [cast(EventT, {"type": "timeout", "player": seat})]

    def resign(self, state: StateT, seat: Seat) -> list[EventT]:
        """The events for a seat that leaves: by default ``{"type": "resign", ...}``."""
        return [cast(EventT, {"type": "resign", "player": seat})]

    # -- what people see

    def view(self, state: StateT, seat: Seat | None) -> JSONObject:
        ...

    def view_revealed(self, state: StateT, seat: Seat | None) -> JSONObject:
        """``seat``'s view of ``state`` with every secret shown: what a step of a
        finished game's replay shows (the platform never shows it while the game
        runs). By default the view itself, for a game without hidden information."""
        return self.view(state, seat)

    def event_view(self, state: StateT, event: EventT, seat: Seat | None) -> JSONObject:
        """``event`` as ``seat`` (None: a spectator) may read it in the event list
        of the game now in ``state``: what it must not know yet removed. By default
        events are public and shown whole."""
        return cast(JSONObject, dict(event))

    def summary(self, state: StateT) -> JSONObject:
        ...

    def view_tables(self) -> Mapping[str, JSONObject]:
        """Tables the game's views refer to by key, fixed by the rules (Marram's
        tile drawings): the API serves each once for browsers and clients to keep,
        so that no view repeats them. By default none."""
        return {}

    # -- snapshots (server-side only: they hold every secret)

    snapshot_version: int = 0
    """The version of ``dump_state``'s JSON: bump it when the state's shape
    changes. 0: the game writes no snapshots, and is always read by replay."""

    def dump_state(self, state: StateT) -> JSONObject:
        """The whole state as JSON, secrets included, for the server's snapshots
        (``engine.snapshot``): ``load_state`` of it, folded on, must act exactly as
        the state it was dumped from. Only for a game whose ``snapshot_version``
        is not 0."""
        raise NotImplementedError(f"{self.title} writes no snapshots")

    def load_state(self, config: Mapping[str, JSON], data: Mapping[str, JSON]) -> StateT:
        """The state ``dump_state`` wrote, for the game of this ``config``; a
        ``SnapshotError`` if ``data`` cannot be read."""
        raise NotImplementedError(f"{self.title} reads no snapshots")

    def projection(self, state: StateT) -> Projection:
        ...

    # -- words

    def parse_action(self, text: str, seat: Seat) -> EventT:
        ...

    def format_action(self, action: EventT) -> str:
        ...

    def describe_event(self, event: EventT, names: Sequence[str], *,
                       forced: bool = False) -> str:
        """One line of the game's story; ``forced``: an automatic event."""
        ...

    def turn_mail(self, state: StateT, seat: Seat) -> TurnMail | None:
        """None when nothing is awaited of the seat."""
        ...

    # -- bots and self-play

    def bot_action(self, state: StateT, seat: Seat, rng: random.Random,
                   policy: str = "random") -> EventT:
        """A bot's action for an awaited seat: by default any legal one."""
        return rng.choice(self.legal_actions(state, seat))

    def selfplay_stats(self, state: StateT) -> Mapping[str, float]:
        """Figures of a finished game that self-play averages and prints."""
        return {}

    def determinize(self, state: StateT, seat: Seat, rng: random.Random) -> StateT:
        """A state the seat cannot tell from ``state``: everything it sees kept,
        every secret it does not see (deck orders, others' hidden choices, future
        draws) redrawn with ``rng`` from what its view allows. The result must
        depend only on the seat's view and ``rng``, so that bots never learn a
        secret; the caller may fold into it. The default, a copy, is right only
        for games without hidden information."""
        return self.copy(state)

    def evaluate(self, state: StateT, seat: Seat) -> float:
        """How good ``state`` is for ``seat``, higher better, in points: by default
        the seat's score less the best other score (the other way round when
        lower scores win), plus or minus a million once the game is won or lost.
        Games with open features, tokens or material override it."""
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
        claims) or leaves out actions no good player makes; every one must be legal."""
        return self.legal_actions(state, seat)


AnyGame = Game[Any, Any]
"""A game of any state and event types, as the registry holds them."""


def read_options(game: Game[StateT, EventT], raw: Mapping[str, object] | None,
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


def query(game: Game[StateT, EventT], state: StateT, name: str, seat: Seat | None,
          args: Mapping[str, JSON]) -> JSON:
    """Run one of the game's named queries; an unknown name is an IllegalAction."""
    run: Callable[[StateT, Seat | None, Mapping[str, JSON]], JSON] | None = \
        game.queries.get(name)
    if run is None:
        raise IllegalAction("unknown_query", f"{game.title} answers no query {name!r}: "
                            "it answers " + (", ".join(game.queries) or "none"))
    return run(state, seat, args)
