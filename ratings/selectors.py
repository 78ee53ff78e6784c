"""Reads of the ratings app: leaderboards, profiles, a game's rating changes, the
people a player has played, rematch offers."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import QuerySet

from engine import registry
from games.models import Game, Seat
from ratings.models import RatedGame, Rating, RatingChange, Rematch
from web.errors import NotFound

LEADERBOARD_SIZE = 100


def pool_title(pool: str) -> str:
    try:
        return registry.get(pool).title
    except registry.UnknownGame:
        return pool


def pool_get(pool: str) -> str:
    """A pool's key, if the game is one the site serves or has rated games of."""
    if pool in {g.key for g in registry.games()} or RatedGame.objects.filter(pool=pool).exists():
        return pool
    raise NotFound(f"there is no game {pool[:40]!r} here", code="unknown_game")


def user_get(username: str) -> User:
    user = get_user_model().objects.filter(username=username[:150]).first()
    if user is None:
        raise NotFound(f"there is no player {username[:40]!r}", code="unknown_user")
    return user


def leaderboard(pool: str, limit: int = LEADERBOARD_SIZE) -> list[Rating]:
    """The pool's ratings, best first (by the ordinal mu - 3 sigma)."""
    rows = list(Rating.objects.filter(pool=pool).select_related("user"))
    rows.sort(key=lambda r: (-r.ordinal, r.user.get_username()))
    return rows[:limit]


@dataclass
class PoolHistory:
    pool: str
    title: str
    rating: Rating
    rank: int
    points: list[tuple[datetime, float]] = field(default_factory=list)
    """(when, the rating after that game), oldest first, from the start value."""


def rating_histories(user: User) -> list[PoolHistory]:
    """The player's rating in each pool, its place on the leaderboard and its
    history, most games first."""
    out = []
    for rating in Rating.objects.filter(user=user).order_by("-games", "pool"):
        above = sum(1 for r in Rating.objects.filter(pool=rating.pool).only("mu", "sigma")
                    if r.ordinal > rating.ordinal)
        changes = list(RatingChange.objects.filter(user=user, pool=rating.pool)
                       .order_by("at", "id"))
        points = [(changes[0].at, changes[0].before)] if changes else []
        points += [(c.at, c.after) for c in changes]
        out.append(PoolHistory(rating.pool, pool_title(rating.pool), rating, above + 1, points))
    return out


class RecordCounts(TypedDict):
    played: int
    won: int
    current: int


def game_record_counts(user: User) -> RecordCounts:
    """Finished games played and won (a shared co-operative win counts as won)."""
    seats = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED,
                                index__isnull=False).select_related("game")
    played = won = 0
    for seat in seats.only("index", "game__projection"):
        played += 1
        won += seat.index in ((seat.game.projection or {}).get("winners") or [])
    current = Seat.objects.filter(user=user, game__status=Game.Status.RUNNING).count()
    return {"played": played, "won": won, "current": current}


def player_games(user: User, status: str, limit: int = 50) -> QuerySet[Game]:
    return (Game.objects.filter(seats__user=user, status=status)
            .order_by("-finished_at" if status == Game.Status.FINISHED else "-started_at", "-id")
            .prefetch_related("seats")[:limit])


def game_rating_changes(game: Game) -> list[RatingChange]:
    """Each player's rating change in the game, in seat order; [] if it was not rated
    (or not yet)."""
    return list(RatingChange.objects.filter(rated_game__game=game).select_related("user")
                .order_by("seat"))


def rated_game_of(game: Game) -> RatedGame | None:
    return RatedGame.objects.filter(game=game).first()


class PlayedWith(TypedDict):
    username: str
    games: int


def people_played(user: User) -> list[PlayedWith]:
    """The people the player has shared a started game with, most games first."""
    games = Seat.objects.filter(user=user, index__isnull=False).values("game_id")
    counts: dict[int, int] = {}
    names: dict[int, str] = {}
    for seat in (Seat.objects.filter(game_id__in=games, user__isnull=False)
                 .exclude(user=user).select_related("user")):
        other = seat.user
        if other is None:  # never: the query asks for seats with a user
            continue
        counts[other.pk] = counts.get(other.pk, 0) + 1
        names[other.pk] = other.get_username()
    played = [PlayedWith(username=names[u], games=n) for u, n in counts.items()]
    return sorted(played, key=lambda p: (-p["games"], p["username"]))


def rematch_of(game: Game | int) -> Rematch | None:
    return (Rematch.objects.filter(game=game).select_related("offered_by", "new_game")
            .prefetch_related("answers__user").first())
