"""Generic replay for every game: read a record, fold its events, keep the
valid prefix and the first failure (scalachess's ``Replay``).

A record is ``{"format", "version", "config", "events"}`` (shared/spec/README.md);
its ``format`` chooses the game through the registry. Replays never draw:
chance arrives as events, and each game's ``fold`` checks they are possible.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from . import registry
from .errors import IllegalAction, RecordError
from .protocol import JSON, AnyGame, Game

S = TypeVar("S")
E = TypeVar("E", bound=Mapping[str, object])


@dataclass(slots=True)
class Replay(Generic[S]):
    """The state after the valid prefix of a record, and the first failure if any."""

    state: S
    error: IllegalAction | None = None
    error_index: int | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def failure(self) -> dict[str, JSON]:
        """The command line's report of the failure: ``{"error", "code", "event"}``."""
        assert self.error is not None
        return {"error": self.error.message, "code": self.error.code, "event": self.error_index}


@dataclass(frozen=True, slots=True)
class Record:
    """A record whose format and version this engine reads; config and events unchecked."""

    game: AnyGame
    config: Mapping[str, JSON]
    events: list[object]


def read_record(raw: object) -> Record:
    """The game, config and events of a record given as parsed JSON; RecordError
    (one line, for the command line's exit status 2) when it cannot be read."""
    if not isinstance(raw, dict):
        raise RecordError("a game record is a JSON object")
    game = registry.for_format(raw.get("format"))
    if raw.get("version") != game.record_version:
        raise RecordError(f"unsupported record version {raw.get('version')!r}: this engine "
                          f"reads {game.record_format} version {game.record_version}")
    config = raw.get("config")
    if not isinstance(config, dict):
        raise RecordError("'config' must be an object")
    events = raw.get("events", [])
    if not isinstance(events, list):
        raise RecordError("'events' must be a list")
    return Record(game, config, events)


def apply(game: Game[S, E], state: S, event: E) -> S:
    """The state after ``event``, leaving ``state`` untouched; IllegalAction if
    the rules refuse it."""
    return game.fold(game.copy(state), event)


def replay_events(game: Game[S, E], start: S, events: Sequence[object]) -> Replay[S]:
    """Fold ``events`` (as JSON) over ``start``, which is left untouched; stop at
    the first event that is not one of the game's or that the rules refuse."""
    state = game.copy(start)
    fold, read = game.fold, game.read_event  # the loop is hot: every read of a game
    for i, raw in enumerate(events):
        try:
            state = fold(state, read(raw))
        except IllegalAction as e:
            # a fold may work in place: rebuild the valid prefix from the start
            state = game.copy(start)
            for earlier in events[:i]:
                state = game.fold(state, game.read_event(earlier))
            return Replay(state, e, i)
    return Replay(state)


def replay(raw: object) -> tuple[AnyGame, Replay[Any]]:
    """Replay a record of any registered game, given as parsed JSON."""
    record = read_record(raw)
    game = record.game
    return game, replay_events(game, game.start(record.config), record.events)
