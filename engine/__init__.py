"""The rules of the games this service plays: pure Python, no I/O, no Django.

Each game is a package (``engine.marram``, ...) implementing the protocol of
``engine.protocol``; this package holds what every game shares: the protocol,
the registry of games, the errors, fair chance from a committed seed
(``fairness``), generic replay and the command line (``python -m engine``).

    from engine import registry, replay
    game, result = replay.replay(record)      # any game's record, chosen by its format
    game.awaiting(result.state)               # who or what the game waits for

``docs/adding-a-game.md`` explains how to add a game.
"""
from .errors import BadOptions, IllegalAction, NotationError, RecordError
from .protocol import (
    AnyGame,
    Awaiting,
    Chance,
    Choice,
    Game,
    Option,
    Projection,
    Standing,
    Task,
    TurnMail,
    read_options,
    standings,
)

__all__ = [
    "AnyGame", "Awaiting", "BadOptions", "Chance", "Choice", "Game", "IllegalAction",
    "NotationError", "Option", "Projection", "RecordError", "Standing", "Task", "TurnMail",
    "read_options", "standings",
]
