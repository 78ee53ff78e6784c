"""Reads of the bots app: which accounts are computer players and which seats of a
game they hold."""

from __future__ import annotations

from collections.abc import Iterable

from bots.models import Bot
from games.models import Game, Seat


def bot_user_ids(user_ids: Iterable[int | None]) -> set[int]:
    """Those of these accounts that are computer players (one query, none for no ids)."""
    wanted = {pk for pk in user_ids if pk is not None}
    if not wanted:
        return set()
    return set(Bot.objects.filter(user_id__in=wanted).values_list("user_id", flat=True))


def bot_seats(game: Game | int, seats: Iterable[int] | None = None) -> dict[int, Bot]:
    """The game's seats held by computer players (of ``seats`` if given), by index."""
    rows = Seat.objects.filter(game=game, index__isnull=False, user__bot__isnull=False)
    if seats is not None:
        rows = rows.filter(index__in=list(seats))
    held: dict[int, Bot] = {}
    for s in rows.select_related("user__bot"):
        if s.index is not None and s.user is not None:  # always: the query asks for both
            held[s.index] = s.user.bot
    return held


def bot_moves_due() -> list[tuple[int, int]]:
    """The (game, seq) of every running game whose awaited seats include a
    bot's, no chance pending: the moves a lost task would have made."""
    rows = (Seat.objects.filter(game__status=Game.Status.RUNNING, user__bot__isnull=False,
                                index__isnull=False)
            .exclude(game__projection__awaiting__kind="chance")
            .values_list("game_id", "game__seq", "game__projection", "index"))
    return sorted({(game_id, seq) for game_id, seq, projection, index in rows
                   if index in ((projection or {}).get("to_act") or [])})
