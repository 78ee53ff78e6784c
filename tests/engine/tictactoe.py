"""Tic-tac-toe, the smallest game that proves the protocol (boardgame.io's first
example): two seats, nine cells, no chance and no secrets of its own.

To exercise the parts of the protocol that noughts and crosses lack, it has two
options: ``opening: "secret"`` makes both seats choose their first cell at the
same time (each sees only their own choice until both are in, as in Animals on
Board's first ``keep``; equal choices go to seat 0 and seat 1 takes the next
free cell), and ``opening: "dice"`` lets a die decide which seat moves first (a
chance event drawn from the seed). ``misere: true`` makes three in a row lose.
Not registered by default: the tests register it.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, TypedDict

from engine.errors import IllegalAction, NotationError, RecordError
from engine.protocol import (
    JSON,
    Awaiting,
    Chance,
    Choice,
    Game,
    JSONObject,
    Option,
    Options,
    Projection,
    Query,
    Seat,
    Task,
)

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
MARKS = "XO"


class Mark(TypedDict):
    type: Literal["mark"]
    player: int
    cell: int


class Choose(TypedDict):
    """A secret first choice (opening "secret")."""

    type: Literal["choose"]
    player: int
    cell: int


class FirstPlayer(TypedDict):
    """The die's choice of the seat that moves first (opening "dice")."""

    type: Literal["first"]
    seat: int


class Timeout(TypedDict):
    type: Literal["timeout"]
    player: int


class Resign(TypedDict):
    type: Literal["resign"]
    player: int


Event = Mark | Choose | FirstPlayer | Timeout | Resign


@dataclass(slots=True)
class State:
    players: tuple[str, ...]
    opening: str
    misere: bool
    cells: list[int | None] = field(default_factory=lambda: [None] * 9)
    current: Seat = 0
    chosen: dict[Seat, int] = field(default_factory=dict)
    first_drawn: bool = False
    finished: bool = False
    winners: list[Seat] = field(default_factory=list)
    resigned: Seat | None = None


def _seat(raw: object) -> Seat:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw not in (0, 1):
        raise IllegalAction("bad_event", f"'player' must be seat 0 or 1, got {raw!r}")
    return raw


def _cell(raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 8:
        raise IllegalAction("bad_cell", f"a cell is a number from 0 to 8, got {raw!r}")
    return raw


class TicTacToe(Game[State, Event]):
    key = "tictactoe"
    title = "Tic-tac-toe"
    rules_version = "1"
    record_format = "tictactoe-game-record"
    record_version = 1
    seat_counts = (2,)
    options_declared = (
        Option("opening", "Opening", (Choice("plain", "X moves first"),
                                      Choice("secret", "Both choose a first cell in secret"),
                                      Choice("dice", "A die says who moves first")), "plain"),
        Option("misere", "Misère", (Choice(False, "three in a row wins"),
                                     Choice(True, "three in a row loses")), False),
    )
    event_types = ("mark", "choose", "first", "timeout", "resign")
    has_chance = True  # the die of opening "dice"
    hidden_information = True  # the secret opening's first choice
    bot_policies = ("random", "first")

    def __init__(self) -> None:
        self.queries: Mapping[str, Query[State]] = {"lines": self._lines}

    # -- start

    def setup(self, options: Options, players: Sequence[str], seed: str) -> JSONObject:
        return {"players": list(players), "opening": options["opening"],
                "misere": options["misere"]}

    def start(self, config: Mapping[str, JSON]) -> State:
        players = config.get("players")
        if not isinstance(players, list) or len(players) != 2 \
                or not all(isinstance(p, str) for p in players):
            raise RecordError("'players' must be a list of two names")
        opening, misere = config.get("opening", "plain"), config.get("misere", False)
        if opening not in ("plain", "secret", "dice") or not isinstance(misere, bool):
            raise RecordError("'opening' is plain, secret or dice; 'misere' true or false")
        return State(tuple(str(p) for p in players), str(opening), misere)

    def config(self, state: State) -> JSONObject:
        return {"players": list(state.players), "opening": state.opening,
                "misere": state.misere}

    # -- the fold

    def fold(self, state: State, event: Event) -> State:
        if state.finished:
            raise IllegalAction("game_finished", "the game is over")
        if event["type"] == "resign":
            seat = _seat(event.get("player"))
            state.finished, state.resigned, state.winners = True, seat, [1 - seat]
            return state
        wait = self.awaiting(state)
        if event["type"] == "first":
            if wait.chance is None:
                raise IllegalAction("not_pending", "no die is due now")
            state.current, state.first_drawn = _seat(event.get("seat")), True
            return state
        seat = _seat(event.get("player"))
        task = wait.task(seat)
        if task is None:
            raise IllegalAction("not_your_turn", f"player {seat} has nothing to do now")
        if event["type"] == "timeout":
            if task.kind == "choose":  # a timed-out secret choice takes the first free cell
                state.chosen[seat] = 0
                self._reveal(state)
            else:
                state.current = 1 - seat
            return state
        cell = _cell(event.get("cell"))
        if event["type"] != task.kind:
            raise IllegalAction("wrong_action", f"player {seat} must {task.prompt}")
        if event["type"] == "choose":
            state.chosen[seat] = cell
            self._reveal(state)
            return state
        if state.cells[cell] is not None:
            raise IllegalAction("occupied", f"cell {cell} is taken")
        state.cells[cell] = seat
        state.current = 1 - seat
        self._score(state)
        return state

    def _reveal(self, state: State) -> None:
        if len(state.chosen) < 2:
            return
        state.cells[state.chosen[0]] = 0
        if state.chosen[1] == state.chosen[0]:
            state.cells[state.cells.index(None)] = 1
        else:
            state.cells[state.chosen[1]] = 1

    def _score(self, state: State) -> None:
        for line in LINES:
            owners = {state.cells[c] for c in line}
            if len(owners) == 1 and None not in owners:
                owner = owners.pop()
                assert owner is not None
                state.finished = True
                state.winners = [1 - owner if state.misere else owner]
                return
        if None not in state.cells:
            state.finished, state.winners = True, [0, 1]

    # -- who acts

    def awaiting(self, state: State) -> Awaiting:
        if state.finished:
            return Awaiting.over()
        if state.opening == "dice" and not state.first_drawn:
            return Awaiting.draw("the die chooses who moves first")
        if state.opening == "secret" and len(state.chosen) < 2:
            return Awaiting.seats(*(Task(s, "choose", "choose a first cell in secret")
                                    for s in (0, 1) if s not in state.chosen))
        return Awaiting.seats(Task(state.current, "mark", "mark a free cell"))

    def legal_actions(self, state: State, seat: Seat) -> list[Event]:
        task = self.awaiting(state).task(seat)
        if task is None:
            return []
        if task.kind == "choose":
            return [Choose(type="choose", player=seat, cell=c) for c in range(9)]
        return [Mark(type="mark", player=seat, cell=c) for c in range(9)
                if state.cells[c] is None]

    def unaffected(self, state: State, since: Sequence[Event], seat: Seat) -> bool:
        """A secret first choice stands whatever the other seat chose meanwhile."""
        task = self.awaiting(state).task(seat)
        return task is not None and task.kind == "choose" and all(
            e["type"] == "choose" and e["player"] != seat for e in since)

    def chance(self, state: State) -> Chance[Event] | None:
        if self.awaiting(state).chance is None:
            return None
        return Chance("the die", tuple((FirstPlayer(type="first", seat=s), Fraction(1, 2))
                                       for s in (0, 1)))

    # -- what people see

    def _board(self, state: State, seat: Seat | None) -> str:
        cells = ["." if c is None else MARKS[c] for c in state.cells]
        if seat is not None and seat in state.chosen and len(state.chosen) < 2:
            cells[state.chosen[seat]] = MARKS[seat].lower()  # only your own secret choice
        return "".join(cells)

    def view(self, state: State, seat: Seat | None) -> JSONObject:
        return {**self.summary(state), "you": seat, "board": self._board(state, seat),
                "chosen": [s for s in (0, 1) if s in state.chosen]}

    def event_view(self, state: State, event: Event, seat: Seat | None) -> JSONObject:
        """Another seat's secret first choice without its cell, until both are in."""
        if event["type"] == "choose" and event["player"] != seat and len(state.chosen) < 2 \
                and not state.finished:
            return {"type": "choose", "player": event["player"]}
        return super().event_view(state, event, seat)

    def summary(self, state: State) -> JSONObject:
        wait = self.awaiting(state)
        return {"finished": state.finished, "winners": list(state.winners),
                "current_player": None if not wait.tasks or len(wait.tasks) > 1
                else wait.tasks[0].seat,
                "awaiting": list(wait.players), "board": self._board(state, None)}

    def projection(self, state: State) -> Projection:
        won = [1 if s in state.winners and len(state.winners) == 1 else 0 for s in (0, 1)]
        return Projection(finished=state.finished, scores=tuple(won),
                          winners=tuple(state.winners),
                          to_act=self.awaiting(state).players,
                          out=() if state.resigned is None else (state.resigned,),
                          end="resign" if state.resigned is not None else None)

    def _lines(self, state: State, seat: Seat | None, args: Mapping[str, JSON]) -> JSON:
        """The lines still open to a seat (``{"seat": s}``; the asker's by default)."""
        who = args.get("seat", seat)
        if who not in (0, 1):
            raise IllegalAction("bad_query", f"'seat' must be 0 or 1, got {who!r}")
        return [list(line) for line in LINES
                if all(state.cells[c] in (None, who) for c in line)]

    # -- words

    def parse_action(self, text: str, seat: Seat) -> Event:
        words = text.lower().split()
        if len(words) != 2 or words[0] not in ("mark", "choose") or not words[1].isdigit() \
                or not 1 <= int(words[1]) <= 9:
            raise NotationError("write 'mark N' or 'choose N' with a cell from 1 to 9")
        cell = int(words[1]) - 1
        if words[0] == "choose":
            return Choose(type="choose", player=seat, cell=cell)
        return Mark(type="mark", player=seat, cell=cell)

    def format_action(self, action: Event) -> str:
        if action["type"] in ("mark", "choose"):
            return f"{action['type']} {action['cell'] + 1}"
        raise NotationError(f"a {action['type']} is not something a player writes")

    def describe_event(self, event: Event, names: Sequence[str], *,
                       forced: bool = False) -> str:
        if event["type"] == "first":
            return f"the die says {names[event['seat']]} moves first"
        who = names[event["player"]]
        if event["type"] == "choose" and "cell" not in event:  # another seat's, still secret
            return f"{who} chose a first cell in secret"
        if event["type"] == "timeout":
            return f"{who} ran out of time"
        if event["type"] == "resign":
            return f"{who} resigned"
        return f"{who}: {self.format_action(event)}"

    def bot_action(self, state: State, seat: Seat, rng: random.Random,
                   policy: str = "random") -> Event:
        actions = self.legal_actions(state, seat)
        return actions[0] if policy == "first" else rng.choice(actions)

    def determinize(self, state: State, seat: Seat, rng: random.Random) -> State:
        """The other seat's secret first cell, redrawn: the only secret."""
        out = self.copy(state)
        other = 1 - seat
        if other in out.chosen and len(out.chosen) < 2:
            out.chosen[other] = rng.randrange(9)
        return out

    def evaluate(self, state: State, seat: Seat) -> float:
        """Lines still open, by the square of the marks in them, mine less the
        other's; a line the player to move completes at once counts a hundred."""
        if state.finished:
            return 0.0 if len(state.winners) != 1 else 1e6 if state.winners == [seat] else -1e6
        value = 0.0
        for line in LINES:
            marks = [state.cells[c] for c in line]
            mine, theirs = marks.count(seat), marks.count(1 - seat)
            value += (mine * mine if not theirs else 0) - (theirs * theirs if not mine else 0)
            if marks.count(None) == 1 and max(mine, theirs) == 2 and self.awaiting(state).task(
                    state.current) is not None and marks.count(state.current) == 2:
                value += 100 if state.current == seat else -100
        return -value if state.misere else value

    def selfplay_stats(self, state: State) -> Mapping[str, float]:
        return {"cells marked": sum(c is not None for c in state.cells)}


GAME = TicTacToe()
