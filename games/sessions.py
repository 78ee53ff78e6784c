"""Django's database sessions, read with one statement of games.store: a page's
every request reads its session, and the ORM's building of that one query cost
more than the rest of an idle poll (benchmarks/poll_bench.py). A key that is not
of the shape Django makes is no session, and costs no query. A page's poll reads
its session with the game's seqs, in one statement (``seq_with_session``)."""

from __future__ import annotations

import re

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.http import HttpRequest
from django.utils import timezone

from games import store

SESSION_KEY_SHAPE = re.compile(r"[a-z0-9]{8,40}")
"""Django's session keys: 32 lowercase letters and digits."""


class SessionStore(db.SessionStore):
    def key_to_read(self) -> str | None:
        """The key whose row a first read of this session would ask for, or None
        when that read would need no query (no key, a key of the wrong shape, the
        session already read or preloaded)."""
        if hasattr(self, "_session_cache") or "_preloaded" in self.__dict__:
            return None
        return self._key_of_shape()

    def _key_of_shape(self) -> str | None:
        """The session's key if it has the shape Django makes (else no row has it)."""
        key = self.session_key
        return key if key and SESSION_KEY_SHAPE.fullmatch(key) else None

    def preload(self, row: Session | None) -> None:
        """Take ``row`` (None: no such session, or expired), read by the caller
        with ``key_to_read``, as the answer to the session's first read: Django's
        own loading of the session then asks nothing of the database."""
        self._preloaded = row

    def _get_session_from_db(self) -> Session | None:
        if "_preloaded" in self.__dict__:
            row = self.__dict__.pop("_preloaded")
        else:
            key = self._key_of_shape()
            row = store.session_row(key, timezone.now()) if key else None
        if row is None:
            self._session_key = None
        return row


def seq_with_session(request: HttpRequest, game_id: int) -> tuple[int, int] | None:
    """For a poll by ``request`` signed in by its session cookie alone (no
    Authorization header) whose session is still to be read: the game's seq and
    its panels' seq, read in one statement with the session
    (games.store.game_seq_with_session),
    which the session store takes as its own first read. None when it reads
    nothing (any other request, or no such game): the caller reads the seqs
    alone, after checking who asks."""
    session = getattr(request, "session", None)
    if not isinstance(session, SessionStore) or request.META.get("HTTP_AUTHORIZATION"):
        return None
    key = session.key_to_read()
    if key is None:
        return None
    found = store.game_seq_with_session(game_id, key, timezone.now())
    if found is None:
        return None
    seqs, row = found
    session.preload(row)
    return seqs
