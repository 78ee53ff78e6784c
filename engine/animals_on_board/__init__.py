"""The rules of Animals on Board (shared/spec/animals-on-board.md): pure
Python, no I/O, no Django. ``GAME`` is the game as the platform sees it
(``engine.protocol.Game``; see ``adapter``); the rules are the small modules
beside it: ``tiles``, ``events``, ``record``, ``state``, ``rules`` (the fold),
``rounds``, ``moves``, ``scoring``, ``view``, ``notation`` and ``bots``."""
from .adapter import GAME, AnimalsOnBoard
from .events import EVENT_TYPES, Event
from .record import FORMAT, VERSION, Config, config_from_json, config_to_json, deal
from .scoring import ArkScore, score_ark
from .state import State

__all__ = [
    "EVENT_TYPES", "FORMAT", "GAME", "VERSION", "AnimalsOnBoard", "ArkScore", "Config",
    "Event", "State", "config_from_json", "config_to_json", "deal", "score_ark",
]
