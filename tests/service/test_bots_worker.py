"""A person plays a whole game of Pond against the easy computer player through
the API, with the real parts: Redis, a Celery worker in its own process moving
the bot after each of the person's commits, and the SMTP server, which receives
no mail for the bot."""

from __future__ import annotations

import pytest

from bots import tasks as bot_tasks
from games.models import Event, Game
from notifications.models import Notification
from tests.service.conftest import body, client_for, make_user
from tests.service.test_celery_worker import (  # noqa: F401  (the module's fixtures)
    broker_at,
    free_port,
    fresh_visits,
    mailbox,
    process_env,
    quiet_worker,
    smtp,
    wait_for,
    worker,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_url")]


@pytest.mark.usefixtures("worker", "mailbox")
def test_a_person_plays_a_whole_game_against_the_easy_bot():
    ann = make_user("ann")
    client = client_for(ann)
    created = client.post("/api/games/", {"game": "pond", "seats": 2, "bots": ["easy"]},
                          format="json")
    assert created.status_code == 201, created.content
    game_id = body(created)["id"]
    assert body(created)["status"] == "running"
    moves = 0
    for _ in range(300):
        view = wait_for(lambda: _my_turn_or_over(client, game_id), "the bot's move")
        if view["status"] == "finished":
            break
        answer = client.post(f"/api/games/{game_id}/actions/",
                             {"seq": view["seq"], "action": view["legal_actions"][0]},
                             format="json")
        assert answer.status_code == 201, answer.content
        moves += 1
    else:
        raise AssertionError("the game did not end")
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished" and moves > 5, moves
    assert not game.projection["resigned"]  # played to the end
    events = list(Event.objects.filter(game=game).select_related("actor"))
    bot_moves = [e for e in events if e.actor and hasattr(e.actor, "bot")]
    mine = [e for e in events if e.actor_id == ann.pk]
    assert bot_moves and len(mine) == moves
    assert {e.actor.get_username() for e in bot_moves} == {"Plover (computer, easy)"}
    # each position got one move: the seqs are all different, in order, without a gap
    assert [e.seq for e in events] == list(range(game.seq))
    bot = bot_moves[0].actor
    assert not Notification.objects.filter(user=bot).exists()
    assert Notification.objects.filter(user=ann, kind="game_over").exists()


def _my_turn_or_over(client, game_id: int) -> dict | None:
    view = body(client.get(f"/api/games/{game_id}/"))
    if view["status"] == "finished" or view["legal_actions"]:
        return view
    return None


@pytest.mark.usefixtures("worker", "mailbox")
def test_a_bot_move_lost_while_redis_is_down_is_made_once_the_sweep_runs(caplog):
    ann = make_user("ann")
    client = client_for(ann)
    created = body(client.post("/api/games/", {"game": "pond", "seats": 2, "bots": ["easy"]},
                               format="json"))
    view = wait_for(lambda: _my_turn_or_over(client, created["id"]), "ann's turn")
    with broker_at(f"redis://127.0.0.1:{free_port()}/0"):  # nothing listens there
        answer = client.post(f"/api/games/{created['id']}/actions/",
                             {"seq": view["seq"], "action": view["legal_actions"][0]},
                             format="json")
    assert answer.status_code == 201  # the move does not depend on Redis
    assert "could not enqueue bots.tasks.bot_move" in caplog.text
    seq = body(answer)["seq"]
    game = Game.objects.get(pk=created["id"])
    assert game.seq == seq and game.projection["to_act"] != [view["you"]]  # the bot's turn
    # Redis is back: the beat sweep enqueues the move, the worker makes it, once
    assert bot_tasks.bots_sweep() == 1
    wait_for(lambda: Game.objects.get(pk=game.pk).seq > seq, "the bot's move")
    assert Event.objects.filter(game=game, seq=seq, actor__bot__level="easy").count() == 1
