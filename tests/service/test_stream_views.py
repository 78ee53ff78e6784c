"""A player's stream is sent their view when a move leaves them to move: what
their GET of the game would answer, so that their client draws it without asking
(live.stream, marram_site/stream.py). The mover (whose answer carried its view)
and everyone else hear the seq only; a seat's views go to its own token alone;
the stream server keeps a note of the seats it holds in Redis only while it
holds them."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest
import redis
from django.test import override_settings

from games import services, streaming
from games.models import Game
from live import stream as live
from live.changes import apply_changes
from live.state_cache import states
from tests.service import test_stream
from tests.service.conftest import body, client_for, make_user, signed_in, start_game
from tests.service.test_stream import Held, events_path, request, settled

pytestmark = pytest.mark.django_db(transaction=True)

# that module's Redis, stream server and publishing, for this module's tests
own_redis, stream, publishing = test_stream.own_redis, test_stream.stream, test_stream.publishing


def seats_by_turn(game: Game) -> tuple:
    """(the user to move, the other player), as their GETs say."""
    users = [s.user for s in game.seats.all()]
    first = next(u for u in users
                 if body(client_for(u).get(f"/api/games/{game.pk}/"))["legal_actions"])
    return first, next(u for u in users if u != first)


def move_until_the_turn_passes(game: Game, mover) -> list[int]:
    """``mover`` plays its first legal action until the game awaits someone else;
    the seq after each move."""
    api = client_for(mover)
    seqs = []
    while True:
        view = body(api.get(f"/api/games/{game.pk}/"))
        action = dict(view["legal_actions"][0])
        action.pop("player")
        answer = api.post(f"/api/games/{game.pk}/actions/",
                          {"seq": view["seq"], "action": action}, format="json")
        assert answer.status_code == 201, answer.content
        seqs.append(body(answer)["seq"])
        if not body(answer)["view"]["legal_actions"]:
            return seqs


def read_view(held: Held, within: float = 10) -> dict:
    """The data of the first ``view`` event (within ``within`` seconds)."""
    _, rest = held.read_until(b"event: view\ndata: ", within=within)
    deadline = time.monotonic() + within
    while b"\n\n" not in rest:
        assert time.monotonic() < deadline, f"a view cut short: {rest[-300:]!r}"
        chunk = held.sock.recv(65536)
        assert chunk, "closed within a view"
        held.seen += chunk
        rest += chunk
    return json.loads(rest.split(b"\n\n", 1)[0])


def unheard(notes: redis.Redis, game: Game) -> None:
    """No stream of the game is noted as listening, once the server has taken back
    the notes of those closed (within 5 s)."""
    deadline = time.monotonic() + 5
    while live.listening(notes, game.pk) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.listening(notes, game.pk) == set()


def test_the_player_left_to_move_is_sent_their_view_the_others_the_seq(
        stream, own_redis, publishing):
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    game = start_game([ann, bob])
    mover, waiter = seats_by_turn(game)
    urls = {u: body(client_for(u).get(f"/api/games/{game.pk}/stream/"))["url"]
            for u in (mover, waiter, cat)}
    # a player's token names their seat and them; a watcher's the game and them
    assert live.token_listening(urls[cat].split("t=")[1]) == live.Listening(
        game.pk, user=cat.pk)
    seat_of = {s.user_id: s.index for s in game.seats.all()}
    assert live.token_listening(urls[waiter].split("t=")[1]) == live.Listening(
        game.pk, seat_of[waiter.pk], "api", waiter.pk)
    held = {u: Held(stream, url) for u, url in urls.items()}
    try:
        for page in held.values():
            page.read_until(b"retry: 3000\n\n")
        settled(stream, 3)
        notes = redis.Redis.from_url(own_redis)
        assert live.listening(notes, game.pk) == {(seat_of[mover.pk], "api", mover.pk),
                                                  (seat_of[waiter.pk], "api", waiter.pk)}

        seqs = move_until_the_turn_passes(game, mover)
        view = read_view(held[waiter])
        # what the waiter's GET answers now, secrets of their own seat and no other's
        assert view == body(client_for(waiter).get(f"/api/games/{game.pk}/"))
        assert view["seq"] == seqs[-1] and view["you"] == seat_of[waiter.pk]
        assert view["legal_actions"] and all(
            a["player"] == seat_of[waiter.pk] for a in view["legal_actions"])
        # the moves that left the mover to move again: the seq alone, to everyone
        assert held[waiter].events() == [f"data: {s}" for s in seqs[:-1]] + ["event: view"]
        for user in (mover, cat):
            held[user].read_until(b"data: %d\n\n" % seqs[-1])
            assert held[user].events() == [f"data: {s}" for s in seqs]
            assert b"legal_actions" not in held[user].seen
    finally:
        for page in held.values():
            page.close()
    # the last connection of each seat closed: its note is taken back
    settled(stream, 0)
    unheard(notes, game)


@pytest.mark.parametrize("forgotten", [False, True])
def test_a_players_page_is_sent_what_its_state_json_would_answer(
        stream, own_redis, publishing, forgotten):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    mover, waiter = seats_by_turn(game)
    page = signed_in(waiter)
    with override_settings(MARRAM_STREAM=True, REDIS_URL=own_redis):
        html = page.get(f"/games/{game.pk}/").content.decode()
    [url] = re.findall(r'data-stream-url="([^"]+)"', html)
    seat = next(s.index for s in game.seats.all() if s.user_id == waiter.pk)
    assert live.token_listening(url.replace("&amp;", "&").split("t=")[1]) == \
        live.Listening(game.pk, seat, "page", waiter.pk)
    held = Held(stream, url.replace("&amp;", "&"))
    try:
        held.read_until(b"retry: 3000\n\n")
        settled(stream, 1)
        drawn = body(page.get(f"/games/{game.pk}/state.json"))
        if forgotten:  # the view made for the page is not in this process
            states.clear()
        move_until_the_turn_passes(game, mover)
        view = read_view(held)
        fresh = body(page.get(f"/games/{game.pk}/state.json"))
        if forgotten:
            assert view == fresh
        else:  # the changes to the state the page drew, as a move's answer has them
            assert view.pop("since") == drawn["seq"]
            assert apply_changes(drawn["state"], view.pop("state_changes")) == fresh["state"]
            assert view == {k: v for k, v in fresh.items() if k != "state"}
        assert view["you"] == seat and view["status_text"]
    finally:
        held.close()


def test_notes_of_listening_expire_unless_renewed(stream, own_redis):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    notes = redis.Redis.from_url(own_redis)
    held = Held(stream, events_path(game, live.stream_token(game.pk, 1, "api", user=bob.pk)))
    try:
        held.read_until(b"retry: 3000\n\n")
        assert live.listening(notes, game.pk) == {(1, "api", bob.pk)}
        # a process that stopped without taking its note back: gone once it expires
        later = time.time() + live.LISTENING_TTL + 1
        assert live.listening(notes, game.pk, now=later) == set()
        # renewed at each heartbeat (a second here)
        first = notes.zrange(live.LISTENING.format(game=game.pk), 0, -1, withscores=True)
        time.sleep(1.5)
        again = notes.zrange(live.LISTENING.format(game=game.pk), 0, -1, withscores=True)
        assert again[0][1] > first[0][1]
    finally:
        held.close()


def test_a_seats_token_is_good_for_its_game_alone_and_a_wait_makes_no_note(
        stream, own_redis):
    ann, bob = make_user("ann"), make_user("bob")
    game, other = start_game([ann, bob]), start_game([ann, bob])
    token = live.stream_token(game.pk, 0, "api", user=ann.pk)
    forged = token.replace(f"{game.pk}.0.api.{ann.pk}", f"{game.pk}.1.api.{ann.pk}")
    assert forged != token
    for path in (events_path(other, token), events_path(game, forged)):
        status, answer = request(stream, path)
        assert (status, answer["code"]) == (403, "forbidden"), path
    with pytest.raises(ValueError):
        live.stream_token(game.pk, 0, "mail", user=ann.pk)
    with pytest.raises(ValueError):  # a seat's token names its player
        live.stream_token(game.pk, 0, "api")
    # a long poll answers the seq alone: no note is made, so no view
    answers: list = []
    waiting = threading.Thread(target=lambda: answers.append(
        request(stream, f"/stream/games/{game.pk}/wait?t={token}&since={game.seq}")))
    waiting.start()
    settled(stream, 1)
    assert live.listening(redis.Redis.from_url(own_redis), game.pk) == set()
    waiting.join(10)
    assert answers == [(200, {"seq": None})]


def test_the_apis_stream_address(own_redis):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    path = f"/api/games/{game.pk}/stream/"
    with override_settings(MARRAM_STREAM=False):
        assert body(client_for(ann).get(path)) == {"url": None}
    with override_settings(MARRAM_STREAM=True, REDIS_URL=own_redis):
        url = body(client_for(ann).get(path))["url"]
        assert url.startswith(f"/stream/games/{game.pk}/events?t=")
        seat = next(s.index for s in game.seats.all() if s.user_id == ann.pk)
        assert live.token_listening(url.split("t=")[1]) == live.Listening(
            game.pk, seat, "api", ann.pk)
        assert body(client_for(ann).get(f"/api/games/{game.pk + 1000}/stream/"))["code"] \
            == "not_found"
        assert client_for(ann).post(path, {}, format="json").status_code == 405
        from rest_framework.test import APIClient

        assert APIClient().get(path).status_code in (401, 403)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        assert body(client_for(ann).get(path)) == {"url": None}


def test_in_a_request_the_move_is_published_once_its_answer_is_sent(own_redis, publishing):
    from django.core.signals import request_finished, request_started

    from tests.service.test_polling import first_move

    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    listener = redis.Redis.from_url(own_redis).pubsub()
    listener.subscribe(live.CHANNEL)
    assert listener.get_message(timeout=5)["type"] == "subscribe"
    mover, _ = seats_by_turn(game)
    view = body(client_for(mover).get(f"/api/games/{game.pk}/"))
    action = dict(view["legal_actions"][0])
    action.pop("player")
    request_started.send(sender=None)
    try:  # committed while a request is served
        services.action_submit(game=game.pk, user=mover, action=action,
                               expected_seq=view["seq"])
        assert listener.get_message(timeout=0.5) is None
    finally:
        request_finished.send(sender=None)  # the answer is sent: now
    game.refresh_from_db()
    message = listener.get_message(timeout=5)
    assert message is not None and message["data"] == b"%d %d" % (game.pk, game.seq)
    first_move(game)  # outside a request (a task): at once
    game.refresh_from_db()
    message = listener.get_message(timeout=5)
    assert message is not None and message["data"] == b"%d %d" % (game.pk, game.seq)
    listener.close()


def refusing_view(game, user) -> bytes:
    raise RuntimeError("a view that cannot be made")


def test_a_view_that_cannot_be_made_leaves_the_seq_and_the_move_stands(
        stream, own_redis, publishing, monkeypatch):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    mover, waiter = seats_by_turn(game)
    url = body(client_for(waiter).get(f"/api/games/{game.pk}/stream/"))["url"]
    monkeypatch.setitem(streaming.MAKERS, "api", refusing_view)
    held = Held(stream, url)
    try:
        held.read_until(b"retry: 3000\n\n")
        seqs = move_until_the_turn_passes(game, mover)  # every answer a 201
        held.read_until(b"data: %d\n\n" % seqs[-1])
        assert held.events() == [f"data: {s}" for s in seqs]
    finally:
        held.close()
