"""The fly and the frog (Animals): where they appear, how they hop, and the
points for guessing their fate. The engine only gives the odds; a server draws
each outcome and records it as an event."""
from __future__ import annotations

from collections import deque
from fractions import Fraction

from .rules import EXACT_GUESS_BONUS, GUESS_POINTS
from .state import Creature, GameState, Placed
from .types import Pos

ORTHOGONAL = ((0, -1), (1, 0), (0, 1), (-1, 0))
KING = ORTHOGONAL + ((1, -1), (1, 1), (-1, 1), (-1, -1))
MOVES = {"fly": ORTHOGONAL, "frog": KING}
ORDER = ("fly", "frog")


def has_head(tile: Placed) -> bool:
    """A blue snake head lies on the tile (complete or not)."""
    return any(seg.kind == "head" and tile.seg_nodes[i] is not None
               for i, seg in enumerate(tile.o.segments))


def head_tiles(state: GameState) -> set[Pos]:
    return {p for p, t in state.board.items() if has_head(t)}


def appearance_odds(state: GameState, name: str) -> dict[Pos, Fraction]:
    """The tiles farthest from every blue head (in the creature's own hops),
    each equally likely; every tile when no head is on the board."""
    board = state.board
    heads = head_tiles(state)
    if not heads:
        far = sorted(board)
    else:
        dist = {p: 0 for p in heads}
        queue = deque(heads)
        while queue:
            p = queue.popleft()
            for dx, dy in MOVES[name]:
                q = (p[0] + dx, p[1] + dy)
                if q in board and q not in dist:
                    dist[q] = dist[p] + 1
                    queue.append(q)
        top = max(dist.values())
        far = sorted(p for p, d in dist.items() if d == top)
    return {p: Fraction(1, len(far)) for p in far}


def hop_odds(state: GameState, creature: Creature) -> dict[Pos, Fraction]:
    """Each neighbouring tile weighs 1, the tile just left 1/2."""
    assert creature.at is not None
    x, y = creature.at
    weights: dict[Pos, int] = {}
    for dx, dy in MOVES[creature.name]:
        q = (x + dx, y + dy)
        if q in state.board:
            weights[q] = 1 if q == creature.prev else 2
    total = sum(weights.values())
    return {q: Fraction(w, total) for q, w in sorted(weights.items())}


def guess_awards(creature: Creature, outcome: int | str, seats: list[int]) -> dict[int, int]:
    """Points for the guesses of the given seats once the creature is eaten
    after ``outcome`` hops, or has escaped (``"escape"``)."""
    guesses = {s: g for s, g in creature.guesses.items() if s in seats}
    awards: dict[int, int] = {}
    if outcome == "escape":
        winners = [s for s, g in guesses.items() if g == "escape"]
        for s in winners:
            awards[s] = GUESS_POINTS // len(winners)
        return awards
    numbers = {s: g for s, g in guesses.items() if isinstance(g, int)}
    if not numbers:
        return awards
    assert isinstance(outcome, int)
    best = min(abs(g - outcome) for g in numbers.values())
    closest = [s for s, g in numbers.items() if abs(g - outcome) == best]
    for s in closest:
        awards[s] = GUESS_POINTS // len(closest)
        if numbers[s] == outcome:
            awards[s] += EXACT_GUESS_BONUS
    return awards
