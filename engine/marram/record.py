"""The game record (format ``marram-game-record``, version 1) and replay."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import RecordError
from .game import make_config
from .state import GameConfig

__all__ = ["FORMAT", "VERSION", "Record", "config_from_json", "config_to_json", "parse_record"]

FORMAT = "marram-game-record"
VERSION = 1


@dataclass(slots=True)
class Record:
    config: GameConfig
    events: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "config": config_to_json(self.config),
                "events": list(self.events)}


def config_to_json(config: GameConfig) -> dict[str, Any]:
    return {
        "variant": config.variant,
        "length": config.length,
        "players": list(config.players),
        "catalogue": config.catalogue.to_json(),
        "starter": config.starter,
        "deck": list(config.deck),
    }


def config_from_json(raw: Any) -> GameConfig:
    if not isinstance(raw, dict):
        raise RecordError("'config' must be an object")
    players = raw.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("'players' must be a list of names")
    deck = raw.get("deck")
    if deck is not None and not isinstance(deck, list):
        raise RecordError("'deck' must be a list of tile ids")
    return make_config(str(raw.get("variant")), str(raw.get("length")), players,
                       raw.get("catalogue", "standard"), deck, raw.get("starter"))


def parse_record(raw: Any) -> Record:
    if not isinstance(raw, dict):
        raise RecordError("a game record is a JSON object")
    if raw.get("format") != FORMAT:
        raise RecordError(f"not a game record: 'format' is {raw.get('format')!r}, "
                          f"expected {FORMAT!r}")
    if raw.get("version") != VERSION:
        raise RecordError(f"unsupported record version {raw.get('version')!r}: this engine "
                          f"reads version {VERSION}")
    events = raw.get("events", [])
    if not isinstance(events, list):
        raise RecordError("'events' must be a list")
    return Record(config_from_json(raw.get("config")), events)
