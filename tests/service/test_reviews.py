"""The review of a finished game by the strongest computer player, with the real
parts: Redis, and a Celery worker in its own process making the review (at a
small budget: MARRAM_REVIEW_PLAYOUTS, MARRAM_REVIEW_SAMPLES).

Who may do what: while a game is played nobody gets a review (409, nothing
made); once it is over its players may ask for one, and everyone who may
replay the game (anyone signed in) may read it once asked for; a spectator may
not ask."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from bots import services as bot_services
from engine import registry
from engine.bots.mcts import search
from engine.bots.review import review_rng
from games.models import Event, Game
from marram_site.celery import app as celery_app
from notifications.models import Notification
from reviews import services
from reviews.models import Review
from tests.service import test_celery_worker as real
from tests.service.conftest import body, client_for, make_user, signed_in, start_game_of
from tests.service.endgame_kit import play_to_the_end
from tests.service.test_celery_worker import wait_for

worker_env, smtp, mailbox, fresh_visits, quiet_worker, worker = (
    real.process_env, real.smtp, real.mailbox, real.fresh_visits, real.quiet_worker,
    real.worker)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_url")]

PLAYOUTS, SAMPLES = 30, 4
SEED = "5e" * 32


@pytest.fixture(scope="module")
def process_env(worker_env) -> dict[str, str]:
    """The worker's environment: reviews at the small budget."""
    return {**worker_env, "MARRAM_REVIEW_PLAYOUTS": str(PLAYOUTS),
            "MARRAM_REVIEW_SAMPLES": str(SAMPLES)}


def _pond(ann, bob) -> Game:
    return start_game_of("pond", [ann, bob], seed=SEED)


def test_no_review_while_the_game_is_played():
    ann, bob = make_user("ann"), make_user("bob")
    game = _pond(ann, bob)
    play_to_the_end(game, until=lambda g: g.seq >= 6)
    for answer in (client_for(ann).post(f"/api/games/{game.pk}/review/"),
                   client_for(ann).get(f"/api/games/{game.pk}/review/")):
        assert answer.status_code == 409, answer.content
        assert body(answer)["code"] == "game_not_finished"
        assert "once it is over" in body(answer)["message"]
    page = signed_in(ann).post(f"/games/{game.pk}/review/")
    assert page.status_code == 409 and b"once it is over" in page.content
    replay = signed_in(ann).get(f"/games/{game.pk}/replay/")
    assert replay.status_code == 200 and b"Review by the strong computer" not in replay.content
    assert not Review.objects.exists()


@pytest.mark.usefixtures("worker")
def test_a_player_asks_once_the_game_is_over_and_the_worker_reviews_every_move(mailbox):
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = play_to_the_end(_pond(ann, bob))
    assert game.status == "finished"
    spectator = client_for(cyd)
    nothing = spectator.get(f"/api/games/{game.pk}/review/")
    assert nothing.status_code == 404 and body(nothing)["code"] == "no_review"
    refused = spectator.post(f"/api/games/{game.pk}/review/")
    assert refused.status_code == 403 and body(refused)["code"] == "not_a_player"
    assert not Review.objects.exists()

    asked = client_for(ann).post(f"/api/games/{game.pk}/review/")
    assert asked.status_code == 202, asked.content
    assert body(asked)["status"] == "pending" and body(asked)["moves"] == []
    shown = wait_for(lambda: _ready(client_for(ann), game.pk), "the review")
    # the other player's request finds it made: one review a game, nothing enqueued
    again = client_for(bob).post(f"/api/games/{game.pk}/review/")
    assert again.status_code == 200 and body(again) == shown
    assert Review.objects.filter(game=game).count() == 1

    rules = registry.get("pond")
    assert (shown["measure"], shown["playouts"], shown["samples"]) == ("win", PLAYOUTS, SAMPLES)
    assert shown["unit"] == "percentage points of the chance of winning"
    events = list(Event.objects.filter(game=game).order_by("seq"))
    # every event of Pond here is a player's move (no chance, nobody resigned)
    assert [(m["seq"], m["seat"]) for m in shown["moves"]] == [
        (e.seq, e.payload["player"]) for e in events]
    names = game.config_players()
    state = rules.start(game.started_config())
    for move, event in zip(shown["moves"], events, strict=True):
        assert move["played_action"] == event.payload
        assert move["played"] == rules.describe_event(event.payload, names)
        assert move["cost"] >= 0
        assert abs(move["cost"] - (move["value_best"] - move["value_played"])) <= 0.011
        # the search's choice is the one the strong player makes from the move's seed
        seat = move["seat"]
        chosen = search(rules, state, seat, review_rng(game.seed, event.seq, seat),
                        replace(rules.search, playouts=PLAYOUTS)).action
        assert move["suggested"] == rules.describe_event(chosen, names)
        if chosen == event.payload:
            assert move["cost"] == 0 and move["best_action"] == event.payload
        assert move["best_action"] in (event.payload, chosen)
        state = rules.fold(state, rules.read_event(event.payload))
    for seat in (0, 1):
        mine = [m for m in shown["moves"] if m["seat"] == seat]
        costly = sorted((m["cost"] for m in mine if m["cost"] > 0), reverse=True)
        marked = sorted((m["cost"] for m in mine if m["marked"]), reverse=True)
        assert marked == costly[:3]
        assert shown["seats"][seat]["cost"] == pytest.approx(sum(m["cost"] for m in mine))

    # the replay page shows it to a player and to a spectator; only a player may ask
    worst = max(shown["moves"], key=lambda m: m["cost"])
    for user in (ann, cyd):
        page = signed_in(user).get(f"/games/{game.pk}/replay/").content.decode()
        assert "Review by the strong computer" in page and "The costliest moves" in page
        assert f'data-review-step="{worst["seq"] + 1}"' in page
        assert "Review the moves</button>" not in page
    assert body(spectator.get(f"/api/games/{game.pk}/review/")) == shown

    # ann, who asked while it was made, is mailed that it is ready; bob found it made
    ready = f"Pond game {game.pk}: the review of the moves is ready"
    mail = wait_for(lambda: [m for m in mailbox.messages if m["Subject"] == ready], "the mail")
    assert [m["To"] for m in mail] == ["ann@example.org"]
    text = mail[0].get_body(("plain",)).get_content()
    assert f"/games/{game.pk}/replay/" in text


def _ready(client, game_id: int) -> dict | None:
    shown = body(client.get(f"/api/games/{game_id}/review/"))
    assert shown["status"] != "failed", shown
    return shown if shown["status"] == "ready" else None


# the game's end enqueues its tasks: the module's worker, if running, takes them,
# and quiet_worker waits for it before the tables are emptied
@pytest.mark.usefixtures("worker")
def test_a_player_sees_the_button_and_a_spectator_does_not():
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = play_to_the_end(_pond(ann, bob))
    mine = signed_in(ann).get(f"/games/{game.pk}/replay/").content.decode()
    assert "Review the moves</button>" in mine
    theirs = signed_in(cyd).get(f"/games/{game.pk}/replay/").content.decode()
    assert "No review yet: the game's players can ask for one." in theirs
    assert "Review the moves</button>" not in theirs


@pytest.mark.django_db(transaction=False)
def test_only_the_people_s_moves_are_reviewed_not_the_computer_s(settings):
    settings.MARRAM_REVIEW_PLAYOUTS, settings.MARRAM_REVIEW_SAMPLES = 10, 2
    ann = make_user("ann")
    game = bot_services.game_create(user=ann, game="pond", seats=2, bots=["easy"])
    game = play_to_the_end(game)
    review, started = services.review_request(game_id=game.pk, user=ann)
    assert started and review.status == "pending"
    assert services.review_make(game.pk) is True
    assert services.review_make(game.pk) is False  # made: a second run writes nothing
    review.refresh_from_db()
    theirs = list(Event.objects.filter(game=game, actor=ann).values_list("seq", flat=True))
    assert theirs and len(theirs) < game.seq
    assert [m["seq"] for m in review.moves] == theirs


@pytest.mark.django_db(transaction=False)
def test_the_sweep_enqueues_a_review_whose_task_was_lost_once_and_it_is_made_once(settings):
    """A request whose task never reached a worker (here: a test transaction's
    commit never comes, so its enqueue never runs) leaves the review pending. The
    sweep leaves it alone for RETRY_AFTER, then enqueues it again; the task of the
    first request, if it turns up late, finds itself superseded and writes
    nothing; the review is made and its mail written once."""
    settings.MARRAM_REVIEW_PLAYOUTS, settings.MARRAM_REVIEW_SAMPLES = 10, 2
    ann, bob = make_user("ann"), make_user("bob")
    game = play_to_the_end(_pond(ann, bob))
    review, started = services.review_request(game_id=game.pk, user=ann)
    assert started and review.status == "pending"
    first = review.enqueued_at
    assert services.reviews_sweep(now=first + services.RETRY_AFTER) == 0  # not yet
    review.refresh_from_db()
    assert review.enqueued_at == first
    later = first + services.RETRY_AFTER + timedelta(seconds=1)
    assert services.reviews_sweep(now=later) == 1
    assert services.reviews_sweep(now=later) == 0  # claimed: a second sweep leaves it
    review.refresh_from_db()
    assert (review.status, review.enqueued_at) == ("pending", later)

    assert services.review_make(game.pk, first.isoformat()) is False  # superseded
    review.refresh_from_db()
    assert review.status == "pending" and review.moves == []
    assert services.review_make(game.pk, later.isoformat()) is True
    assert services.review_make(game.pk, later.isoformat()) is False  # made already
    review.refresh_from_db()
    assert review.status == "ready" and len(review.moves) == Event.objects.filter(game=game).count()
    mails = Notification.objects.filter(game=game, kind=services.KIND)
    assert [(m.user_id, m.subject) for m in mails] == [
        (ann.pk, f"Pond game {game.pk}: the review of the moves is ready")]
    # made: no sweep takes it again, however late; nor a failed one (a player asks again)
    assert services.reviews_sweep(now=later + timedelta(days=1)) == 0
    Review.objects.filter(pk=review.pk).update(status=Review.Status.FAILED)
    assert services.reviews_sweep(now=later + timedelta(days=1)) == 0




@pytest.mark.usefixtures("worker")
def test_beat_s_sweep_hands_a_lost_review_to_the_worker(mailbox):
    """With the real parts: beat's schedule names the sweep, the sweep's task
    enqueues the lost review, the worker makes it, and its player is mailed once."""
    entry = celery_app.conf.beat_schedule["reviews-sweep"]
    assert entry["task"] in celery_app.tasks and entry["schedule"] == 5 * 60.0
    sweep = celery_app.tasks["reviews.tasks.reviews_sweep"]
    assert sweep.apply().get() == 0  # nothing lost yet
    asker, other = make_user("sweep-asker"), make_user("sweep-other")
    game = play_to_the_end(_pond(asker, other))
    lost = timezone.now() - services.RETRY_AFTER - timedelta(minutes=1)
    Review.objects.create(game=game, requested_by=asker, waiting=[asker.pk], enqueued_at=lost)
    assert body(client_for(asker).get(f"/api/games/{game.pk}/review/"))["status"] == "pending"
    assert sweep.apply().get() == 1
    shown = wait_for(lambda: _ready(client_for(asker), game.pk), "the review")
    assert len(shown["moves"]) == Event.objects.filter(game=game).count()
    ready = f"Pond game {game.pk}: the review of the moves is ready"
    mail = wait_for(lambda: [m for m in mailbox.messages if m["Subject"] == ready], "the mail")
    assert [m["To"] for m in mail] == ["sweep-asker@example.org"]
    assert sweep.apply().get() == 0  # made: not swept again
