"""The one door from the games app to the players that are not people (computer
players): what the games app asks of whoever may sit in a seat besides a person.

The bots app builds on this one (its models point at games, its players move
through games.services); games never imports it (tests/service/
test_app_boundaries.py). Where a game's seats call for it, the games app calls,
by name, a method of ``SeatPlayers`` on the object that
``settings.MARRAM_SEAT_PLAYERS`` names (bots.hooks.BotPlayers), the way games.mail
does for the mail; ``NoSeatPlayers`` is a site with people only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import F, QuerySet
from django.utils.module_loading import import_string

from web.errors import Invalid

if TYPE_CHECKING:
    from django import forms

    from games.models import Clock, Game


class SeatPlayers(Protocol):
    def after_commit(self, *, game: Game, computer_seats: frozenset[int] | None) -> None:
        """A change to ``game`` has just been written (with no lock for a player's
        move: games.services): have whoever of its awaited seats is not a person
        act once it is committed (never before). ``computer_seats``: the seats
        computers hold, when the change's read of the game has them (a move's:
        games.store.MoveRead), else None."""

    def seat_out_of_time(self, *, game: Game, seat: int, clock: Clock) -> bool:
        """``seat`` of ``game`` (locked) has run out of time a second time in a row:
        True if someone else has taken the seat (and its ``clock``), which is then
        not to be resigned."""

    def clockless(self, user_ids: Iterable[int | None]) -> set[int]:
        """Those of these accounts whose clock never runs out and who are mailed
        nothing."""

    def computers(self, user_ids: Iterable[int | None]) -> set[int]:
        """Those of these accounts that are computers, not people: while it is
        their move the game page says they are thinking."""

    def computer_ids(self) -> QuerySet[Any]:
        """The accounts that are computers, as a query of one column, ``user_id``,
        for the games app's reads to ask in the same statement whether a seat or
        a clock is a computer's (games.store): ``Exists(computer_ids().filter(
        user_id=OuterRef("user_id")))``. The same accounts as ``computers`` and
        ``clockless``."""

    def create_fields(self) -> dict[str, forms.Field]:
        """The lobby's new-game form's fields beyond the games app's own."""

    def game_create(self, *, extra: Mapping[str, Any], **create: Any) -> Game:
        """games.services.game_create with the new-game request's ``extra`` fields
        (those of ``create_fields``, or the API's ``bots`` and ``takeover``), all
        of it in one transaction; a ServiceError if they do not fit."""

    def home_context(self) -> dict[str, Any]:
        """What the home page shows of them: ``seat_players_panel``, a template
        to include, and its context."""


class NoSeatPlayers:
    """Seats for people only: for a site without computer players, or a test of the
    games app on its own. A request for a computer player is refused."""

    def after_commit(self, **_: Any) -> None:
        pass

    def seat_out_of_time(self, **_: Any) -> bool:
        return False

    def clockless(self, user_ids: Iterable[int | None]) -> set[int]:
        return set()

    def computers(self, user_ids: Iterable[int | None]) -> set[int]:
        return set()

    def computer_ids(self) -> QuerySet[Any]:
        return get_user_model().objects.none().values(user_id=F("pk"))

    def create_fields(self) -> dict[str, forms.Field]:
        return {}

    def game_create(self, *, extra: Mapping[str, Any], **create: Any) -> Game:
        from games import services

        asked = [name for name, value in extra.items() if value]
        if asked:
            raise Invalid(f"this site has no computer players: leave out {asked[0]!r}",
                          code="no_computer_players", field=asked[0])
        return services.game_create(**create)

    def home_context(self) -> dict[str, Any]:
        return {}


def seat_players() -> SeatPlayers:
    """The SeatPlayers of this site: ``settings.MARRAM_SEAT_PLAYERS``, a class made
    with no arguments; NoSeatPlayers when the setting is absent."""
    name = getattr(settings, "MARRAM_SEAT_PLAYERS", "games.seating.NoSeatPlayers")
    players: SeatPlayers = import_string(name)()
    return players
