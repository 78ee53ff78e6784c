"""Pond as the platform sees it: the Game protocol (``engine.protocol``) over the
rules modules of this package, which it only calls. Nothing here decides a rule;
it translates between the protocol's vocabulary and Pond's."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from ..errors import BadOptions, IllegalAction
from ..protocol import (
    JSON,
    Awaiting,
    Choice,
    Game,
    JSONObject,
    ModuleNotation,
    ModuleSnapshots,
    Option,
    Options,
    Projection,
    Query,
    ReviewSettings,
    SearchSettings,
    Seat,
    Task,
    TurnMail,
    query_action,
)
from . import actions, bots, notation, ponds, record, rules, snapshot
from . import view as views
from .events import ACTION_SCHEMA, EVENT_TYPES, PondEvent
from .pieces import COLOURS
from .state import GameState

OPTION_SETS = (
    Choice("big", "Big pond: 5x5, 15 eggs each, first to 10"),
    Choice("small", "Small pond: 4x4, 11 eggs each, first to 7"),
    Choice("small-13", "Small pond, 13 eggs each, first to 10"),
    Choice("small-14", "Small pond, 14 eggs each, first to 10"),
)
PROMPT = "place an egg, move a tadpole one step, or move a frog one or two steps"


class PondGame(ModuleNotation[GameState, PondEvent], ModuleSnapshots[GameState],
               Game[GameState, PondEvent]):
    key = "pond"
    title = "Pond"
    rules_version = rules.RULES_VERSION
    record_format = record.FORMAT
    record_version = record.VERSION
    seat_counts = (record.SEATS,)
    score_unit = ("piece", "pieces")  # the pieces in a player's pile
    review = ReviewSettings(measure="win")
    """A review tells a move's cost in the chance of winning: the evaluation
    weighs pieces on the board and near-sets beside the piles, so it is no count
    of pieces."""
    options_declared = (
        Option("options", "Pond", OPTION_SETS, ponds.DEFAULT,
               help="the size of the pond, the eggs in each spawn and the target pile"),
    )
    event_types = EVENT_TYPES
    has_chance = False  # no deck, no die: the seed deals nothing
    action_fields = {
        # every kind a player writes, whether or not they may make one now: "move"
        # with no piece that can move is refused by the rule it breaks
        "egg": ("type", "player", "at"),
        "move": ("type", "player", "from", "to"),
        "resign": ("type", "player"),
    }
    action_schema = ACTION_SCHEMA
    search = SearchSettings(playouts=1000, cpu_seconds=2.0, rollout_moves=0, width=10,
                            ranked_depth=2, evaluation_scale=10.0, exploration=0.2)
    """A best-first search judged by the evaluation at every leaf: random play to
    the end says little about a position, while piles, pieces and near-sets
    after a few plies say much. The ten best actions by one-ply evaluation at the
    root and at the reply, and little exploration, so the playouts go deep
    enough to see the reply (at 200 playouts without the pruning the strong bot
    won 10 of its first 16 games against medium; with it, 19 of 20)."""

    medium_replies = True
    """A set scores for whoever completes it, so the best move one ply ahead is
    often one that hands the reply a set: the medium bot weighs the reply."""

    # -- members that are functions of the rules modules as they stand

    notation_module = notation
    snapshot_module = snapshot
    start = staticmethod(record.new_state)
    config = staticmethod(record.config_to_json)
    fold = staticmethod(rules.step)
    legal_actions = staticmethod(actions.legal_actions)
    evaluate = staticmethod(bots.evaluate)

    def __init__(self) -> None:
        self.queries: Mapping[str, Query[GameState]] = {
            "destinations": self._destinations, "preview": self._preview}

    # -- options and the start

    def setup(self, options: Options, players: Sequence[str], seed: str) -> JSONObject:
        """Pond has no chance: the seed deals nothing, and the config is the seats
        and the option set (a record's spelled-out set comes back as ``custom``)."""
        name = options.get("options", ponds.DEFAULT)
        if name == ponds.CUSTOM:
            raw = {k: options.get(k) for k in ("size", "eggs", "target")}
            pond = ponds.spelled_out(cast(dict[str, JSON], raw))
        elif isinstance(name, str) and name in ponds.NAMED:
            pond = ponds.NAMED[name]
        else:
            raise BadOptions(f"unknown Pond options {name!r}: one of " + ", ".join(ponds.NAMED))
        return {"players": list(players), "options": ponds.pond_to_json(pond)}

    def options(self, state: GameState) -> Options:
        name = ponds.name_of(state.pond)
        if name is not None:
            return {"options": name}
        pond = state.pond
        return {"options": ponds.CUSTOM, "size": pond.size, "eggs": pond.eggs,
                "target": pond.target}

    # -- who acts

    def awaiting(self, state: GameState) -> Awaiting:
        if state.finished:
            return Awaiting.over()
        seat = state.current
        return Awaiting.seats(Task(seat, "move", PROMPT, {"spawn": state.spawns[seat],
                                                          "colour": COLOURS[seat]}))

    # -- what people see

    # The views are TypedDicts of JSON values (engine.pond.view): JSON objects,
    # which mypy does not take a TypedDict for.

    def view(self, state: GameState, seat: Seat | None) -> JSONObject:
        return cast(JSONObject, views.player_view(state, seat))

    def summary(self, state: GameState) -> JSONObject:
        return cast(JSONObject, views.summary(state))

    def projection(self, state: GameState) -> Projection:
        return Projection(
            finished=state.finished, scores=tuple(state.piles), winners=tuple(state.winners),
            to_act=self.awaiting(state).players,
            out=() if state.resigned is None else (state.resigned,), end=state.end)

    def _destinations(self, state: GameState, seat: Seat | None,
                      args: Mapping[str, JSON]) -> JSON:
        """Where the piece at ``{"from": [x, y]}`` may move now (none for an egg,
        an empty position, or another seat's piece)."""
        origin = actions.read_position(state.board, args, "from") if "from" in args else None
        if origin is None:
            raise IllegalAction("bad_query", "give the piece's position as 'from': [x, y]")
        piece = state.board[origin]
        if state.finished or piece is None or (seat is not None and piece.colour != seat):
            return []
        return [[x, y] for x, y in actions.destinations(state.board, origin)]

    def _preview(self, state: GameState, seat: Seat | None, args: Mapping[str, JSON]) -> JSON:
        """What an egg or a move (``{"action": ...}``) would do: the board after
        it, the positions that develop, the pieces that score and what each pile
        gains. The asking seat's own action only."""
        event = self.read_event(query_action(args, seat, ("egg", "move")))
        return cast(JSON, views.preview(state, self.fold(state.copy(), event)))

    # -- words

    def task_mail(self, state: GameState, task: Task) -> TurnMail:
        seat = task.seat
        legal = self.legal_actions(state, seat)
        # one example of each kind the seat may make: an egg, a move
        examples = tuple(notation.format_action(next(a for a in legal if a["type"] == kind))
                         for kind in ("egg", "move") if any(a["type"] == kind for a in legal))
        eggs = state.spawns[seat]
        return TurnMail("your move", (
            f"It is your turn: you play the {COLOURS[seat]} pieces and have {eggs} "
            f"egg{'' if eggs == 1 else 's'} left in your spawn. Place an egg on an empty "
            "position, move one of your tadpoles one step, or move one of your frogs one or "
            "two steps in a straight line. Reply with your move on the first line, "
            f"for example {' or '.join(repr(e) for e in examples)}: positions are x,y, "
            "counted east and south from 0,0 in the north-west corner."), examples)

    # -- bots and self-play

    def selfplay_stats(self, state: GameState) -> Mapping[str, float]:
        return {"pieces scored": sum(state.piles),
                "eggs placed": 2 * state.pond.eggs - sum(state.spawns),
                **{f"ended by {end}": float(state.end == end)
                   for end in ("target", "elimination", "repetition")}}


GAME = PondGame()
