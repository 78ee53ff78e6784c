"""The games this engine knows, by key and by record format: the only place
that lists them. A new game adds one line to ``BUILTIN``; nothing else in the
engine or the platform names a game.

Tests and tools may ``register`` a game of their own (and ``unregister`` it)."""
from __future__ import annotations

import importlib
import threading

from .errors import RecordError
from .protocol import AnyGame, BotHooks

BUILTIN: tuple[str, ...] = (
    "engine.marram:GAME",
    "engine.pond:GAME",
    "engine.make_a_snake:GAME",
    "engine.animals_on_board:GAME",
)
"""``module:attribute`` of each game's object, in the order games are listed."""

_games: dict[str, AnyGame] = {}
_loaded = False
_ready = False
_lock = threading.RLock()
"""The first lookups may come from several threads of a fresh server process at
once: the others wait until the first has registered every game (the RLock lets
a game that uses the registry while it is imported in)."""


class UnknownGame(RecordError):
    """A game key or record format that no registered game has."""


def _load() -> dict[str, AnyGame]:
    global _loaded, _ready
    if _ready:
        return _games
    with _lock:
        if not _loaded:
            _loaded = True  # first, so that a game importing the registry cannot loop
            for path in BUILTIN:
                module, _, attribute = path.partition(":")
                register(getattr(importlib.import_module(module), attribute))
            _ready = True
    return _games


def register(game: AnyGame) -> AnyGame:
    """Add a game; its key and its record format must be new, and a game with
    hidden information must redraw it for its bots (``BotHooks.determinize``)."""
    if game.hidden_information and type(game).determinize is BotHooks.determinize:
        raise ValueError(f"{game.title} declares hidden information but keeps the default "
                         "determinize, which would hand its bots the whole state")
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
