"""A player whose stream of their seat is open is looking at the game: the mail of
their turn is held back for as long as it is open, and no visit is written for
the views the stream is sent (live.stream.watching, notifications' LOOKING_NOW).
Once the stream is closed, and no read of the game is recent, the mail goes."""

from __future__ import annotations

import pytest
import redis
from django.core import mail
from django.test import override_settings

from games.models import Game
from live import stream as live
from notifications import services as notes
from notifications.models import GameVisit, Notification
from tests.service import test_stream
from tests.service.conftest import body, client_for, make_user, start_game
from tests.service.mail_kit import play_turn
from tests.service.test_outbox_settle import outcome
from tests.service.test_stream import Held, settled
from tests.service.test_stream_views import (
    move_until_the_turn_passes,
    read_view,
    seats_by_turn,
    unheard,
)

pytestmark = pytest.mark.django_db(transaction=True)

own_redis, stream, publishing = test_stream.own_redis, test_stream.stream, test_stream.publishing


def opened(port: int, game: Game, waiter) -> Held:
    """The waiter's client holds its seat's stream, noted as listening; the reads
    of the game made so far (each a visit) are forgotten."""
    held = Held(port, body(client_for(waiter).get(f"/api/games/{game.pk}/stream/"))["url"])
    held.read_until(b"retry: 3000\n\n")
    GameVisit.objects.all().delete()
    notes.game_viewed_forget()
    return held


def turn_mail(game: Game, user) -> Notification:
    [row] = Notification.objects.filter(game=game, user=user, kind="your_turn",
                                        status="pending")
    return row


def closed(held: Held, own_redis: str, game: Game) -> None:
    """The stream is closed, and its note taken back."""
    held.close()
    unheard(redis.Redis.from_url(own_redis), game)


def test_no_turn_mail_while_the_players_stream_is_open_and_the_view_writes_no_visit(
        stream, own_redis, publishing):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    mover, waiter = seats_by_turn(game)
    held = opened(stream, game, waiter)
    try:
        settled(stream, 1)
        move_until_the_turn_passes(game, mover)
        assert read_view(held)["legal_actions"]  # the stream showed the waiter the move
        assert not GameVisit.objects.filter(user=waiter).exists()
        row = turn_mail(game, waiter)
        assert notes.notification_deliver(row.pk) == "skipped"
        assert outcome(row) == ("skipped", "the player is looking at the game")
    finally:
        closed(held, own_redis, game)
    # the stream closed, no read of the game since: the next turn's mail goes
    game.refresh_from_db()
    play_turn(game)  # the waiter's turn
    play_turn(game)  # the mover's: the waiter's turn again
    row = turn_mail(game, waiter)
    assert notes.notification_deliver(row.pk) == "sent"
    assert [m.to for m in mail.outbox] == [[waiter.email]]


def test_a_drain_settles_at_once_the_turn_mails_of_players_watching(
        stream, own_redis, publishing):
    games, held = [], []
    try:
        for name in ("a", "b"):
            game = start_game([make_user(f"{name}1"), make_user(f"{name}2")])
            mover, waiter = seats_by_turn(game)
            held.append(opened(stream, game, waiter))
            games.append((game, mover, waiter))
        settled(stream, 2)
        Notification.objects.all().delete()  # the starts' own
        for game, mover, _ in games:
            move_until_the_turn_passes(game, mover)
        rows = [turn_mail(game, waiter) for game, _, waiter in games]
        assert not GameVisit.objects.filter(user__in=[w for _, _, w in games]).exists()
        assert notes.outbox_drain() == {"skipped": 2}
        assert [outcome(row) for row in rows] == \
            [("skipped", "the player is looking at the game")] * 2
        assert mail.outbox == []
    finally:
        for one, (game, _, _) in zip(held, games, strict=False):
            closed(one, own_redis, game)


def test_who_watches_is_read_from_the_notes_of_listening_alone(stream, own_redis, publishing):
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    game, other = start_game([ann, bob]), start_game([ann, cat])
    mover, waiter = seats_by_turn(game)
    held = opened(stream, game, waiter)
    try:
        settled(stream, 1)
        asked = {(waiter.pk, game.pk), (mover.pk, game.pk), (waiter.pk, other.pk),
                 (cat.pk, other.pk)}
        assert live.watching(asked) == {(waiter.pk, game.pk)}
        assert live.watching(set()) == set()
        with override_settings(MARRAM_STREAM=False):  # no stream: no one watches
            assert live.watching(asked) == set()
        # Redis out of reach: logged, and no one is taken to watch (the mail goes)
        with override_settings(REDIS_URL="redis://127.0.0.1:9/0"):
            assert live.watching(asked) == set()
    finally:
        closed(held, own_redis, game)
