from __future__ import annotations

from typing import Any

from django import template

from chat.models import MAX_LENGTH, Message, Mute
from games.models import Game

register = template.Library()


@register.inclusion_tag("chat/panel.html", takes_context=True)
def chat_panel(context: dict[str, Any], game: Game) -> dict[str, Any]:
    """The game's chat beside the board, for its players."""
    user = context["user"]
    if not user.is_authenticated or not any(s.user_id == user.pk for s in game.seat_list()):
        return {"shown": False}
    latest = list(Message.objects.filter(game=game).select_related("user")
                  .order_by("-created_at", "-id")[:100])[::-1]
    return {"shown": True, "game": game, "messages": latest, "max_length": MAX_LENGTH,
            "muted": Mute.objects.filter(game=game, user=user).exists(),
            "csrf_token": context.get("csrf_token"), "user": user}
