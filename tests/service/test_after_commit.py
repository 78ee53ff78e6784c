"""What runs after a change is committed never reaches whoever made the change,
and no process reads a Redis reply meant for another.

A move, a join, a resignation are stored once their write commits; the stream's
publication, the state cache, the tasks handed to the broker come after. A
failure there is logged: the move is answered 201, the join returns. And the
stream's commands go through redis-py's client, whose pool gives a process
forked from this one connections of its own (before, a connection made per
thread was shared across a fork, and two processes read each other's replies).
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.test import override_settings

from engine import marram as engine
from games import services
from games.models import Event, Game
from games.selectors import game_state_get
from live import stream as live
from tests.service.conftest import client_for, make_user, seat_user, start_game


def _wrong_reply(members):
    raise TypeError("'int' object is not iterable")  # a reply read by the wrong command


@pytest.fixture
def publishing_fails(monkeypatch):
    monkeypatch.setattr(live, "_seats_of", _wrong_reply)
    with override_settings(MARRAM_STREAM=True):
        assert live.enabled()
        yield


@pytest.mark.django_db(transaction=True)
def test_a_move_whose_publication_fails_is_answered_as_stored(publishing_fails, caplog):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    state = game_state_get(game)
    mover = seat_user(game, engine.awaiting(state)["player"])
    action = {**engine.legal_actions(state)[0], "claim": None}
    answer = client_for(mover).post(f"/api/games/{game.pk}/actions/",
                                    {"seq": game.seq, "action": action}, format="json")
    assert answer.status_code == 201, answer.content
    assert Event.objects.filter(game=game, actor=mover).count() == 1
    assert "could not publish game" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_join_that_starts_the_game_returns_whatever_fails_after_its_commit(
        publishing_fails, caplog):
    cyd, dee = make_user("cyd"), make_user("dee")
    game = services.game_create(user=cyd, variant="classic", length="long", seats=2)
    joined = services.game_join(game=game.pk, user=dee)
    assert Game.objects.get(pk=joined.pk).status == Game.Status.RUNNING
    assert "could not publish game" in caplog.text


def test_a_forked_process_never_reads_its_parents_replies():
    """Parent and child send ECHOs at once over what each process holds as its
    connection: every reply is the one its own command asked for."""
    assert settings.REDIS_URL  # ./dev test's Redis
    assert live._command("ECHO", b"before the fork") == b"before the fork"
    child = os.fork()
    if child == 0:  # the child: its own commands, its own replies
        wrong = sum(live._command("ECHO", b"child %d" % i) != b"child %d" % i
                    for i in range(2000))
        os._exit(1 if wrong else 0)
    wrong = sum(live._command("ECHO", b"parent %d" % i) != b"parent %d" % i
                for i in range(2000))
    _, status = os.waitpid(child, 0)
    assert (wrong, os.waitstatus_to_exitcode(status)) == (0, 0)
