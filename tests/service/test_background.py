"""./dev run's setup: Celery tasks run in the web process as the commits enqueue
them, and a computer player's move, which thinks for seconds, runs on the
process's background thread once the answer to the request that left the move
to it has gone out (games.background, MARRAM_BACKGROUND_TASKS), as a worker
would run it. The tests' own eager tasks (the setting off) still run inside the
commit."""

from __future__ import annotations

import json
import logging
import threading

import pytest

from bots import services as bots
from games import background
from games.models import Event, Game
from tests.service.conftest import body, client_for, make_user, signed_in
from tests.service.mail_kit import eager_tasks

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def embedded(settings):
    """Tasks as ``./dev run`` runs them."""
    with eager_tasks(settings):
        settings.MARRAM_BACKGROUND_TASKS = True
        yield
        assert background.idle(120), "the background thread is still busy"


def moves_of(game: Game, user) -> int:
    return Event.objects.filter(game=game, actor=user).count()


def test_a_move_is_answered_before_the_computer_thinks_and_it_moves_after(embedded):
    ann = make_user("ann")
    game = bots.play_the_computer(user=ann, game="pond", levels=["strong"])
    computer = next(s.user for s in game.seats.all() if s.user != ann)
    assert background.idle(120)  # the computer's first move, if it was drawn to begin
    view = body(client_for(ann).get(f"/api/games/{game.pk}/"))
    before = moves_of(game, computer)

    # the page's move, as its Confirm sends it
    answer = signed_in(ann).post(
        f"/games/{game.pk}/actions/", json.dumps({"seq": view["seq"],
                                                  "action": view["legal_actions"][0]}),
        content_type="application/json")
    assert answer.status_code == 201
    # answered before the computer moved: its move awaits the computer, thinking
    moved = body(answer)["view"]
    assert moved["legal_actions"] == [] and moved["seq"] == view["seq"] + 1
    assert moved["status_text"] == f"{computer.get_username()} is thinking about its move."

    assert background.idle(120)
    assert moves_of(game, computer) == before + 1
    game.refresh_from_db()
    assert body(client_for(ann).get(f"/api/games/{game.pk}/"))["legal_actions"]


def test_with_the_setting_off_the_computer_moves_inside_the_commit(settings):
    ann = make_user("ann")
    with eager_tasks(settings):
        settings.MARRAM_BACKGROUND_TASKS = False
        game = bots.play_the_computer(user=ann, game="pond", levels=["easy"])
        view = body(client_for(ann).get(f"/api/games/{game.pk}/"))
        answer = client_for(ann).post(f"/api/games/{game.pk}/actions/",
                                      {"seq": view["seq"], "action": view["legal_actions"][0]},
                                      format="json")
        # the computer's reply is in the answer already
        assert body(answer)["view"]["legal_actions"]


def test_a_failing_background_task_is_logged_and_the_next_one_runs(settings, caplog):
    ran = []

    class Task:
        name = "a task"

        def __init__(self, fails: bool) -> None:
            self.fails = fails

        def apply(self, args, throw):
            if self.fails:
                raise RuntimeError("no luck")
            ran.append((args, threading.current_thread().name))

    with caplog.at_level(logging.ERROR, logger="games.background"):
        background.run_after_answer(Task(fails=True), 1)
        background.run_after_answer(Task(fails=False), 2)
        assert background.idle(10)
    assert ran == [((2,), "marram-background")]
    assert "background task a task(1,) failed" in caplog.text
