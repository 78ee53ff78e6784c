"""A seat's stream is its player's, not the seat's (issue 34, hidden information):
the token names the user as well as the seat and lives an hour; the stream
server refuses it once the seat has changed hands or its player has left, and
ends a stream it holds at that moment, so the replaced player of a seat a
computer took over hears nothing more of that seat's private view."""

from __future__ import annotations

import json
import re
import time

import pytest
from django.core import signing
from django.test import override_settings

from games.models import Game
from live import stream as live
from notifications import services as notes
from tests.service import test_stream
from tests.service.conftest import (
    body,
    client_for,
    dealt_from,
    make_user,
    seat_user,
    signed_in,
    start_game,
)
from tests.service.mail_kit import freeze_time
from tests.service.test_bots import SEED, awaited, create, my_move
from tests.service.test_stream import Held, events_path, request, settled, stream_server

pytestmark = pytest.mark.django_db(transaction=True)

own_redis, stream, publishing = test_stream.own_redis, test_stream.stream, test_stream.publishing


def views_in(seen: bytes) -> list[dict]:
    """Every ``view`` event's data in what a stream sent."""
    return [json.loads(data) for data in
            re.findall(rb"^event: view\ndata: (.*)$", seen, re.MULTILINE)]


def ends_with(seen: bytes, reason: bytes) -> bool:
    """Whether the stream's last event was ``end`` for ``reason``, and the server
    then finished its answer (with the last chunk of a chunked one)."""
    before, marker, after = seen.rpartition(b"event: end\ndata: %s\n\n" % reason)
    return bool(marker) and after.replace(b"\r\n", b"") in (b"", b"0")


def read_all(held: Held, marker: bytes, *, within: float = 10) -> bytes:
    """What the stream sent until ``marker``, or until it ended or was closed."""
    deadline = time.monotonic() + within
    held.sock.settimeout(0.2)
    while marker not in held.seen and time.monotonic() < deadline and not any(
            ends_with(held.seen, reason) for reason in (b"seat", b"expired")):
        try:
            chunk = held.sock.recv(65536)
        except TimeoutError:
            continue
        if not chunk:
            break
        held.seen += chunk
    return held.seen


def takeover_game(users, monkeypatch) -> tuple[Game, int]:
    """A 3-player Marram game with the takeover option; the seat to move first
    (whose player never plays), not yet out of time."""
    freeze_time(monkeypatch)
    ann, bob, cyd = users[:3]
    with dealt_from(SEED):
        created = create(client_for(ann), game="marram", seats=3, days_per_move=1,
                         takeover="medium")
        for user in (bob, cyd):
            client_for(user).post(f"/api/games/{created['id']}/join/", format="json")
    game = Game.objects.get(pk=created["id"])
    return game, awaited(game)[0]


def take_over(game: Game, sleeper: int, monkeypatch) -> int:
    """The sleeper runs out of time twice: a computer takes the seat. The seq at
    the takeover."""
    from django.utils import timezone

    now = timezone.now
    now.advance(days=2, seconds=1)
    assert notes.clocks_check()["timed_out"] == 1
    while awaited(game)[0] != sleeper:
        my_move(game, seat_user(game, awaited(game)[0]))
    now.advance(days=1, seconds=1)
    assert notes.clocks_check()["timed_out"] == 1
    game.refresh_from_db()
    assert hasattr(seat_user(game, sleeper), "bot")
    return game.seq


@pytest.mark.parametrize("told", [True, False], ids=["told", "found"])
def test_after_a_takeover_the_replaced_player_hears_no_view_of_the_seat(
        users, stream, publishing, monkeypatch, told):
    from bots import services as bots

    if not told:  # the takeover tells nothing: the next commit finds the seat's new holder
        monkeypatch.setattr(live, "seat_changed", lambda *args: None)
    game, sleeper = takeover_game(users, monkeypatch)
    person = seat_user(game, sleeper)
    url = body(client_for(person).get(f"/api/games/{game.pk}/stream/"))["url"]
    assert live.token_listening(url.split("t=")[1]).user == person.pk
    held = Held(stream, url)
    try:
        held.read_until(b"retry: 3000\n\n")
        settled(stream, 1)
        taken = take_over(game, sleeper, monkeypatch)
        # three rounds: each time the others leave the computer's seat to move
        for _ in range(3):
            while awaited(game)[0] != sleeper:
                my_move(game, seat_user(game, awaited(game)[0]))
            while awaited(game)[0] == sleeper:
                assert bots.bot_move(game.pk, game.seq) is not None
        game.refresh_from_db()
        seen = read_all(held, b"data: %d\n\n" % game.seq)
    finally:
        held.close()
    after = [v for v in views_in(seen) if v["seq"] >= taken]
    assert after == [], f"{len(after)} views of the computer's seat went to its old player"
    # the stream was ended at the takeover, saying why, and nothing came after
    assert ends_with(seen, b"seat"), seen[-300:]
    # asked again, the API gives the old player the game's seq alone
    again = body(client_for(person).get(f"/api/games/{game.pk}/stream/"))["url"]
    assert live.token_listening(again.split("t=")[1]) == live.Listening(game.pk, user=person.pk)


def test_a_seats_token_is_refused_once_a_computer_took_the_seat_over(
        users, stream, publishing, monkeypatch):
    game, sleeper = takeover_game(users, monkeypatch)
    person = seat_user(game, sleeper)
    url = body(client_for(person).get(f"/api/games/{game.pk}/stream/"))["url"]
    token = url.split("t=")[1]
    take_over(game, sleeper, monkeypatch)  # nobody listened as the seat meanwhile
    for path in (url, f"/stream/games/{game.pk}/wait?t={token}&since=0"):
        status, answer = request(stream, path)
        assert (status, answer["code"]) == (403, "seat_changed"), path
    # the other players' tokens are still good
    other = next(u for u in users[:3] if u != person)
    held = Held(stream, body(client_for(other).get(f"/api/games/{game.pk}/stream/"))["url"])
    try:
        held.read_until(b"retry: 3000\n\n")
        assert held.status == 200
    finally:
        held.close()


def test_a_player_who_resigns_hears_no_more_of_the_seat_and_its_token_is_refused(
        stream, publishing):
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = start_game([ann, bob, cyd])
    url = body(client_for(ann).get(f"/api/games/{game.pk}/stream/"))["url"]
    assert live.token_listening(url.split("t=")[1]).seat is not None
    held = Held(stream, url)
    try:
        held.read_until(b"retry: 3000\n\n")
        settled(stream, 1)
        answer = client_for(ann).post(f"/api/games/{game.pk}/resign/", {}, format="json")
        assert answer.status_code == 200, answer.content
        seen = read_all(held, b"event: end\ndata: seat\n\n")
    finally:
        held.close()
    assert ends_with(seen, b"seat"), seen[-300:]
    status, refused = request(stream, url)
    assert (status, refused["code"]) == (403, "seat_changed")
    # they may still follow the game, as anyone may: its seq alone
    again = body(client_for(ann).get(f"/api/games/{game.pk}/stream/"))["url"]
    assert live.token_listening(again.split("t=")[1]) == live.Listening(game.pk, user=ann.pk)
    watching = Held(stream, again)
    try:
        watching.read_until(b"retry: 3000\n\n")
        assert watching.status == 200
    finally:
        watching.close()


def test_a_token_of_a_player_who_resigned_with_no_stream_open_is_refused(stream, publishing):
    """The resignation itself notes that the seat has no holder any more: a seat
    token asked for before it, and never opened, no longer opens a stream."""
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = start_game([ann, bob, cyd])
    url = body(client_for(ann).get(f"/api/games/{game.pk}/stream/"))["url"]
    assert live.token_listening(url.split("t=")[1]).seat is not None
    answer = client_for(ann).post(f"/api/games/{game.pk}/resign/", {}, format="json")
    assert answer.status_code == 200, answer.content
    status, refused = request(stream, url)
    assert (status, refused["code"]) == (403, "seat_changed")


class OldSigner(signing.TimestampSigner):
    """Signs as if it were ``ago`` seconds ago."""

    ago = 0

    def timestamp(self) -> str:
        return signing.b62_encode(int(time.time()) - self.ago)


def signed_ago(value: str, ago: int) -> str:
    signer = OldSigner(salt=live.TOKEN_SALT)
    signer.ago = ago
    return signer.sign(value)


def test_a_token_older_than_its_life_is_refused(stream):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    seat = next(s.index for s in game.seats.all() if s.user_id == ann.pk)
    life = live.token_max_age()
    assert life <= 3600  # an hour, not two weeks
    value = f"{game.pk}.{seat}.api.{ann.pk}"
    fresh, old = signed_ago(value, life - 60), signed_ago(value, life + 1)
    assert live.token_listening(fresh) == live.Listening(game.pk, seat, "api", ann.pk)
    assert live.token_listening(old) is None
    with pytest.raises(live.TokenRefused) as refused:
        live.token_read(old)
    assert refused.value.code == "expired"
    for path in (events_path(game, old), f"/stream/games/{game.pk}/wait?t={old}&since=0"):
        status, answer = request(stream, path)
        assert (status, answer["code"]) == (403, "expired"), path
    held = Held(stream, events_path(game, fresh))
    try:
        held.read_until(b"retry: 3000\n\n")
        assert held.status == 200
    finally:
        held.close()


def test_a_held_stream_ends_when_its_tokens_life_is_over(own_redis):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    seat = next(s.index for s in game.seats.all() if s.user_id == ann.pk)
    with stream_server(own_redis, token_age=3) as port:
        # made once the server is up: its start may take longer than the token's life
        token = live.stream_token(game.pk, seat, "api", user=ann.pk)
        held = Held(port, events_path(game, token))
        try:
            held.read_until(b"retry: 3000\n\n")
            started = time.monotonic()
            seen = read_all(held, b"event: end\ndata: expired\n\n", within=10)
            assert ends_with(seen, b"expired"), seen[-200:]
            assert time.monotonic() - started < 6
        finally:
            held.close()
        status, answer = request(port, events_path(game, token))
        assert (status, answer["code"]) == (403, "expired")
        settled(port, 0)


def test_a_token_forged_for_another_seat_or_user_is_refused(stream):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    seat = next(s.index for s in game.seats.all() if s.user_id == ann.pk)
    token = live.stream_token(game.pk, seat, "api", user=ann.pk)
    value, _, stamp_and_signature = token.partition(":")
    assert value == f"{game.pk}.{seat}.api.{ann.pk}"
    forged = [f"{game.pk}.{1 - seat}.api.{ann.pk}:{stamp_and_signature}",  # bob's seat
              f"{game.pk}.{seat}.api.{bob.pk}:{stamp_and_signature}",  # another user
              f"{game.pk}...{ann.pk}:{stamp_and_signature}",  # a watcher's, from a seat's
              # signed, but of the old form that names no user
              signing.TimestampSigner(salt=live.TOKEN_SALT).sign(f"{game.pk}.{1 - seat}.api")]
    for bad in forged:
        assert live.token_listening(bad) is None, bad
        for path in (events_path(game, bad), f"/stream/games/{game.pk}/wait?t={bad}&since=0"):
            status, answer = request(stream, path)
            assert (status, answer["code"]) == (403, "forbidden"), (bad, path)
    settled(stream, 0)


def test_the_page_asks_for_a_fresh_stream_address_that_follows_the_seat(own_redis, users):
    ann, bob, cyd = users[:3]
    game = start_game([ann, bob])
    path = f"/games/{game.pk}/stream.json"
    seat = next(s.index for s in game.seats.all() if s.user_id == ann.pk)
    with override_settings(MARRAM_STREAM=True, REDIS_URL=own_redis):
        html = signed_in(ann).get(f"/games/{game.pk}/").content.decode()
        assert f'data-stream-renew-url="{path}"' in html
        answer = signed_in(ann).get(path)
        assert answer["Cache-Control"].count("no-store") == 1
        url = body(answer)["url"]
        assert url.startswith(f"/stream/games/{game.pk}/events?t=")
        assert live.token_listening(url.split("t=")[1]) == live.Listening(
            game.pk, seat, "page", ann.pk)
        # a watcher: the game's seq alone
        url = body(signed_in(cyd).get(path))["url"]
        assert live.token_listening(url.split("t=")[1]) == live.Listening(game.pk, user=cyd.pk)
        from django.test import Client

        assert Client().get(path).status_code == 403  # signed out
        assert signed_in(ann).get(f"/games/{game.pk + 1000}/stream.json").status_code == 404
        # a finished game's page follows its chat and rematch; an open game has none
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        assert body(signed_in(ann).get(path))["url"].startswith(f"/stream/games/{game.pk}/")
        Game.objects.filter(pk=game.pk).update(status=Game.Status.OPEN)
        assert body(signed_in(ann).get(path)) == {"url": None}
    with override_settings(MARRAM_STREAM=False):
        Game.objects.filter(pk=game.pk).update(status=Game.Status.RUNNING)
        assert body(signed_in(ann).get(path)) == {"url": None}
