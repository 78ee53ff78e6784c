"""The games app's calls into the bots app, each by name where it belongs: after
a commit (``bots_after_commit``) and when a seat runs out of time a second time
(``seat_takeover``). Nothing here imports the games app's services, so that they
may import it."""

from __future__ import annotations

from django.db import transaction

from bots.accounts import bot_account
from bots.models import Bot, GameBots, Level, Takeover
from bots.selectors import bot_seats
from games.errors import ServiceError
from games.models import Clock, Game, Seat


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


# ---------------------------------------------------------------- takeover


def takeover_bot(game: Game, seat: int) -> Bot | None:
    """The bot that takes the seat of a player out of time twice, if the game has the
    option: the chosen level, or when a bot of that level sits in the game already
    (one account a level), the nearest level free; None if there is none."""
    option = GameBots.objects.filter(game=game).exclude(takeover="").first()
    if option is None:
        return None
    seated = {b.level for b in bot_seats(game).values()}
    chosen = Level.values.index(option.takeover)
    order = sorted(range(len(Level.values)), key=lambda i: (abs(i - chosen), -i))
    for i in order:
        level = Level.values[i]
        if level not in seated:
            bot_account(level)
            return Bot.objects.select_related("user").get(level=level)
    return None


def seat_take_over(*, game: Game, seat: int, bot: Bot) -> Takeover:
    """Give the seat to the bot (the caller holds the game row locked, in the
    transaction that appends the seat's timeout): its moves from now on are the
    bot's, and the seat's name says so."""
    row = Seat.objects.select_for_update().get(game=game, index=seat)
    if hasattr(row.user, "bot"):
        raise ServiceError("the seat is a computer's already")
    person = row.user
    row.user = bot.user
    row.name = f"{row.name} ({bot.label})"[:150]
    row.save(update_fields=["user", "name"])
    return Takeover.objects.create(game=game, seat=seat, player=person, bot=bot, seq=game.seq)


def seat_takeover(*, game: Game, seat: int, clock: Clock) -> bool:
    """A seat has run out of time a second time in a row (games.services.clock_expire,
    under the game's lock): with the game's takeover option a bot takes the seat,
    and its clock (no bank: it never runs out; no mail); True if so, and the seat
    is not to be resigned."""
    bot = takeover_bot(game, seat)
    if bot is None:
        return False
    seat_take_over(game=game, seat=seat, bot=bot)
    clock.user_id, clock.bank, clock.timeouts_in_row = bot.user_id, None, 0
    clock.save(update_fields=["user", "bank", "timeouts_in_row"])
    return True
