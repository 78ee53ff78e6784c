"""Reads of the reviews app: a review as the API and the replay page give it."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from games.models import Game
from games.selectors import rules_of
from reviews.models import Review
from reviews.services import MoveEntry


class SeatSummary(TypedDict):
    seat: int
    player: str
    moves: int
    cost: float
    """What the seat's reviewed moves cost in all."""


class ShownReview(TypedDict):
    game: int
    status: str
    measure: str
    unit: str
    requested_at: datetime
    finished_at: datetime | None
    playouts: int | None
    samples: int | None
    cpu_seconds: float | None
    seats: list[SeatSummary]
    moves: list[MoveEntry]


def unit_of(game: Game, measure: str) -> str:
    """What a cost counts, in words: the game's points (pieces, cm), or the
    chance of winning in percentage points."""
    if measure == "win":
        return "percentage points of the chance of winning"
    return rules_of(game).score_unit[1]


def review_shown(game: Game, review: Review) -> ShownReview:
    moves: list[MoveEntry] = list(review.moves) if review.status == Review.Status.READY else []
    seats: dict[int, SeatSummary] = {}
    for m in moves:
        s = seats.setdefault(m["seat"], SeatSummary(seat=m["seat"], player=m["player"],
                                                    moves=0, cost=0.0))
        s["moves"] += 1
        s["cost"] = round(s["cost"] + m["cost"], 2)
    return ShownReview(
        game=game.pk, status=review.status, measure=review.measure,
        unit=unit_of(game, review.measure) if review.measure else "",
        requested_at=review.requested_at, finished_at=review.finished_at,
        playouts=review.playouts, samples=review.samples, cpu_seconds=review.cpu_seconds,
        seats=[seats[k] for k in sorted(seats)], moves=moves)


def marked_moves(shown: ShownReview) -> list[Any]:
    return [m for m in shown["moves"] if m["marked"]]
