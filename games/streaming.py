"""What a player's stream is sent when a commit leaves their seat to move
(live.stream, which the settings point here: ``MARRAM_STREAM_SEAT_VIEW``): the
encoded answer of the GET their client would make, by the kind of client."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User

from games import api
from games.models import Game
from games.pages import views

MAKERS: dict[str, Callable[[Game, User], bytes]] = {
    "api": api.seat_view,  # GET /api/games/{id}/
    "page": views.seat_view,  # the page's state.json
}


def seat_view(game: Game, user: User, kind: str) -> bytes:
    """What ``user``, a seat's player, would GET of the game now in ``kind``'s
    form. Unlike their GET, it writes no visit: the note of their stream
    (live.stream's ``LISTENING``) tells the mail that they are looking at the
    game for as long as it is open (notifications, ``LOOKING_NOW``)."""
    return MAKERS[kind](game, user)
