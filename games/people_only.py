"""A site whose seats are for people only (games.seating.SeatPlayers): for a site
without computer players, or a test of the games app on its own. A request for
a computer player is refused."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.db.models import Model

from games.models import Game
from games.services import lobby
from web.errors import Invalid


class NoSeatPlayers:
    """Seats for people only: for a site without computer players, or a test of the
    games app on its own. A request for a computer player is refused."""

    def seat_out_of_time(self, **_: Any) -> bool:
        return False

    def clockless(self, user_ids: Iterable[int | None]) -> set[int]:
        return set()

    def computers(self, user_ids: Iterable[int | None]) -> set[int]:
        return set()

    def computer_accounts(self) -> tuple[type[Model], str] | None:
        return None

    def create_fields(self) -> dict[str, forms.Field]:
        return {}

    def game_create(self, *, extra: Mapping[str, Any], **create: Any) -> Game:
        asked = [name for name, value in extra.items() if value]
        if asked:
            raise Invalid(f"this site has no computer players: leave out {asked[0]!r}",
                          code="no_computer_players", field=asked[0])
        return lobby.game_create(**create)

    def home_context(self) -> dict[str, Any]:
        return {}
