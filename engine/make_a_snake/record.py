"""The game record's config (format ``make-a-snake-game-record``, version 1): a
new game's deal from the seed, and reading a record's config into a state."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from ..errors import RecordError
from ..fairness import shuffle
from ..protocol import JSON, JSONObject
from .pieces import COLOURS, MODES, Colour, Mode, is_tile, stack_tiles
from .snake import Snake
from .state import State

FORMAT = "make-a-snake-game-record"
VERSION = 1
SEATS = (2, 3, 4)


def deal(seed: str) -> dict[Colour, list[str]]:
    """Each stack's order, top first, drawn from the game's seed (its own label
    per colour, so each stack is an independent shuffle)."""
    return {c: shuffle(seed, stack_tiles(c), f"stack:{c}") for c in COLOURS}


def make_config(players: Sequence[str], mode: str, advanced: bool, seed: str) -> JSONObject:
    stacks: dict[str, JSON] = {c: cast(JSON, tiles) for c, tiles in deal(seed).items()}
    return {"players": list(players), "mode": mode, "advanced": advanced, "stacks": stacks}


def config_to_json(state: State) -> JSONObject:
    return {"players": list(state.players), "mode": state.mode, "advanced": state.advanced,
            "stacks": {c: list(state.stacks[c]) for c in COLOURS}}


def _stacks(raw: object) -> dict[Colour, tuple[str, ...]]:
    if not isinstance(raw, dict) or set(raw) != set(COLOURS):
        raise RecordError("'stacks' must be an object with a list for each colour: "
                          + ", ".join(COLOURS))
    stacks: dict[Colour, tuple[str, ...]] = {}
    for colour in COLOURS:
        tiles = raw[colour]
        if not isinstance(tiles, list) or not all(is_tile(t) for t in tiles):
            raise RecordError(f"the {colour} stack must be a list of tile ids such as "
                              f"'{colour}-3', got {tiles!r}")
        if sorted(tiles) != sorted(stack_tiles(colour)):
            raise RecordError(f"the {colour} stack must hold each of {colour}-1 to "
                              f"{colour}-8 once, got {tiles!r}")
        stacks[colour] = tuple(tiles)
    return stacks


def start(config: Mapping[str, JSON]) -> State:
    """The state before the first event; RecordError says what is wrong."""
    players = config.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("'players' must be a list of names")
    if len(players) not in SEATS:
        raise RecordError(f"Make-a-snake is for 2 to 4 players, not {len(players)}")
    mode = config.get("mode", "competitive")
    if mode not in MODES:
        raise RecordError(f"'mode' must be one of {', '.join(MODES)}, not {mode!r}")
    advanced = config.get("advanced", False)
    if not isinstance(advanced, bool):
        raise RecordError(f"'advanced' must be true or false, not {advanced!r}")
    names = tuple(cast(list[str], players))
    snakes = 1 if mode == "lollipop" else len(names)
    return State(names, cast(Mode, mode), advanced, _stacks(config.get("stacks")),
                 snakes=[Snake([]) for _ in range(snakes)],
                 distances=[None] * snakes)
