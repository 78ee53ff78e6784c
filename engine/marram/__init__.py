"""The rules of Marram: pure Python, no I/O, no Django.

    from engine.marram import make_config, new_game, apply, legal_actions
    state = new_game(make_config("classic", "long", ["ann", "bob"]))
    state = apply(state, legal_actions(state)[0])

Commands are checked by ``apply`` (IllegalAction with a stable ``code``);
events fold over the start to rebuild any state (``replay``). ``GAME`` is
Marram as the platform sees it (``engine.protocol.Game``; see ``adapter``).
"""
from ..errors import IllegalAction, RecordError
from ..replay import Replay
from .actions import claim_options, flips, legal_actions, placements
from .adapter import GAME, Marram
from .catalogue import Catalogue, parse_catalogue, standard
from .game import (
    EVENT_TYPES,
    apply,
    awaiting,
    chance_event,
    chance_odds,
    make_config,
    new_game,
    step,
)
from .record import Record, config_from_json, config_to_json, parse_record
from .replays import replay
from .rules import RULES_VERSION, rules_for
from .state import GameConfig, GameState
from .view import player_view, summary

__all__ = [
    "EVENT_TYPES", "GAME", "RULES_VERSION", "Catalogue", "GameConfig", "GameState",
    "IllegalAction", "Marram", "Record", "RecordError", "Replay", "apply", "awaiting",
    "chance_event", "chance_odds", "claim_options", "config_from_json", "config_to_json",
    "flips", "legal_actions", "make_config", "new_game", "parse_catalogue", "parse_record",
    "placements", "player_view", "replay", "rules_for", "standard", "step", "summary",
]
