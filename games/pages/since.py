"""What happened since a player's last move, read once for every game by one
rule (games.game_ui.Since says which), for the game's UI to tell in its own
words (``GameUI.since_last_move``)."""

from __future__ import annotations

from typing import Any

from engine.protocol import AnyGame
from games.game_ui import Since, Told
from games.models import Event, Game
from games.selectors import game_replay

SINCE_SHOWN = 40
"""The most events the "since your last move" list shows (the latest ones)."""

LEAVING = "resign"
"""The event by which a player leaves a game (the spec's): not a move to count from."""


def _own(told: Told, seat: int) -> bool:
    """A move the seat's player made themselves (not one the server made for them)."""
    return not told.by_server and told.type != LEAVING and told.payload.get("player") == seat


def since_last_move(game: Game, rules: AnyGame, state: Any, reader: int | None, *,
                    before: bool = False) -> Since:
    """The events since ``reader``'s last move (a spectator's: the awaited
    seat's), the latest SINCE_SHOWN at most: one query for the latest
    SINCE_SHOWN + 1 events, and with ``before`` a replay to the state before
    them."""
    rows = list(Event.objects.filter(game_id=game.pk, seq__lt=game.seq).order_by("-seq")
                .values_list("seq", "type", "payload", "actor_id")[:SINCE_SHOWN + 1])
    told = [Told(seq, kind, payload, actor is None) for seq, kind, payload, actor in reversed(rows)]
    wait = rules.awaiting(state)
    if wait.finished:  # every reader sees how it ended
        seat = None
    else:
        seat = reader if reader is not None else (wait.players[0] if wait.players else None)
    if seat is None:  # nobody to wait for: since the last move of anyone but the latest mover
        movers = [t.payload.get("player") for t in told if not t.by_server]
        latest = movers[-1] if movers else None
        start = next((i + 1 for i in range(len(told) - 1, -1, -1)
                      if not told[i].by_server and told[i].payload.get("player") != latest), 0)
    else:
        start = next((i + 1 for i in range(len(told) - 1, -1, -1) if _own(told[i], seat)), 0)
    own = told[start - 1] if start > 0 and seat is not None else None
    shown = told[start:]
    more = start == 0 and len(told) > SINCE_SHOWN  # more happened than the list shows
    if more:
        shown = told[-SINCE_SHOWN:]
    first = own or (shown[0] if shown else None)
    at = None
    if before:
        at = game_replay(game, stop=first.seq).state if first is not None else state
    return Since(seat, reader, tuple(shown), more, own, at)
