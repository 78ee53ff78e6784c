"""Writing and reading private notes. A note is plain text, at most MAX_LENGTH
characters; an empty one is no note."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from games.models import Game
from notes.models import MAX_LENGTH, Note
from web.errors import Invalid, NotFound


def _game_check(game_id: int) -> None:
    if not Game.objects.filter(pk=game_id).exists():
        raise NotFound(f"there is no game {game_id}", code="no_such_game")


def note_get(*, game_id: int, user: User) -> Note | None:
    """The user's own note on the game (nobody else's: there is no way to ask)."""
    _game_check(game_id)
    return Note.objects.filter(game_id=game_id, user=user).first()


def note_save(*, game_id: int, user: User, text: object) -> Note | None:
    """Keep the user's note on the game (None once it is emptied)."""
    if not isinstance(text, str):
        raise Invalid("a note is text", field="text")
    if len(text) > MAX_LENGTH:
        raise Invalid(f"a note is at most {MAX_LENGTH} characters; this one has {len(text)}",
                      code="too_long", field="text")
    if "\x00" in text:
        raise Invalid("a note cannot hold a NUL character", field="text")
    text = text.replace("\r\n", "\n").strip()
    _game_check(game_id)
    with transaction.atomic():
        if not text:
            Note.objects.filter(game_id=game_id, user=user).delete()
            return None
        note, _ = Note.objects.update_or_create(game_id=game_id, user=user,
                                                defaults={"text": text})
    return note
