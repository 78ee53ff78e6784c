"""An in-process LRU cache of game states, keyed by (game id, seq).

The state of a game is a replay of its events; replaying a long game on every
request would be wasteful, so each process keeps the latest state it has seen
of each recent game. An entry is only ever served for the seq it was built at:
a game that has moved on (another web worker took the move) is brought
up to date by folding just the newer events into a copy. A game not here at
all starts from its newest stored snapshot (games.snapshots), if it has one.

States held here are never mutated: ``engine.replay.apply`` and the rules'
``copy`` make new ones. Entries are added only for events known to be committed, so a
rolled-back transaction cannot leave a state that the database never had.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

GameState = Any
"""A game's state: its rules' own type, opaque here."""

DEFAULT_SIZE = 512
"""Games a process keeps; ``MARRAM_STATE_CACHE_SIZE`` sets it (live.apps)."""


class StateCache:
    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[int, tuple[int, GameState]] = OrderedDict()
        self._views: OrderedDict[tuple[int, int], tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.catch_ups = self.misses = 0
        self.snapshots = self.snapshots_refused = 0

    def get(self, game_id: int, seq: int) -> GameState | None:
        """The state of the game after exactly ``seq`` events, if cached."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or entry[0] != seq:
                return None
            self._entries.move_to_end(game_id)
            return entry[1]

    def newest(self, game_id: int) -> int | None:
        """The seq of the state of the game held here, if any: where a read of
        the game may start the events it reads with it (games.store)."""
        with self._lock:
            entry = self._entries.get(game_id)
            return None if entry is None else entry[0]

    def latest_before(self, game_id: int, seq: int) -> tuple[int, GameState] | None:
        """The cached (seq, state) of the game at or before ``seq``, if any."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None or entry[0] > seq:
                return None
            return entry

    def put(self, game_id: int, seq: int, state: GameState) -> None:
        with self._lock:
            current = self._entries.get(game_id)
            if current is not None and current[0] > seq:
                return  # a newer state is already here
            self._entries[game_id] = (seq, state)
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def view_put(self, game_id: int, seat: int, seq: int, view: Any) -> None:
        """Keep the view of the game's state at ``seq`` made for ``seat`` (its
        latest only; two a game on average as many entries as games): the
        base of the changes its next move's answer may carry. Never mutated."""
        with self._lock:
            self._views[game_id, seat] = (seq, view)
            self._views.move_to_end((game_id, seat))
            while len(self._views) > 2 * self.size:
                self._views.popitem(last=False)

    def view_get(self, game_id: int, seat: int, seq: int) -> Any | None:
        """The view made for ``seat`` of the game at exactly ``seq``, if kept."""
        entry = self.view_latest(game_id, seat)
        return entry[1] if entry is not None and entry[0] == seq else None

    def view_latest(self, game_id: int, seat: int) -> tuple[int, Any] | None:
        """The last view kept for ``seat`` of the game, with its seq."""
        with self._lock:
            return self._views.get((game_id, seat))

    def discard(self, game_id: int) -> None:
        with self._lock:
            self._entries.pop(game_id, None)
            for key in [k for k in self._views if k[0] == game_id]:
                del self._views[key]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._views.clear()
            self.hits = self.catch_ups = self.misses = 0
            self.snapshots = self.snapshots_refused = 0


states = StateCache()
