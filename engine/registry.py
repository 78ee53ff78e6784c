"""The games this engine knows, by key and by record format: the only place
that lists them. A new game adds one line to ``BUILTIN``; nothing else in the
engine or the platform names a game.

Tests and tools may ``register`` a game of their own (and ``unregister`` it)."""
from __future__ import annotations

import importlib
import threading

from .errors import RecordError
from .protocol import AnyGame

BUILTIN: tuple[str, ...] = (
    "engine.marram:GAME",
    "engine.pond:GAME",
    "engine.make_a_snake:GAME",
    "engine.animals_on_board:GAME",
)
"""``module:attribute`` of each game's object, in the order games are listed."""

_games: dict[str, AnyGame] = {}
_loaded = False
_done = False
_lock = threading.RLock()


class UnknownGame(RecordError):
    """A game key or record format that no registered game has."""


def _load() -> dict[str, AnyGame]:
    global _loaded, _done
    if not _done:
        # one thread imports; another (a gthread worker's second request) waits
        # for it rather than finding the registry half full
        with _lock:
            if not _loaded:
                _loaded = True  # first, so that a game importing the registry cannot loop
                try:
                    for path in BUILTIN:
                        module, _, attribute = path.partition(":")
                        register(getattr(importlib.import_module(module), attribute))
                finally:
                    _done = True
    return _games


def register(game: AnyGame) -> AnyGame:
    """Add a game; its key and its record format must be new."""
    games = _load()
    if game.key in games:
        raise ValueError(f"a game with key {game.key!r} is registered already")
    if any(g.record_format == game.record_format for g in games.values()):
        raise ValueError(f"a game with record format {game.record_format!r} is registered "
                         "already")
    games[game.key] = game
    return game


def unregister(key: str) -> None:
    _load().pop(key, None)


def games() -> list[AnyGame]:
    return list(_load().values())


def default() -> AnyGame:
    """The game played where none is named (the old API's shape, the command
    line): the first of ``BUILTIN``."""
    return get(BUILTIN[0].partition(":")[0].rpartition(".")[2])


def get(key: str) -> AnyGame:
    game = _load().get(key)
    if game is None:
        raise UnknownGame(f"unknown game {key!r}: this engine plays "
                          + (", ".join(_load()) or "no game"))
    return game


def for_format(record_format: object) -> AnyGame:
    """The game whose records have this ``format``."""
    for game in _load().values():
        if game.record_format == record_format:
            return game
    known = ", ".join(repr(g.record_format) for g in _load().values()) or "none"
    raise UnknownGame(f"not a game record this engine reads: unknown format "
                      f"{record_format!r} (it reads {known})")
