"""Legal actions: what the player to act may do, fast enough to ask on every
request (python-chess's ``legal_moves``)."""
from __future__ import annotations

from typing import Any

from ..errors import IllegalAction
from . import board as B
from .game import flip_problem, step
from .rules import CREATURE_MAX_HOPS
from .state import GameState
from .types import Pos, Seat


def placements(state: GameState, seat: Seat) -> list[dict[str, Any]]:
    """Every placement of every tile in the seat's hand: tile, face, position, rotation."""
    return [{"type": "place", "player": seat, "tile": tile_id, "face": face,
             "at": [pos[0], pos[1]], "rotation": rotation}
            for tile_id, face, rotation, pos in B.iter_placements(state, state.hands[seat])]


def flips(state: GameState, seat: Seat) -> list[dict[str, Any]]:
    """Every flip the seat may make: position and rotation."""
    out: list[dict[str, Any]] = []
    if state.spades[seat] <= 0:
        return out
    for pos in sorted(p for p, placed in state.board.items() if placed.spade):
        if flip_problem(state, seat, pos) is not None:
            continue
        placed = state.board[pos]
        for rotation in range(4):
            if B.flip_mismatch(state, pos, B.flipped_oriented(placed, rotation)) is None:
                out.append({"type": "flip", "player": seat, "at": [pos[0], pos[1]],
                            "rotation": rotation})
    return out


def legal_actions(state: GameState) -> list[dict[str, Any]]:
    """What the player to act may do now (without claims: see ``claim_options``).
    Empty when the game is over or waits for a chance event."""
    if state.finished:
        return []
    if state.pending:
        head = state.pending[0]
        if head[0] != "guess":
            return []
        seat, name = head[2], head[1]
        return [{"type": "guess", "player": seat, "creature": name, "hops": h}
                for h in [*range(1, CREATURE_MAX_HOPS + 1), "escape"]]
    seat = state.current
    places = placements(state, seat)
    actions = places + flips(state, seat)
    if not places:
        actions.append({"type": "pass", "player": seat})
    return actions


def claim_options(state: GameState, action: dict[str, Any]) -> list[dict[str, Any]]:
    """The claims that may go with a place or flip: one per region or segment of
    the moved tile whose feature holds no token, while the player has the token."""
    move = {**action, "claim": None}
    after = state.copy()
    step(after, move)  # raises IllegalAction for an illegal move
    pos: Pos = (action["at"][0], action["at"][1])
    placed = after.board[pos]
    out: list[dict[str, Any]] = []
    for arc0 in sorted(min(r.arcs) for r in placed.o.regions):
        out.append({"arc": arc0})
    for seg in placed.o.segments:
        out.append({"side": min(seg.sides)})
    allowed = []
    for claim in out:
        trial = state.copy()
        try:
            step(trial, {**move, "claim": claim})
        except IllegalAction:
            continue
        allowed.append(claim)
    return allowed
