"""What the game page shows of ratings and rematches once a game is over: each
player's rating change beside the final standings, and the rematch offer."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from ratings import selectors

register = template.Library()


@register.filter
def rating(value: float) -> int:
    """A rating as the pages show it: the cautious estimate mu - 3 sigma, to the
    whole number (a new player's is 0)."""
    return round(value)


@register.filter
def rating_change(change: Any) -> str:
    """A game's change of a player's rating as the pages show it: the difference
    of the whole numbers shown before and after ("+2", "-1", "0")."""
    delta = round(change.after) - round(change.before)
    return f"+{delta}" if delta > 0 else str(delta)


@register.filter
def rating_details(skill: Any) -> str:
    """The numbers behind a rating, for the hover text: the skill estimate and its
    uncertainty (a Rating's mu and sigma)."""
    return (f"Skill estimated at {skill.mu:.1f}, give or take {skill.sigma:.1f}; "
            f"the rating is the estimate less three times that: {skill.ordinal:.1f}")


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
    seats = list(game.seat_list())
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
    seated = {s.user_id for s in game.seat_list()}
    choice = getattr(game, "rated_choice", None)
    return {"game": game, "csrf_token": context.get("csrf_token"),
            "played": [p for p in selectors.people_played(user)
                       if p["username"] != user.get_username()][:50],
            "seated": seated, "creator": game.created_by_id == user.pk,
            "rated": bool(choice and choice.rated)}
