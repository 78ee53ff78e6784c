from __future__ import annotations

from typing import Any

from django import template

from games.models import Game
from notes.models import MAX_LENGTH, Note

register = template.Library()


@register.inclusion_tag("notes/note.html", takes_context=True)
def private_note(context: dict[str, Any], game: Game) -> dict[str, Any]:
    """The signed-in user's own note on the game, and the form to change it."""
    user = context["user"]
    note = Note.objects.filter(game=game, user=user).first() if user.is_authenticated else None
    return {"game": game, "note": note, "max_length": MAX_LENGTH,
            "csrf_token": context.get("csrf_token"), "shown": user.is_authenticated}
