"""The sign-in backend moved from games.signin to accounts.signin: each session
names the backend that signed it in, and Django signs out a session whose
backend is not in AUTHENTICATION_BACKENDS. So the sessions signed in before
the move are given the new path (and back, if the move is undone): nobody is
signed out by it. No table changes."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone

OLD = "games.signin.ThrottledModelBackend"
NEW = "accounts.signin.ThrottledModelBackend"


def backend_renamed(apps: Any, old: str, new: str) -> int:
    """Give every live session signed in through ``old`` the backend ``new``;
    how many were changed."""
    session_model = apps.get_model("sessions", "Session")
    store = SessionStore()
    changed = 0
    for row in session_model.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = store.decode(row.session_data)
        if data.get(BACKEND_SESSION_KEY) == old:
            data[BACKEND_SESSION_KEY] = new
            row.session_data = store.encode(data)
            row.save(update_fields=["session_data"])
            changed += 1
    return changed


def forwards(apps: Any, schema_editor: Any) -> None:
    backend_renamed(apps, OLD, NEW)


def backwards(apps: Any, schema_editor: Any) -> None:
    backend_renamed(apps, NEW, OLD)


class Migration(migrations.Migration):
    dependencies = [("sessions", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards, elidable=True)]
