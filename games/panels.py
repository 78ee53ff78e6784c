"""What the game page shows beside the game's record, drawn by the server: its
links (the record to download once the game is over), the end's rating changes
and rematch, resigning, the fair-chance line and the chat.

A page draws them with the page, and reads them again
(``GET /games/{id}/panels.json``, games.pages.views.game_panels) when the game's
status changes under it (its end) and whenever the game's ``panels_seq`` passes
the one it drew. Whatever changes what they show without a move of the game (a
chat message, a rematch offered or answered, the ratings of a finished game)
calls ``panels_changed`` in its transaction; open pages hear of it where they
hear of moves: a poll's answer carries ``panels`` (games.api.GameEvents), and
the stream sends ``event: panels`` (live.stream.panels_published)."""

from __future__ import annotations

from django.db.models import F

from games.models import Game
from live import stream


def panels_changed(game_id: int) -> int:
    """Count a change to what the pages of the game show beside its record, in the
    caller's transaction (which then holds the game's row until it commits), and
    tell the stream servers once it commits; the game's new panels seq (0 if
    there is no such game)."""
    if not Game.objects.filter(pk=game_id).update(panels_seq=F("panels_seq") + 1):
        return 0
    seq, panels = Game.objects.filter(pk=game_id).values_list("seq", "panels_seq").get()
    stream.panels_published(game_id, seq, panels)
    return panels
