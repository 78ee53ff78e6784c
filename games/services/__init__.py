"""The games app's services, by what they change: a running game's moves
(games.services.moves), the lobby before the start (games.services.lobby), the
records and projections rebuilt or imported (games.services.records), all
written through games.services.append, which states the write path's contract.
Other apps call them from here."""

from games.services.append import ActionResult
from games.services.lobby import (
    game_create,
    game_invite,
    game_join,
    game_leave,
    game_start,
    game_start_seated,
    invitation_accept,
    invitation_refusal,
)
from games.services.moves import (
    action_submit,
    chance_resolve,
    clock_expire,
    game_resign,
    game_timeout,
    player_types,
)
from games.services.records import game_import, projection_rebuild

__all__ = [
    "ActionResult", "action_submit", "chance_resolve", "clock_expire", "game_create",
    "game_import", "game_invite", "game_join", "game_leave", "game_resign", "game_start",
    "game_start_seated",
    "game_timeout", "invitation_accept", "invitation_refusal", "player_types",
    "projection_rebuild",
]
