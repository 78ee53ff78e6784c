"""Django's database sessions, read with one statement of games.store: a page's
every request reads its session, and the ORM's building of that one query cost
more than the rest of an idle poll (benchmarks/poll_bench.py). A key that is not
of the shape Django makes is no session, and costs no query."""

from __future__ import annotations

import re

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from games import store

SESSION_KEY_SHAPE = re.compile(r"[a-z0-9]{8,40}")
"""Django's session keys: 32 lowercase letters and digits."""


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Session | None:
        key = self.session_key
        row = (store.session_row(key, timezone.now())
               if key and SESSION_KEY_SHAPE.fullmatch(key) else None)
        if row is None:
            self._session_key = None
        return row
