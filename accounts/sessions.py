"""Django's database sessions (django.contrib.sessions.backends.db), with one
check before any read: a key not of the shape Django makes is no session, and
costs no query (nor reaches the database with whatever a client put in its
cookie)."""

from __future__ import annotations

import re

from django.contrib.sessions.backends import db

SESSION_KEY_SHAPE = re.compile(r"[a-z0-9]{8,40}")
"""Django's session keys: 32 lowercase letters and digits."""


class SessionStore(db.SessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        if session_key is not None and not SESSION_KEY_SHAPE.fullmatch(session_key):
            session_key = None  # as Django takes a key it finds too short: no session
        super().__init__(session_key)
