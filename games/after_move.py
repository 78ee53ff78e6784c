"""What follows a change to a game outside the games app's own rows: the mail
it calls for, the ratings of a game it ended, the computer players it leaves
to move, the chance it leaves to draw. Each is a ``Follower``, and the site's
followers are listed in one place, ``settings.MARRAM_AFTER_MOVE`` (each a class
made with no arguments), so the games app imports none of the apps that follow
it (tests/service/test_app_boundaries.py).

A follower is told what the change did (``Moved``) and answers with data: the
rows to write with the change (``rows``, written in its one statement or not at
all: games.services.append says how a change is written) and, once the change
is committed, the tasks to enqueue (``tasks``). It never sees the change's
batch, and ``rows`` reads nothing from the database: a player's move holds no
lock and no transaction between its read and its write
(tests/service/test_write_path.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from games.clocks import ClockChange
from games.enqueue import Task
from games.models import Event, Game


@dataclass(frozen=True)
class Moved:
    """What a change did to a game."""

    game: Game
    """The game as the change leaves it (seq, projection, status), with its
    seats when the change's read had them."""
    events: Sequence[Event]
    """The events appended, in order (not in the database yet while ``rows``
    is asked)."""
    clocks: ClockChange | None
    """What the change did to the clocks: None when no clock started or stopped
    (the first move of a turn, a seat acting while others still choose)."""
    finished: bool
    """Whether this change ended the game."""
    computer_seats: frozenset[int] | None
    """The seats computers hold, when the change's read has them (a player's
    move: games.store.MoveRead), else None."""


class Follower(Protocol):
    def rows(self, moved: Moved) -> Sequence[Any]:
        """The rows (model instances, unsaved) to write with the change. Reads
        nothing from the database and does no I/O."""

    def tasks(self, moved: Moved, rows: Sequence[Any]) -> Sequence[Task]:
        """The tasks to enqueue (games.enqueue.Task) now that the change is
        committed; ``rows`` are those this follower gave, written, with their
        primary keys."""


@cache
def _followers(names: tuple[str, ...]) -> tuple[Follower, ...]:
    return tuple(import_string(name)() for name in names)


def followers() -> tuple[Follower, ...]:
    """The site's followers of a change, in the order of
    ``settings.MARRAM_AFTER_MOVE`` (the games app's chance draw alone when the
    setting is absent)."""
    names = getattr(settings, "MARRAM_AFTER_MOVE", ("games.tasks.ChanceDraw",))
    return _followers(tuple(names))
