"""The rules of Pond (shared/spec/pond.md): pure Python, no I/O, no Django.

Two players place eggs and move tadpoles and frogs on a square pond; every
piece next to the one placed or moved develops (egg -> tadpole -> frog -> egg),
and three or more of a face in a row or column score for their colours' owners.

    from engine.pond import GAME
    state = GAME.start({"players": ["ann", "bob"], "options": "small"})
    state = GAME.fold(state, GAME.parse_action("egg 1,2", 0))

``GAME`` is Pond as the platform sees it (``engine.protocol.Game``; see
``adapter``); ``rules.step`` is the fold, ``actions`` what a player may do.
"""
from .adapter import GAME, PondGame
from .board import Board, Pos
from .events import EVENT_TYPES, Egg, Move, PondEvent, Resign, Timeout
from .pieces import DARK, LIGHT, PIECES, Face, Piece
from .ponds import NAMED, Pond
from .record import FORMAT, VERSION
from .rules import RULES_VERSION, step
from .state import GameState

__all__ = [
    "DARK", "EVENT_TYPES", "FORMAT", "GAME", "LIGHT", "NAMED", "PIECES", "RULES_VERSION",
    "VERSION", "Board", "Egg", "Face", "GameState", "Move", "Piece", "Pond", "PondEvent",
    "PondGame", "Pos", "Resign", "Timeout", "step",
]
