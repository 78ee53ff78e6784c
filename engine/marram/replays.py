"""A Marram record replayed: its events folded over the start through the game
protocol's replay (engine.replay), which keeps the valid prefix and says which
event was refused."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..replay import Replay
from ..replay import replay_events as generic_replay
from .adapter import GAME
from .game import new_game
from .record import parse_record
from .state import GameConfig, GameState


def replay_events(config: GameConfig, events: Sequence[object]) -> Replay[GameState]:
    """Fold the events over the start; stop at the first illegal one."""
    return generic_replay(GAME, new_game(config), events)


def replay(raw: Any) -> Replay[GameState]:
    """Replay a record given as parsed JSON."""
    record = parse_record(raw)
    return replay_events(record.config, record.events)
