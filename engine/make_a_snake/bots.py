"""What Make-a-snake's computer players need beyond the rules: the stacks'
orders a seat cannot see redrawn (``determinize``) and a snake's worth
(``evaluate``): in the competitive game, how far its tongue would lie from its
tail if the tail were laid now; in the lollipop hunt, the lollipops touched and
how near the open end lies to the next one. ``engine.bots`` plays them through
the protocol."""
from __future__ import annotations

import math
import random

from .events import Connect, SnakeEvent, Take
from .geometry import to_float
from .pieces import COLOURS, Colour, Side
from .rules import connect_choice, takeable
from .scoring import LOLLIPOPS
from .scoring import touched as touched_by
from .snake import TONGUE, Snake, lay_tail
from .state import State

DECIDED = 1000.0
"""What a decided game is worth (in centimetres), far beyond any distance."""
TOUCH_VALUE = 30.0
"""A lollipop touched in the hunt, against centimetres still to go to the next."""


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` with the tiles left in each stack in a new order drawn
    by ``rng``. Which tiles are left is public (every tile taken lies in a snake),
    their order is the game's only secret; they are sorted before the shuffle so
    that nothing of the true order reaches the result."""
    out = state.copy()
    stacks: dict[Colour, tuple[str, ...]] = {}
    for colour in COLOURS:
        dealt = state.stacks[colour]
        taken = state.drawn[colour]
        left = sorted(dealt[taken:])
        rng.shuffle(left)
        stacks[colour] = dealt[:taken] + tuple(left)
    out.stacks = stacks
    return out


def tail_distance(snake: Snake) -> float:
    """The tongue-to-tail distance if the game ended now: the tail laid at the
    open end, measured in floating point (the exact measure is the result's)."""
    tail = lay_tail(*snake.open_end())
    x, y = to_float(tail.end)
    tx, ty = to_float(TONGUE)
    return math.hypot(x - tx, y - ty)


def laid_with(state: State, side: Side) -> Snake:
    """The current seat's snake with the taken tile connected ``side`` up (and
    the tiles the advanced rules turn over first turned)."""
    snake = state.snake_of(state.current).copy()
    turn = connect_choice(state).turn
    if turn:
        snake.tiles = snake.turned(turn)
    assert state.taken is not None
    snake.tiles.append(snake.with_tile(state.taken, side))
    return snake


def hunt_value(snake: Snake) -> float:
    """The lollipop hunt: each lollipop the snake touches, less the distance
    from its open end to the nearest one still untouched."""
    touched = touched_by(snake)
    left = [c for i, c in enumerate(LOLLIPOPS) if i not in touched]
    if not left:
        return TOUCH_VALUE * len(LOLLIPOPS)
    x, y = to_float(snake.open_end()[0])
    nearest = min(math.hypot(x - cx, y - cy) for cx, cy in (to_float(c) for c in left))
    return TOUCH_VALUE * len(touched) - nearest


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` is for ``seat``, in centimetres: the best other snake's
    distance less the seat's own (the competitive game), or the hunt's progress;
    plus or minus ``DECIDED`` once the game is won or lost."""
    if state.lollipop:
        if state.phase == "connect":
            value = max(hunt_value(laid_with(state, side))
                        for side in connect_choice(state).sides)
        else:
            value = hunt_value(state.snakes[0])
        if state.finished:
            value += DECIDED if state.winners else -DECIDED
        return value
    if state.finished:
        mine = state.distances[seat]
        others = [d for s, d in enumerate(state.distances) if s != seat and d is not None]
        margin = (min(others) - mine) / 100 if mine is not None and others else 0.0
        return margin + (DECIDED if seat in state.winners else -DECIDED)
    distances = {s: tail_distance(state.snakes[s]) for s in state.active()}
    if state.phase == "connect" and state.current in distances:
        # the tile taken lies in the mover's hand: judge it where it fits best
        distances[state.current] = min(tail_distance(laid_with(state, side))
                                       for side in connect_choice(state).sides)
    if seat not in distances:
        return -DECIDED
    rivals = [d for s, d in distances.items() if s != seat]
    return (min(rivals) if rivals else 0.0) - distances[seat]


def greedy_action(state: State, seat: int, rng: random.Random) -> SnakeEvent:
    """The playouts' policy: any stack the die allows, then the side that brings
    the tail nearest (the lollipop hunt: nearest the next lollipop)."""
    if state.phase == "take":
        return Take(type="take", player=seat, colour=rng.choice(takeable(state)))
    choice = connect_choice(state)
    if len(choice.sides) == 1:
        side = choice.sides[0]
    elif state.lollipop:
        side = max(choice.sides, key=lambda s: hunt_value(laid_with(state, s)))
    else:
        side = min(choice.sides, key=lambda s: tail_distance(laid_with(state, s)))
    return Connect(type="connect", player=seat, side=side, turn=choice.turn)
