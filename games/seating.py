"""The one door from the games app to the players that are not people (computer
players): what the games app asks of whoever may sit in a seat besides a person.

The bots app builds on this one (its models point at games, its players move
through games.services); games never imports it (tests/service/
test_app_boundaries.py). Where a game's seats call for it, the games app calls,
by name, a method of ``SeatPlayers`` on the object that
``settings.MARRAM_SEAT_PLAYERS`` names (bots.hooks.BotPlayers), the way games.mail
does for the mail; games.people_only.NoSeatPlayers is a site with people only.
The moves computer players make after a change are a follower of it
(games.after_move: bots.after_move.ComputerMoves).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.db.models import Model
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from django import forms

    from games.models import Clock, Game


class SeatPlayers(Protocol):
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

    def computer_accounts(self) -> tuple[type[Model], str] | None:
        """Where the accounts that are computers are listed, for the games app's
        reads to ask in the same statement whether a seat or a clock is a
        computer's (games.store): a model with a row for each such account, and
        the name of its field that holds the account; None when no account is a
        computer. The same accounts as ``computers`` and ``clockless``."""

    def create_fields(self) -> dict[str, forms.Field]:
        """The lobby's new-game form's fields beyond the games app's own."""

    def game_create(self, *, extra: Mapping[str, Any], **create: Any) -> Game:
        """games.services.game_create with the new-game request's ``extra`` fields
        (those of ``create_fields``, or the API's ``bots`` and ``takeover``), all
        of it in one transaction; a ServiceError if they do not fit."""

    def home_context(self) -> dict[str, Any]:
        """What the home page shows of them: ``seat_players_panel``, a template
        to include, and its context."""


def seat_players() -> SeatPlayers:
    """The SeatPlayers of this site: ``settings.MARRAM_SEAT_PLAYERS``, a class made
    with no arguments; games.people_only.NoSeatPlayers when the setting is absent."""
    name = getattr(settings, "MARRAM_SEAT_PLAYERS", "games.people_only.NoSeatPlayers")
    players: SeatPlayers = import_string(name)()
    return players
