"""The development mail backend (notifications.devmail) on the console: each mail
as its headers that matter and its text part, its other parts (the HTML, the
board picture) told in one line, never printed."""

from __future__ import annotations

import base64
import io

import pytest

from notifications import services as notes
from notifications.devmail import DevelopmentMailBackend
from notifications.mailtext import mail_text
from notifications.models import Notification
from tests.service.conftest import seat_user, start_game
from tests.service.mail_kit import MAIL_DEAL


@pytest.fixture
def mail_stays_here(settings, tmp_path):
    settings.MARRAM_DEV_MAIL_DIR = str(tmp_path / "dev-mail")


def printed(message) -> str:
    stream = io.StringIO()
    assert DevelopmentMailBackend(stream=stream).send_messages([message]) == 1
    return stream.getvalue()


@pytest.mark.django_db
def test_a_turn_mail_is_printed_as_its_text_and_a_line_on_its_other_parts(users,
                                                                          mail_stays_here):
    game = start_game(users[:2], seed=MAIL_DEAL)
    ann = seat_user(game, 0)
    turn = Notification.objects.get(user=ann, kind="your_turn")
    assert notes.notification_deliver(turn.pk) == "sent"
    turn.refresh_from_db()
    message = notes._message(turn)
    png = message.related[0][1]

    out = printed(message)
    lines = out.splitlines()
    assert f"Subject: {turn.subject}" in lines and f"To: {ann.email}" in lines
    assert f"Reply-To: {turn.reply_to}" in lines
    # the text part, whole and readable (wrapped as it is sent)
    assert mail_text(turn.body_text).strip() in out
    [note] = [line for line in lines if line.startswith("Not shown: ")]
    assert "text/html" in note and "image/png board.png" in note and "kB" in note
    # nothing of the picture or the HTML itself, so the log stays readable
    assert base64.b64encode(png[:30]).decode()[:20] not in out
    assert "<html" not in out and "Content-Transfer-Encoding" not in out
    assert len(out) < len(turn.body_text) + 800, len(out)


@pytest.mark.django_db
def test_a_plain_mail_is_printed_whole_with_no_note(users, mail_stays_here):
    from django.core.mail import EmailMessage

    out = printed(EmailMessage(subject="Réinitialiser · le mot de passe",
                               body="Ouvrez ce lien : http://127.0.0.1:8000/x/\n",
                               to=["ann@example.org"]))
    assert "Subject: Réinitialiser · le mot de passe" in out.splitlines()
    assert "Ouvrez ce lien : http://127.0.0.1:8000/x/" in out
    assert "Not shown" not in out and "=?utf-8?" not in out
