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
