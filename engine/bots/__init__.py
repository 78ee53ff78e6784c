"""Computer players for every game, written once against the Game protocol
(``engine.protocol``): levels ``easy`` (the better of two random actions),
``medium`` (the best value one ply ahead, or after the reply where the game
asks) and ``strong`` (information-set Monte Carlo tree search).

A bot sees only its seat's view: every level works on ``Game.determinize`` of
the state, never on the state itself, so a secret (the deck order, another
seat's hidden choice, the seed) cannot reach its choice. ``choose`` is the one
entry point; ``arena`` plays levels against each other."""
from .policies import LEVELS, BotMove, choose

__all__ = ["LEVELS", "BotMove", "choose"]
