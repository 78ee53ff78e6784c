"""The rules of Make-a-snake: pure Python, no I/O, no Django
(shared/spec/make-a-snake.md).

Each player grows a snake from its head with tiles taken as a die allows; the
shortest distance from tongue tip to tail tip wins. The lollipop hunt plays one
snake together. ``GAME`` is the game as the platform sees it
(``engine.protocol.Game``; see ``adapter``).

Modules: ``pieces`` (the tiles as data), ``exact`` and ``geometry`` (exact
points, distances between parts), ``snake`` (a snake as it lies, overlaps),
``advanced`` (the advanced rules), ``events``, ``state``, ``record`` (config),
``rules`` (the fold), ``scoring``, ``view``, ``notation``, ``adapter``.
"""
from .adapter import GAME, MakeASnake

__all__ = ["GAME", "MakeASnake"]
