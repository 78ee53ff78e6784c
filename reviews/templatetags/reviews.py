from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from games.selectors import seat_index_of
from reviews.models import Review
from reviews.selectors import marked_moves, review_shown

register = template.Library()


@register.inclusion_tag("reviews/panel.html", takes_context=True)
def review_panel(context: dict[str, Any], game: Game) -> dict[str, Any]:
    """The replay page's review of a finished game: nothing while it is played;
    the review if one was asked for (for anyone who may replay the game), and
    for its players the button that asks for it."""
    if game.status != Game.Status.FINISHED:
        return {"shown": False}
    user = context["user"]
    review = Review.objects.filter(game=game).first()
    shown = review_shown(game, review) if review is not None else None
    return {"shown": True, "game": game, "review": shown,
            "marked": marked_moves(shown) if shown else [],
            "player": user.is_authenticated and seat_index_of(game, user) is not None,
            "csrf_token": context.get("csrf_token")}
