"""The game record (format ``marram-game-record``, version 1) and replay."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction, RecordError
from .game import make_config, new_game, step
from .state import GameConfig, GameState

FORMAT = "marram-game-record"
VERSION = 1


@dataclass(slots=True)
class Record:
    config: GameConfig
    events: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "config": config_to_json(self.config),
                "events": list(self.events)}


@dataclass(slots=True)
class Replay:
    """The state after the valid prefix of a record, and the first failure if any."""

    state: GameState
    error: IllegalAction | None = None
    error_index: int | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


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


def replay_events(config: GameConfig, events: list[dict[str, Any]]) -> Replay:
    """Fold the events over the start; stop at the first illegal one."""
    state = new_game(config)
    for i, event in enumerate(events):
        try:
            step(state, event)
        except IllegalAction as e:
            # the fold works in place: rebuild the valid prefix from scratch
            state = new_game(config)
            for earlier in events[:i]:
                step(state, earlier)
            return Replay(state, e, i)
    return Replay(state)


def replay(raw: Any) -> Replay:
    """Replay a record given as parsed JSON."""
    record = parse_record(raw)
    return replay_events(record.config, record.events)
