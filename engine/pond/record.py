"""Pond's game record (format ``pond-game-record``, version 1): the config holds
the seat order and the option set; Pond has no chance, so nothing hidden."""
from __future__ import annotations

from collections.abc import Mapping

from ..errors import RecordError
from ..protocol import JSON, JSONObject
from .ponds import pond_from_json, pond_to_json
from .state import GameState

FORMAT = "pond-game-record"
VERSION = 1
SEATS = 2


def new_state(config: Mapping[str, JSON]) -> GameState:
    """The state before the first event of a record's config (RecordError, one
    line, for a config that makes no game)."""
    players = config.get("players")
    if not (isinstance(players, list) and len(players) == SEATS
            and all(isinstance(p, str) and p for p in players)):
        raise RecordError("'players' must be a list of two names: seat 0 plays light and "
                          "moves first, seat 1 plays dark")
    return GameState.new(tuple(str(p) for p in players), pond_from_json(config.get("options")))


def config_to_json(state: GameState) -> JSONObject:
    return {"players": list(state.players), "options": pond_to_json(state.pond)}
