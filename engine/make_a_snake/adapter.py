"""Make-a-snake as the platform sees it: the Game protocol (``engine.protocol``)
over the rules modules of this package, which it only calls. Nothing here
decides a rule; it translates between the protocol's vocabulary and the game's."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import cast

from ..errors import IllegalAction
from ..protocol import (
    JSON,
    Awaiting,
    Chance,
    Choice,
    Game,
    JSONObject,
    ModuleNotation,
    ModuleSnapshots,
    Option,
    Options,
    Projection,
    Query,
    SearchSettings,
    Seat,
    Task,
    TurnMail,
)
from . import advanced, bots, notation, record, rules, scoring, snapshot, view
from .events import ACTION_SCHEMA, EVENT_TYPES, Connect, Roll, SnakeEvent, Take
from .geometry import to_float
from .pieces import SIDES
from .snake import overlapped
from .state import State
from .view import Preview

MODES = (Choice("competitive", "Competitive: the snake with the shortest distance from "
                "tongue to tail wins"),
         Choice("lollipop", "The lollipop hunt: one snake, together, touching four "
                "lollipops"))
ADVANCED = (Choice(False, "Basic rules: overlap any tile"),
            Choice(True, "Advanced rules: overlap only onto a tile of the same colour"))


class MakeASnake(ModuleNotation[State, SnakeEvent], ModuleSnapshots[State],
                 Game[State, SnakeEvent]):
    key = "make_a_snake"
    title = "Make-a-snake"
    rules_version = rules.RULES_VERSION
    record_format = record.FORMAT
    record_version = record.VERSION
    seat_counts = record.SEATS
    score_unit = ("cm", "cm")  # a snake's tongue-to-tail distance
    options_declared = (
        Option("mode", "Mode", MODES, "competitive"),
        Option("advanced", "Rules", ADVANCED, False,
               help="in the advanced game a tile may only overlap a tile of its own "
               "colour, and earlier tiles are turned over when it fits on neither side"),
    )
    event_types = EVENT_TYPES
    has_chance = True  # the stacks, and the die
    hidden_information = True  # the stacks' order
    action_schema = ACTION_SCHEMA
    bot_policies = ("random", "greedy")
    search = SearchSettings(playouts=300, cpu_seconds=2.0, rollout_moves=None,
                            rollout_policy="greedy", exploration=0.5,
                            margin_weight=0.5, margin_scale=10.0)
    """Every playout played to the end, each snake laying its tiles on the side
    that brings its tail nearest (``bots.greedy_action``): the result is
    measured, not guessed, and the search learns which stack to take from
    before the tile is seen. The die and the stacks decide most of a game, so a
    playout's win or loss says little about the move at the root; half of each
    reward is the final margin in centimetres (a logistic at 10 cm, about a
    typical margin), which tells a closer tail from a farther one in every
    playout, won or lost (docs/bots.md)."""

    # -- members that are functions of the rules modules as they stand

    notation_module = notation
    snapshot_module = snapshot
    start = staticmethod(record.start)
    config = staticmethod(record.config_to_json)
    fold = staticmethod(rules.fold)
    determinize = staticmethod(bots.determinize)
    evaluate = staticmethod(bots.evaluate)

    def __init__(self) -> None:
        self.queries: Mapping[str, Query[State]] = {"connect_preview": self._connect_preview}

    # -- options and the start

    def setup(self, options: Options, players: Sequence[str], seed: str) -> JSONObject:
        return record.make_config(players, str(options["mode"]), bool(options["advanced"]),
                                  seed)

    # -- who acts

    def awaiting(self, state: State) -> Awaiting:
        if state.finished:
            return Awaiting.over()
        if state.phase == "roll":
            return Awaiting.draw("the roll of the die")
        seat = state.current
        if state.phase == "take":
            assert state.die is not None
            colours = rules.takeable(state)
            return Awaiting.seats(Task(
                seat, "take", "take the top tile of " + " or ".join(colours),
                {"die": list(state.die), "colours": list(colours)}))
        choice = rules.connect_choice(state)
        last = "tile" if choice.turn == 1 else f"{choice.turn} tiles"
        turned = f"turn the last {last} over, then " if choice.turn else ""
        return Awaiting.seats(Task(
            seat, "connect", f"{turned}connect {state.taken} to your snake, "
            + (" or ".join(choice.sides) if len(choice.sides) > 1 else
               f"{choice.sides[0]} (the other side does not fit)"),
            {"tile": state.taken, "turn": choice.turn, "sides": list(choice.sides)}))

    def legal_actions(self, state: State, seat: Seat) -> list[SnakeEvent]:
        if state.finished or seat != state.current or seat in state.resigned:
            return []
        if state.phase == "take":
            return [Take(type="take", player=seat, colour=c) for c in rules.takeable(state)]
        if state.phase == "connect":
            choice = rules.connect_choice(state)
            return [Connect(type="connect", player=seat, side=s, turn=choice.turn)
                    for s in choice.sides]
        return []

    def chance(self, state: State) -> Chance[SnakeEvent] | None:
        odds = rules.chance_outcomes(state)
        if odds is None:
            return None
        return Chance("the roll of the die",
                      tuple((Roll(type="roll", face=list(face)), share)
                            for face, share in odds.items()))

    # -- what people see

    # The views are TypedDicts of JSON values: JSON objects, which mypy does not
    # take a TypedDict for.

    def view(self, state: State, seat: Seat | None) -> JSONObject:
        return cast(JSONObject, view.player_view(state, seat))

    def view_revealed(self, state: State, seat: Seat | None) -> JSONObject:
        return cast(JSONObject, view.revealed_view(state, seat))

    def summary(self, state: State) -> JSONObject:
        return cast(JSONObject, view.summary(state))

    def projection(self, state: State) -> Projection:
        to_act = self.awaiting(state).players
        out = tuple(sorted(state.resigned))
        if state.lollipop:
            shared = len(state.touched)
            return Projection(finished=state.finished, scores=(shared,) * len(state.players),
                              winners=state.winners, to_act=to_act, out=out,
                              cooperative=True, end=state.end)
        return Projection(finished=state.finished,
                          scores=tuple(None if d is None else d / 100
                                       for d in state.distances),
                          winners=state.winners, to_act=to_act, out=out, better="lower",
                          end=state.end)

    def _connect_preview(self, state: State, seat: Seat | None,
                         args: Mapping[str, JSON]) -> JSON:
        return cast(JSON, self.connect_previews(state))

    def connect_previews(self, state: State) -> list[Preview]:
        """Where the taken tile would lie up and down (both, in that order): the
        connect that lays it (null when that side may not be chosen), whether it
        may and why in words (``advanced.explain``), the tiles turned over first
        as they would then lie, its parts and open end, the earlier tiles it would
        overlap (by index and tile) and, in the lollipop hunt, the lollipops
        touched."""
        if state.phase != "connect":
            raise IllegalAction("bad_query", "a preview is of a connect: take a tile first")
        assert state.taken is not None
        choice = rules.connect_choice(state)
        legal = {a["side"]: a for a in self.legal_actions(state, state.current)
                 if a["type"] == "connect"}
        previews: list[Preview] = []
        for side in SIDES:
            snake = state.snake_of(state.current).copy()
            if choice.turn:
                snake.tiles = snake.turned(choice.turn)
            laid = snake.with_tile(state.taken, side)
            before = snake.tiles
            snake.tiles = [*before, laid]
            hits = overlapped(laid, before)
            action = legal.get(side)
            entry: Preview = {
                "side": side,
                "action": None if action is None else cast(JSON, dict(action)),
                "allowed": side in choice.sides,
                "why": advanced.explain(laid, before, choice, state.advanced),
                "turn": choice.turn,
                "turned": [view.piece_view(t) for t in before[len(before) - choice.turn:]]
                if choice.turn else [],
                "open_end": view.open_end(snake),
                "parts": [view.part_view(p) for p in laid.parts],
                "overlaps": hits,
                "overlap_tiles": [before[i].tile for i in hits],
                "end_point": list(to_float(laid.end)),
            }
            if state.lollipop:
                entry["touched"] = list(scoring.touched(snake))
            previews.append(entry)
        return previews

    # -- words

    def task_mail(self, state: State, task: Task) -> TurnMail:
        examples = tuple(self.format_action(a) for a in self.legal_actions(state, task.seat))
        if task.kind == "take":
            assert state.die is not None
            return TurnMail("your turn", f"The die shows {state.die[0]} and {state.die[1]}. "
                            "Reply with the colour whose top tile you take, for example '"
                            + examples[0] + "'.", examples)
        return TurnMail("connect your tile", f"You took {state.taken}: please {task.prompt}. "
                        f"Reply with '{examples[0]}'"
                        + (f" or '{examples[1]}'." if len(examples) > 1 else "."), examples)

    # -- bots and self-play

    def bot_action(self, state: State, seat: Seat, rng: random.Random,
                   policy: str = "random") -> SnakeEvent:
        if policy == "greedy":
            return bots.greedy_action(state, seat, rng)
        return super().bot_action(state, seat, rng, policy)

    def selfplay_stats(self, state: State) -> Mapping[str, float]:
        tiles = sum(len(s.tiles) for s in state.snakes) / len(state.snakes)
        stats = {"tiles a snake": tiles}
        if state.lollipop:
            stats["hunts won"] = float(state.end == "won")
            stats["lollipops touched"] = float(len(state.touched))
        else:
            measured = [d for d in state.distances if d is not None]
            if measured:
                stats["winning distance"] = min(measured) / 100
        return stats


GAME = MakeASnake()
