"""A Make-a-snake state as JSON and back, for the server's snapshots
(``engine.snapshot``).

Each snake is its tiles, each with the side it shows, and whether its tail is
laid: laying them again from the head gives the same exact geometry. The stacks
come from the record's config."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..protocol import JSON, JSONObject
from .advanced import Choice
from .pieces import COLOURS
from .snake import Snake, lay_tail, lay_tile
from .state import State

VERSION = 1
"""The version of this JSON (the game's ``snapshot_version``)."""


def _snake(s: Snake) -> JSON:
    return {"tiles": [[t.tile, t.side] for t in s.tiles], "tail": s.tail is not None}


def _snake_in(raw: Mapping[str, Any]) -> Snake:
    snake = Snake([])
    for tile, side in raw["tiles"]:
        if side not in ("up", "down"):
            raise ValueError(f"a tile shows its up or down side, not {side!r}")
        snake.tiles.append(lay_tile(str(tile), side, *snake.open_end()))
    if raw["tail"]:
        snake.tail = lay_tail(*snake.open_end())
    return snake


def dump(state: State) -> JSONObject:
    choice = state.choice
    return {
        "drawn": {c: state.drawn[c] for c in COLOURS},
        "snakes": [_snake(s) for s in state.snakes], "current": state.current,
        "phase": state.phase, "die": None if state.die is None else list(state.die),
        "taken": state.taken,
        "choice": None if choice is None else {"turn": choice.turn,
                                               "sides": list(choice.sides),
                                               "blocked": choice.blocked},
        "resigned": cast(JSON, sorted(state.resigned)), "last_round": state.last_round,
        "end": state.end, "winners": list(state.winners),
        "distances": list(state.distances), "touched": list(state.touched),
        "events": state.events,
    }


def load(start: State, data: Mapping[str, JSON]) -> State:
    """The state ``dump`` wrote, on the players, mode and stacks of ``start``."""
    raw = cast(Mapping[str, Any], data)
    state = start
    state.drawn = {c: int(raw["drawn"][c]) for c in COLOURS}
    state.snakes = [_snake_in(s) for s in raw["snakes"]]
    state.current = int(raw["current"])
    state.phase = raw["phase"]
    state.die = None if raw["die"] is None else (raw["die"][0], raw["die"][1])
    state.taken = raw["taken"]
    choice = raw["choice"]
    state.choice = None if choice is None else Choice(
        int(choice["turn"]), tuple(choice["sides"]), bool(choice["blocked"]))
    state.resigned = {int(s) for s in raw["resigned"]}
    state.last_round = bool(raw["last_round"])
    state.end = raw["end"]
    state.winners = tuple(int(s) for s in raw["winners"])
    state.distances = [None if d is None else int(d) for d in raw["distances"]]
    state.touched = tuple(int(n) for n in raw["touched"])
    state.events = int(raw["events"])
    return state
