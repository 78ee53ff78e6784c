"""Helpers shared by the correspondence tests (notifications, mail, clocks, Celery)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

from django.utils import timezone

from engine import marram as engine
from engine.marram.notation import format_action
from engine.replay import apply
from games import services
from games.models import Game
from games.selectors import game_state_get, rules_of
from marram_site.celery import app as celery_app
from notifications.models import Notification
from notifications.services import game_viewed_forget
from tests.service.conftest import seat_user


class FakeNow:
    """A clock the test moves by hand; patched in as django.utils.timezone.now."""

    def __init__(self, start: datetime) -> None:
        self.value = start

    def __call__(self) -> datetime:
        return self.value

    def advance(self, **delta: float) -> datetime:
        self.value += timedelta(**delta)
        return self.value


def freeze_time(monkeypatch) -> FakeNow:
    game_viewed_forget()
    fake = FakeNow(datetime(2030, 3, 4, 9, 0, tzinfo=UTC))
    monkeypatch.setattr(timezone, "now", fake)
    return fake


@contextlib.contextmanager
def eager_tasks(settings) -> Iterator[None]:
    """Tasks run in-process as they are enqueued, as in ./dev run."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = settings.CELERY_TASK_ALWAYS_EAGER = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = settings.CELERY_TASK_ALWAYS_EAGER = before


def awaited(game: Game) -> tuple[int | None, dict]:
    game.refresh_from_db()
    wait = engine.awaiting(game_state_get(game))
    return wait["player"], wait


def play_turn(game: Game) -> int:
    """The awaited seat plays its first legal action until the game waits for someone
    else; returns the seat that played."""
    seat, _ = awaited(game)
    assert seat is not None
    while awaited(game)[0] == seat:
        action = engine.legal_actions(game_state_get(game))[0]
        services.action_submit(game=game, user=seat_user(game, seat), action=action,
                               expected_seq=game.seq)
    return seat


MAIL_DEAL = "e1e1" * 16
"""A seed for mail tests that count events or expect the mover's second move: its
first player's first legal move is answered by nothing of the rules' own. In about
one deal in 400 it is not: no other tile fits the second move, so the rules pass
for the player (first_move_text says so rather than play it)."""


def first_move_text(game: Game) -> str:
    """The first legal move, which the rules must answer with nothing of their own
    (no creature drawn, no pass forced): the mover's event is then the only one it
    appends and the same player moves next."""
    game.refresh_from_db()
    state, rules = game_state_get(game), rules_of(game)
    action = engine.legal_actions(state)[0]
    after = apply(rules, state, rules.read_event(dict(action)))
    assert rules.chance(after) is None and rules.automatic(after) is None, \
        f"game {game.pk}: the rules answer {action} by themselves; start it from MAIL_DEAL"
    return format_action(action)


def turn_mails(game: Game, seat: int) -> list[Notification]:
    return list(Notification.objects.filter(game=game, seat=seat, kind="your_turn")
                .order_by("pk"))


def reply_bytes(*, sender: str, to: str, body: str, message_id: str,
                subject: str = "Re: Marram game: your move", **headers: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = message_id
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return bytes(message)
