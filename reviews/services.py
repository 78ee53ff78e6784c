"""Asking for the review of a finished game and making it.

A game has at most one review, shared by everyone who may replay the game
(every signed-in user, once it is over); only its players may ask for one, and
only once it is over: a review of a running game would be help while playing,
so none is made or shown before the end. The first request makes the row
(pending) and hands ``reviews.tasks.review_make`` to the broker after the
commit; the player is not kept waiting: the replay page follows the review
until it is ready, and each player who asked is mailed when it is (under
their mail settings). The task may run twice or late: it writes only a review
still pending, and the same game gives the same review (engine.bots.review is
seeded from the game's seed, public once the game is over). A task the broker
or a worker lost leaves its review pending: beat's sweep (``reviews_sweep``)
enqueues it again once ``RETRY_AFTER`` has passed since it was last enqueued,
and a task enqueued before that (late, not lost) then does nothing.

The moves reviewed are those the game's people made (the events they are the
actor of): not a computer player's, nor what the server wrote (chance, time
running out)."""

from __future__ import annotations

import functools
import logging
import time
from datetime import datetime, timedelta
from typing import Any, TypedDict

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from bots.selectors import bot_user_ids
from engine.bots.review import Budget, MoveReview, marked, review_game
from engine.errors import IllegalAction, RecordError
from engine.protocol import AnyGame, JSONObject
from games.enqueue import enqueue
from games.models import Event, Game
from games.selectors import game_get, rules_of, seat_index_of
from notifications import emails
from notifications.models import Notification, Policy
from notifications.selectors import mail_settings_get
from notifications.services import notifications_queue
from reviews import jobs
from reviews.models import Review
from web.errors import Conflict, Forbidden
from web.links import site_url

logger = logging.getLogger(__name__)

KIND = "review"
"""The outbox rows' kind: "your review is ready" (the outbox sends any kind it
is given a subject for)."""

RETRY_AFTER = timedelta(minutes=15)
"""A review still pending this long after its task was enqueued is enqueued
again (a task the broker lost), by beat's sweep or when a player asks; sooner,
asking again only answers that it is pending."""


class MoveEntry(TypedDict):
    """One reviewed move, as stored and as the API and page give it."""

    seq: int
    """The move's index in the game's events; the replay's step after it is seq + 1."""
    seat: int
    player: str
    played: str
    """The move, in the game's words."""
    best: str
    """What the strongest computer player recommends there (the move itself when
    it held up against its own choice)."""
    suggested: str
    """What its search chose."""
    played_action: JSONObject
    best_action: JSONObject
    value_played: float
    value_best: float
    cost: float
    """value_best - value_played, in the review's measure: 0 or more."""
    choices: int
    """The actions the search weighed (1: a forced move)."""
    marked: bool
    """One of the few moves that cost the seat most."""


def _check_over(game: Game) -> None:
    if game.status != Game.Status.FINISHED:
        raise Conflict("a game is reviewed once it is over: no help while it is played",
                       code="game_not_finished", status=game.status)


def review_get(*, game_id: int) -> tuple[Game, Review | None]:
    """The finished game and its review, if anyone asked for one; 409 for a game
    that is not over (nothing of a review exists before the end)."""
    game = game_get(game_id)
    _check_over(game)
    return game, Review.objects.filter(game=game).first()


def review_request(*, game_id: int, user: User) -> tuple[Review, bool]:
    """Ask for the game's review as one of its players: the review, and whether
    this request set it going (True for the first request, and for one after a
    failure or a task lost). 409 before the end, 403 for anyone not playing."""
    game = game_get(game_id)
    _check_over(game)
    if seat_index_of(game, user) is None:
        raise Forbidden("only the game's players can ask for its review; anyone signed in "
                        "may read it once it is made", code="not_a_player")
    now = timezone.now()
    with transaction.atomic():
        review, created = Review.objects.select_for_update().get_or_create(
            game=game, defaults={"requested_by": user, "enqueued_at": now,
                                 "waiting": [user.pk]})
        if not created and review.status != Review.Status.READY \
                and user.pk not in review.waiting:
            review.waiting = [*review.waiting, user.pk]
            review.save(update_fields=["waiting"])
        due = created or review.status == Review.Status.FAILED or (
            review.status == Review.Status.PENDING
            and (review.enqueued_at is None or now - review.enqueued_at > RETRY_AFTER))
        if due and not created:
            review.status, review.problem, review.enqueued_at = Review.Status.PENDING, "", now
            review.save(update_fields=["status", "problem", "enqueued_at"])
        if due:
            transaction.on_commit(lambda: _enqueue(game.pk, now))
    return review, due


def reviews_sweep(now: datetime | None = None) -> int:
    """Enqueue again each review still pending ``RETRY_AFTER`` after its task was
    enqueued (the broker lost it, or the worker running it died for good); the
    number enqueued. Each is claimed by moving its ``enqueued_at`` to now under
    the condition that found it, so two sweeps at once enqueue it once, and the
    task enqueued before (if it was only late) finds itself superseded."""
    now = now or timezone.now()
    cutoff = now - RETRY_AFTER
    lost = Review.objects.filter(
        Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=cutoff), status=Review.Status.PENDING)
    swept = 0
    for pk, game_id in lost.values_list("pk", "game_id"):
        with transaction.atomic():
            claimed = Review.objects.filter(
                Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=cutoff), pk=pk,
                status=Review.Status.PENDING).update(enqueued_at=now)
            if claimed:
                transaction.on_commit(functools.partial(_enqueue, game_id, now))
                swept += 1
    return swept


def _enqueue(game_id: int, enqueued_at: datetime) -> None:
    enqueue(jobs.review_make, game_id, enqueued_at.isoformat(), background=True)


def budget() -> Budget:
    """The review's budget from the settings: 0 takes the game's own."""
    return Budget(playouts=settings.MARRAM_REVIEW_PLAYOUTS or None,
                  samples=settings.MARRAM_REVIEW_SAMPLES or None)


def review_make(game_id: int, enqueued_at: str | None = None) -> bool:
    """Make the game's pending review; False when there is none to make (made
    already, or never asked for), or when ``enqueued_at`` (the time its task was
    enqueued, ISO 8601) is not the review's: a later enqueue (the sweep's, a
    player's request again) superseded this task, and that one makes it."""
    review = Review.objects.filter(game_id=game_id, status=Review.Status.PENDING).first()
    if review is None:
        return False
    if enqueued_at is not None and datetime.fromisoformat(enqueued_at) != review.enqueued_at:
        return False
    game = Game.objects.get(pk=game_id)
    rules = rules_of(game)
    rows = list(Event.objects.filter(game=game).order_by("seq")
                .values_list("seq", "payload", "actor_id"))
    seated = {s.user_id for s in game.seats.all() if s.user_id is not None}
    people = seated - bot_user_ids(seated)
    theirs = {seq for seq, _, actor in rows if actor in people}
    spend = budget()
    started = time.process_time()
    try:
        start = rules.start(game.started_config())
        events = [rules.read_event(payload) for _, payload, _ in rows]
        moves = review_game(rules, start, events, lambda i, e: i in theirs, game.seed, spend)
    except (IllegalAction, RecordError, ValueError) as e:
        logger.exception("review of game %s failed", game_id)
        Review.objects.filter(pk=review.pk, status=Review.Status.PENDING).update(
            status=Review.Status.FAILED, problem=str(e)[:500], finished_at=timezone.now())
        return False
    names = game.config_players()
    entries = entries_of(rules, moves, names)
    with transaction.atomic():
        locked = Review.objects.select_for_update().filter(
            pk=review.pk, status=Review.Status.PENDING).first()
        if locked is None:  # made by another run meanwhile
            return False
        locked.status = Review.Status.READY
        locked.moves = list(entries)
        locked.measure = rules.review.measure
        locked.playouts = spend.playouts or rules.search.playouts
        locked.samples = spend.samples or rules.review.samples
        locked.cpu_seconds = round(time.process_time() - started, 3)
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "moves", "measure", "playouts", "samples",
                                   "cpu_seconds", "finished_at"])
        _mail_ready(game, locked.waiting)
    return True


def _mail_ready(game: Game, user_ids: list[int]) -> None:
    """Tell each player who asked that the review is ready, by mail (under their
    mail settings: none for a player who takes no mail or a daily digest)."""
    rows = []
    replay = site_url(reverse("pages:replay", args=[game.pk]))
    for seat in game.seats.select_related("user").filter(user_id__in=user_ids):
        user = seat.user
        if user is None or mail_settings_get(user).policy in (Policy.OFF, Policy.DIGEST):
            continue
        context = {**emails.links(user_id=user.pk, game=game), "user": user,
                   "replay_url": replay}
        rows.append(Notification(
            user=user, game=game, seat=seat.index, kind=KIND,
            dedup_key=f"review:{game.pk}:{user.pk}",
            subject=emails.subject_for(game, "the review of the moves is ready"),
            body_text=render_to_string("reviews/email/ready.txt", context).strip() + "\n",
            body_html=render_to_string("reviews/email/ready.html", context)))
    if rows:
        notifications_queue(rows, may_exist=True)  # a task run twice mails once


def entries_of(rules: AnyGame, moves: list[MoveReview[Any]],
               names: list[str]) -> list[MoveEntry]:
    costly = marked(moves)
    return [MoveEntry(
        seq=m.index, seat=m.seat, player=names[m.seat] if m.seat < len(names) else "",
        played=rules.describe_event(m.played, names),
        best=rules.describe_event(m.best, names),
        suggested=rules.describe_event(m.suggested, names),
        played_action=dict(m.played), best_action=dict(m.best),
        value_played=round(m.value_played, 2), value_best=round(m.value_best, 2),
        cost=round(m.cost, 2), choices=m.choices, marked=m.index in costly)
        for m in moves]
