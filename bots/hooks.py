"""The bots app's side of games.seating: ``BotPlayers``, which the setting
MARRAM_SEAT_PLAYERS names, so that the games app calls into this one without
importing it (the moves of the awaited bots after a change: bots.after_move);
when a seat runs out of time a second time (``seat_takeover``) a bot may take it;
a bot's clock never runs out and it is mailed nothing; the lobby and the home
page offer bots (bots.forms)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.db.models import Model

from bots import services
from bots.accounts import bot_not_among
from bots.forms import PlayComputerForm, bot_fields
from bots.models import Bot, GameBots, Takeover
from bots.selectors import bot_user_ids
from games.models import Clock, Game, Seat
from live import stream
from web.errors import ServiceError

# ---------------------------------------------------------------- takeover


def takeover_bot(game: Game, seat: int) -> Bot | None:
    """The bot that takes the seat of a player out of time twice, if the game has the
    option: an account of the chosen level that no seat of the game holds (the
    level's second when its first sits there already); None without the option."""
    option = GameBots.objects.filter(game=game).exclude(takeover="").first()
    if option is None:
        return None
    seated = Seat.objects.filter(game=game).values_list("user_id", flat=True)
    return bot_not_among(option.takeover, seated)


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
    # the replaced player's stream of the seat ends, and its token is refused
    stream.seat_changed(game, seat, bot.user_id)
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


# ---------------------------------------------------------------- games.seating


class BotPlayers:
    """games.seating.SeatPlayers for computer players."""

    def seat_out_of_time(self, *, game: Game, seat: int, clock: Clock) -> bool:
        return seat_takeover(game=game, seat=seat, clock=clock)

    def clockless(self, user_ids: Iterable[int | None]) -> set[int]:
        return bot_user_ids(user_ids)

    def computers(self, user_ids: Iterable[int | None]) -> set[int]:
        return bot_user_ids(user_ids)

    def computer_accounts(self) -> tuple[type[Model], str] | None:
        return Bot, "user"

    def create_fields(self) -> dict[str, forms.Field]:
        return bot_fields()

    def game_create(self, *, extra: Mapping[str, Any], **create: Any) -> Game:
        return services.game_create(bots=extra.get("bots", ()),
                                    takeover=extra.get("takeover"),
                                    rated=bool(extra.get("rated")), **create)

    def home_context(self) -> dict[str, Any]:
        return {"seat_players_panel": "bots/play_computer.html",
                "computer_form": PlayComputerForm()}
