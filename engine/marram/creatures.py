"""The fly and the frog (Animals): where they appear, how they hop, and the
points for guessing their fate. The engine only gives the odds; a server draws
each outcome and records it as an event."""
from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from fractions import Fraction

from .rules import CREATURE_MAX_HOPS, EXACT_GUESS_BONUS, GUESS_POINTS
from .state import Creature, GameState, Placed
from .types import Pos, Seat

Outcome = int | str
"""A creature's fate: eaten after that many hops, or ``"escape"``."""

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


def _weights(board: Mapping[Pos, Placed], name: str, at: Pos, prev: Pos | None) -> dict[Pos, int]:
    """Each neighbouring tile of ``at`` weighs 2, the tile just left 1."""
    x, y = at
    weights: dict[Pos, int] = {}
    for dx, dy in MOVES[name]:
        q = (x + dx, y + dy)
        if q in board:
            weights[q] = 1 if q == prev else 2
    return weights


def hop_odds(state: GameState, creature: Creature) -> dict[Pos, Fraction]:
    """Each neighbouring tile weighs 1, the tile just left 1/2."""
    assert creature.at is not None
    weights = _weights(state.board, creature.name, creature.at, creature.prev)
    total = sum(weights.values())
    return {q: Fraction(w, total) for q, w in sorted(weights.items())}


def fate_odds(state: GameState, creature: Creature) -> dict[Outcome, float]:
    """The chance of each fate of a creature on the board (``hop_odds`` hop after
    hop, a blue head eating it), were the board to stay as it lies: eaten after
    each number of hops (counted as the guesses count them, from its
    appearance) up to ``CREATURE_MAX_HOPS``, else ``"escape"``. Tiles laid
    meanwhile may bring new heads: these are the odds of the board seen now."""
    assert creature.at is not None
    heads = head_tiles(state)
    walk: dict[tuple[Pos, Pos | None], float] = {(creature.at, creature.prev): 1.0}
    odds: dict[Outcome, float] = {}
    for hops in range(creature.hops + 1, CREATURE_MAX_HOPS + 1):
        eaten = 0.0
        after: dict[tuple[Pos, Pos | None], float] = {}
        for (at, prev), p in walk.items():
            weights = _weights(state.board, creature.name, at, prev)
            total = sum(weights.values())
            for q, w in weights.items():
                share = p * w / total
                if q in heads:
                    eaten += share
                else:
                    after[(q, at)] = after.get((q, at), 0.0) + share
        odds[hops] = eaten
        walk = after
    odds["escape"] = sum(walk.values())
    return odds


def guess_payouts(state: GameState, creature: Creature, seat: Seat,
                  guesses: list[Outcome]) -> dict[Outcome, dict[Outcome, int]]:
    """What each of ``guesses`` would pay the seat for each fate, against the
    guesses made so far (``guess_awards``, the rule that scores them)."""
    seats = state.active_seats()
    fates: list[Outcome] = [*range(1, CREATURE_MAX_HOPS + 1), "escape"]
    out: dict[Outcome, dict[Outcome, int]] = {}
    for guess in guesses:
        guessed = creature.copy()
        guessed.guesses[seat] = guess
        out[guess] = {fate: guess_awards(guessed, fate, seats).get(seat, 0) for fate in fates}
    return out


def expected_points(state: GameState, creature: Creature, seat: Seat) -> dict[Outcome, float]:
    """Each guess's expected points for the seat: its payout for each fate
    (``guess_payouts``) weighed by the fate's odds (``fate_odds``). The guesses
    still to come are not known; they count as none."""
    odds = fate_odds(state, creature)
    choices: list[Outcome] = [*range(1, CREATURE_MAX_HOPS + 1), "escape"]
    return {guess: sum(odds.get(fate, 0.0) * points for fate, points in paid.items())
            for guess, paid in guess_payouts(state, creature, seat, choices).items()}


def best_guess(state: GameState, creature: Creature, seat: Seat) -> Outcome:
    """The guess with the most expected points (the fewest hops on a tie)."""
    expected = expected_points(state, creature, seat)
    return max(expected, key=lambda g: expected[g])


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
