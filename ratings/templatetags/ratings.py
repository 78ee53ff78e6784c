"""What the game page shows of ratings and rematches once a game is over: each
player's rating change beside the final standings, and the rematch offer."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from ratings import selectors

register = template.Library()


@register.inclusion_tag("ratings/game_ratings.html")
def game_rating_changes(game: Game) -> dict[str, Any]:
    if game.status != Game.Status.FINISHED:
        return {"shown": False}
    record = selectors.rated_game_of(game)
    return {"shown": True, "game": game, "record": record,
            "changes": selectors.game_rating_changes(game) if record is not None else []}


@register.inclusion_tag("ratings/rematch.html", takes_context=True)
def rematch_panel(context: dict[str, Any], game: Game) -> dict[str, Any]:
    user = context["user"]
    seats = list(game.seats.all())
    seated = any(s.user_id == user.pk for s in seats)
    if game.status != Game.Status.FINISHED or not seated or any(s.user_id is None
                                                                 for s in seats):
        return {"shown": False}
    rematch = selectors.rematch_of(game)
    mine = None
    if rematch is not None:
        mine = next((a for a in rematch.answers.all() if a.user_id == user.pk), None)
    return {"shown": True, "game": game, "rematch": rematch, "mine": mine,
            "csrf_token": context.get("csrf_token"), "user": user}


@register.inclusion_tag("ratings/invite_users.html", takes_context=True)
def invite_by_username(context: dict[str, Any], game: Game) -> dict[str, Any]:
    """The open game's form to invite players by username, offering the people the
    player has played."""
    user = context["user"]
    seated = {s.user_id for s in game.seats.all()}
    choice = getattr(game, "rated_choice", None)
    return {"game": game, "csrf_token": context.get("csrf_token"),
            "played": [p for p in selectors.people_played(user)
                       if p["username"] != user.get_username()][:50],
            "seated": seated, "creator": game.created_by_id == user.pk,
            "rated": bool(choice and choice.rated)}
