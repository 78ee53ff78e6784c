"""The results: each snake's distance from tongue tip to tail tip and the
winners (competitive), the lollipops touched (the lollipop hunt)."""
from __future__ import annotations

from fractions import Fraction

from .exact import round_root_hundredths
from .geometry import UNIT, Vec, point_closer, scale, to_float
from .snake import Snake, lay_tail
from .state import State

LOLLIPOP_DISTANCE = 15
LOLLIPOP_HEADINGS = (45, 135, 225, 315)
LOLLIPOPS: tuple[Vec, ...] = tuple(scale(LOLLIPOP_DISTANCE, UNIT[h]) for h in LOLLIPOP_HEADINGS)
"""The four lollipops' centres, 15 from the neck, in the order of their headings."""
LOLLIPOP_RADIUS = 2
TOUCH_LIMIT = Fraction(LOLLIPOP_RADIUS + 2) - Fraction(1, 1000)
"""A tile touches a lollipop when its centre line comes closer than 4 - 0.001 to
the lollipop's centre: the tile's half width and the lollipop's radius."""


_FLOAT_LOLLIPOPS = tuple(to_float(c) for c in LOLLIPOPS)


def touched(snake: Snake) -> tuple[int, ...]:
    """The lollipops a tile of the snake touches as it lies now (the head does not count)."""
    return tuple(i for i, (centre, fc) in enumerate(zip(LOLLIPOPS, _FLOAT_LOLLIPOPS,
                                                        strict=True))
                 if any(point_closer(centre, part, TOUCH_LIMIT, fc)
                        for tile in snake.tiles for part in tile.parts))


def distance_hundredths(snake: Snake) -> int | None:
    """The tongue-to-tail distance in hundredths of a centimetre, rounded exactly."""
    square = snake.distance_square()
    return None if square is None else round_root_hundredths(square)


def measure(state: State) -> None:
    """The end of a competitive game: every seat still in gets its tail, each
    distance is measured, and the shortest (to 0.01 cm) wins, ties shared."""
    for seat in state.active():
        snake = state.snakes[seat]
        snake.tail = lay_tail(*snake.open_end())
        state.distances[seat] = distance_hundredths(snake)
    measured = {s: d for s, d in enumerate(state.distances) if d is not None}
    best = min(measured.values(), default=None)
    state.winners = tuple(s for s, d in measured.items() if d == best)
