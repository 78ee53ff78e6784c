"""What an open game page costs while nothing happens. The page asks every few
seconds for the events since the seq it shows; nearly always there are none, and
that answer is the same for everyone who may read the game, so it comes from the
game's seq alone: no events query, no user row. Answers carry an ETag, and a
client that sends it back (If-None-Match) gets a 304 with no body while nothing
changed; browsers keep them for the user only and always ask again."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services
from games.panels import panels_changed
from tests.service.conftest import body, client_for, make_user, signed_in, start_game
from tests.service.mail_kit import MAIL_DEAL

pytestmark = pytest.mark.django_db



def first_move(game) -> None:
    """The player to move makes their first legal action (through the API)."""
    state = body(client_for(game.created_by).get(f"/api/games/{game.pk}/"))
    for user in (s.user for s in game.seats.all()):
        view = body(client_for(user).get(f"/api/games/{game.pk}/"))
        if view["legal_actions"]:
            action = dict(view["legal_actions"][0])
            action.pop("player")
            services.action_submit(game=game.pk, user=user, action=action,
                                   expected_seq=state["seq"])
            return
    raise AssertionError("nobody may move")


def test_an_idle_poll_gives_the_seq_an_etag_and_then_a_304_until_a_move():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=MAIL_DEAL)
    page = signed_in(bob)
    url = f"/api/games/{game.pk}/events/?since={game.seq}"

    first = page.get(url)
    assert first.status_code == 200
    assert body(first) == {"seq": game.seq, "panels": 0, "events": []}
    assert first["ETag"] == f'"seq-{game.seq}-0"'
    assert {"private", "no-cache"} <= {p.strip() for p in first["Cache-Control"].split(",")}

    again = page.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]

    first_move(game)
    moved = page.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200
    listed = body(moved)
    assert listed["seq"] == game.seq + 1
    assert [e["seq"] for e in listed["events"]] == [game.seq]
    # the answer with the move has an ETag of its own, and it holds while nothing moves
    assert moved["ETag"] != first["ETag"]
    assert page.get(url, HTTP_IF_NONE_MATCH=moved["ETag"]).status_code == 304


def test_a_change_beside_the_record_is_a_new_answer_with_its_panels_seq():
    """A chat message, a rematch, the rating changes (games.panels) move no seq, but
    the page must read what it shows of them again."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    page = signed_in(bob)
    url = f"/api/games/{game.pk}/events/?since={game.seq}"
    first = page.get(url)
    with transaction.atomic():
        assert panels_changed(game.pk) == 1
    changed = page.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert body(changed) == {"seq": game.seq, "panels": 1, "events": []}
    assert page.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304
    assert body(page.get(f"/api/games/{game.pk}/events/?since=0"))["panels"] == 1


def test_an_idle_poll_reads_the_game_seq_and_nothing_else():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    url = f"/api/games/{game.pk}/events/?since={game.seq}"

    page = signed_in(bob)
    with CaptureQueriesContext(connection) as session_poll:
        assert page.get(url).status_code == 200
    tables = " ".join(q["sql"] for q in session_poll.captured_queries)
    # the session (the permission asks only whether it holds a user), then the seqs
    assert len(session_poll.captured_queries) == 2, tables
    assert "django_session" in session_poll.captured_queries[0]["sql"]
    assert "games_game" in session_poll.captured_queries[1]["sql"]
    assert "auth_user" not in tables and "games_event" not in tables

    api = client_for(bob)
    api.get(url)  # the token is checked once, then remembered for a while
    with CaptureQueriesContext(connection) as token_poll:
        assert api.get(url).status_code == 200
    assert len(token_poll.captured_queries) == 1
    assert "games_event" not in token_poll.captured_queries[0]["sql"]


def test_a_poll_that_finds_moves_checks_the_user_in_full():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    first_move(game)
    page = signed_in(bob)
    assert page.get(f"/api/games/{game.pk}/events/?since=0").status_code == 200

    bob.is_active = False
    bob.save()
    refused = page.get(f"/api/games/{game.pk}/events/?since=0")
    assert refused.status_code in (401, 403)
    assert body(refused)["code"] == "not_authenticated"
    assert "events" not in body(refused)


def test_nobody_signed_in_gets_no_answer_at_all():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    for url in (f"/api/games/{game.pk}/events/?since={game.seq}",
                f"/api/games/{game.pk}/events/?since=0"):
        refused = Client().get(url)
        assert refused.status_code in (401, 403)
        assert body(refused)["code"] == "not_authenticated"
    forged = Client(HTTP_AUTHORIZATION="Token " + "f" * 40).get(
        f"/api/games/{game.pk}/events/?since={game.seq}")
    assert forged.status_code == 401 and body(forged)["code"] == "authentication_failed"


def test_a_poll_of_no_game_or_a_bad_seq_is_a_clear_error():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    page = signed_in(bob)
    missing = page.get(f"/api/games/{game.pk + 1000}/events/?since=0")
    assert missing.status_code == 404 and body(missing)["code"] == "not_found"
    bad = page.get(f"/api/games/{game.pk}/events/?since=soon")
    assert bad.status_code == 400 and body(bad)["field"] == "since"
    # a seq from the future is an idle poll: nothing new yet
    assert body(page.get(f"/api/games/{game.pk}/events/?since=999"))["events"] == []


@pytest.mark.parametrize("path", ["/api/games/{id}/", "/games/{id}/state.json"])
def test_the_state_is_a_304_while_the_game_has_not_moved(path):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=MAIL_DEAL)
    page = signed_in(bob)
    url = path.format(id=game.pk)

    first = page.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert "private" in first["Cache-Control"]
    assert page.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    first_move(game)
    moved = page.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert body(moved)["seq"] == game.seq + 1
    # the other player's view is another answer with another ETag
    other = signed_in(ann).get(url)
    assert other["ETag"] != moved["ETag"]


@pytest.mark.parametrize("cookie", ["", "short", "A" * 32, "a" * 41, "abc\x00def12345",
                                    "'; DROP TABLE django_session; --", "é" * 32])
def test_a_session_cookie_of_any_other_shape_is_nobody_and_costs_no_query(cookie):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    page = Client()
    page.cookies["sessionid"] = cookie
    with CaptureQueriesContext(connection) as queries:
        refused = page.get(f"/api/games/{game.pk}/events/?since={game.seq}")
    assert refused.status_code in (401, 403)
    assert body(refused)["code"] == "not_authenticated"
    assert not [q for q in queries.captured_queries if "django_session" in q["sql"]]


def test_an_expired_session_is_nobody():
    from datetime import timedelta

    from django.contrib.sessions.models import Session
    from django.utils import timezone

    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    page = signed_in(bob)
    url = f"/api/games/{game.pk}/events/?since={game.seq}"
    assert page.get(url).status_code == 200
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    assert page.get(url).status_code in (401, 403)


def test_a_poll_is_refused_on_its_session_before_the_game_is_read():
    """A forged key or a session signed out elsewhere is refused on the session's
    read alone, the game not read; a game that is not there is a 404 for who
    may ask; nobody signed in is refused before anything is read."""
    from django.contrib.sessions.models import Session

    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    url = f"/api/games/{game.pk}/events/?since={game.seq}"
    page = signed_in(bob)
    assert body(page.get(url)) == {"seq": game.seq, "panels": 0, "events": []}

    gone = page.get(f"/api/games/{game.pk + 1000}/events/?since=0")
    assert gone.status_code == 404 and body(gone)["code"] == "not_found"

    forged = Client()
    forged.cookies["sessionid"] = "a" * 32
    with CaptureQueriesContext(connection) as forged_poll:
        refused = forged.get(url)
    assert refused.status_code in (401, 403) and "seq" not in body(refused)
    assert len(forged_poll.captured_queries) == 1

    Session.objects.all().delete()  # signed out everywhere
    refused = page.get(url)
    assert refused.status_code in (401, 403) and "seq" not in body(refused)

    with CaptureQueriesContext(connection) as nobody:  # no cookie, no token
        refused = Client().get(url)
    assert refused.status_code in (401, 403) and "seq" not in body(refused)
    assert nobody.captured_queries == []  # refused before anything is read
