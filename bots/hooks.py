"""The games app's one call into the bots app, where a commit's after-steps are:
it imports nothing of the games app's services, so that they may import it."""

from __future__ import annotations

from django.db import transaction

from games.models import Game, Seat


def bots_after_commit(game: Game) -> None:
    """After a commit that leaves the game awaiting seats (no chance pending), have a
    task move the bots among them. Called by games.services under the game's lock;
    the seats are looked up once the transaction has committed."""
    if game.status != Game.Status.RUNNING:
        return
    projection = game.projection or {}
    awaited = list(projection.get("to_act") or [])
    if not awaited or (projection.get("awaiting") or {}).get("kind") == "chance":
        return
    game_id, seq = game.pk, game.seq
    transaction.on_commit(lambda: _enqueue_if_awaited(game_id, seq, awaited))


def _enqueue_if_awaited(game_id: int, seq: int, awaited: list[int]) -> None:
    from bots import tasks
    from games.tasks import enqueue

    if Seat.objects.filter(game_id=game_id, index__in=awaited,
                           user__bot__isnull=False).exists():
        enqueue(tasks.bot_move, game_id, seq)
