"""The fly and the frog are drawn by a task after the move that calls for them:
meanwhile the game waits for the fly and refuses moves, and no clock runs."""

import pytest

from engine import marram as engine
from engine.marram import fairness
from games import services, tasks
from games.models import Clock, Event, Game
from games.selectors import game_state_get
from notifications import services as notes
from notifications.models import Notification
from tests.service.conftest import body, client_for, seat_user, start_game
from tests.service.mail_kit import awaited, eager_tasks


@pytest.fixture(autouse=True)
def draw_in_a_task(settings):
    settings.MARRAM_DRAW_INLINE = False


def play_until_the_fly_is_due(game: Game) -> Game:
    """Lay tiles until a move brings the board to 20 tiles: the fly must appear."""
    for _ in range(60):
        seat, wait = awaited(game)
        if wait["kind"] == "chance":
            return game
        action = engine.legal_actions(game_state_get(game))[0]
        services.action_submit(game=game, user=seat_user(game, seat), action=action,
                               expected_seq=game.seq)
    raise AssertionError("the fly never came")


@pytest.mark.django_db
def test_the_game_waits_for_the_fly_and_the_task_draws_it_once(users):
    game = play_until_the_fly_is_due(start_game(users[:2], variant="animals"))
    mover = Event.objects.filter(game=game).order_by("-seq").first().payload["player"]
    assert awaited(game)[1] == {"kind": "chance", "player": None, "event": "appear",
                                "creature": "fly"}
    assert not Clock.objects.filter(game=game, started_at__isnull=False).exists()
    # a move now is refused, saying why
    client = client_for(seat_user(game, 1 - mover))
    view = body(client.get(f"/api/games/{game.pk}/"))
    assert view["state"]["awaiting"]["kind"] == "chance" and view["legal_actions"] == []
    refused = client.post(f"/api/games/{game.pk}/actions/",
                          {"seq": view["seq"], "action": {"type": "pass"}}, format="json")
    assert refused.status_code == 409
    assert body(refused)["code"] == "awaiting_chance"
    assert body(refused)["message"].startswith("waiting for chance to decide where the fly "
                                               "appears")

    before = game_state_get(game)
    seq = game.seq
    assert tasks.resolve_chance.apply(args=[game.pk]).get() == 1
    assert tasks.resolve_chance.apply(args=[game.pk]).get() == 0  # twice: appended once
    appears = Event.objects.get(game=game, type="creature_appears")
    assert appears.seq == seq and appears.actor is None
    assert appears.payload == engine.chance_event(
        before, fairness.draw(game.seed, seq, engine.chance_odds(before)))
    # then the guesses, the mover first, and the mover's clock runs again
    assert awaited(game)[1] == {"kind": "guess", "player": mover, "creature": "fly"}
    assert Clock.objects.get(game=game, started_at__isnull=False).seat == mover


@pytest.mark.django_db(transaction=True)
def test_in_process_the_draw_follows_the_commit_at_once(users, settings):
    # ./dev run: the task runs eagerly as soon as the move's transaction commits
    game = start_game(users[:2], variant="animals")
    with eager_tasks(settings):
        while not Event.objects.filter(game=game, type="creature_appears").exists():
            seat, wait = awaited(game)
            assert wait["kind"] != "chance"  # never seen waiting: drawn before the answer
            action = engine.legal_actions(game_state_get(game))[0]
            services.action_submit(game=game, user=seat_user(game, seat), action=action,
                                   expected_seq=game.seq)
    # drawn by the task, not by the move (whose draws would carry its seq as the cause)
    assert Event.objects.get(game=game, type="creature_appears").cause_seq is None


@pytest.mark.django_db
def test_the_sweep_draws_a_fly_left_waiting(users, settings):
    game = play_until_the_fly_is_due(start_game(users[:2], variant="animals"))
    with eager_tasks(settings):
        assert notes.outbox_sweep()["chance"] == 1
    assert awaited(game)[1]["kind"] == "guess"


@pytest.mark.django_db(transaction=True)
def test_the_games_app_draws_the_fly_without_the_notifications_app(users, settings):
    # games queues the draw itself: nothing of notifications' is needed for it
    game = start_game(users[:2], variant="animals")
    mails = Notification.objects.count()
    settings.MARRAM_GAME_MAIL = "games.mail.NoMail"  # the games app on its own:
    settings.MARRAM_AFTER_MOVE = ["games.tasks.ChanceDraw"]  # its own follower alone
    with eager_tasks(settings):
        while not Event.objects.filter(game=game, type="creature_appears").exists():
            seat, wait = awaited(game)
            assert wait["kind"] != "chance"
            action = engine.legal_actions(game_state_get(game))[0]
            services.action_submit(game=game, user=seat_user(game, seat), action=action,
                                   expected_seq=game.seq)
    assert Event.objects.get(game=game, type="creature_appears").cause_seq is None
    assert Notification.objects.count() == mails  # notifications heard nothing of it
