"""What Marram's computer players need beyond the rules: the tiles a seat cannot
see redrawn (``determinize``), a state's worth to a seat counting its open
features and tokens (``evaluate``), and the moves worth weighing, claims
included (``candidates``). ``engine.bots`` plays them through the protocol."""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from . import board as B
from .actions import flips
from .scoring import completed_value, majority, unfinished_value
from .state import GameState
from .tiles import Oriented
from .types import STEP, Pos, Seat

FINISH_CHANCE = 0.5
"""How likely an open feature is to be completed while tiles are left: its
worth is this share of the completed value, the rest of the end-game value."""
TOKEN_VALUE = 2.0
"""A token in stock while tiles are left: a claim still to make."""
FLIP_VALUE = 1.0
"""A spade card in stock while tiles are left."""


def determinize(state: GameState, seat: Seat, rng: random.Random) -> GameState:
    """A copy of ``state`` with the undrawn tiles in a new order drawn by ``rng``.
    Hands, the board and the discards are public (rule book), so the deck order is
    Marram's only secret; the tiles still in it are known (the catalogue less what
    has been seen), and are sorted before the shuffle so that nothing of the true
    order reaches the result."""
    out = state.copy()
    deck = state.config.deck
    unseen = sorted(deck[state.drawn:])
    rng.shuffle(unseen)
    out.config = replace(state.config, deck=deck[:state.drawn] + tuple(unseen))
    return out


def worth(state: GameState) -> list[float]:
    """Each seat's score plus what it may still expect: the open features it holds
    the majority of, and its tokens and spades in stock while tiles are left."""
    values = [float(s) for s in state.scores]
    if state.finished:
        return values
    playing = not state.nothing_to_lay()
    feats = state.features
    seen: set[int] = set()
    for placed in state.board.values():
        if placed.token is None:
            continue
        root = feats.find(placed.token[2])
        if root in seen:
            continue
        seen.add(root)
        f = feats.roots[root]
        if f.complete:
            continue
        value = float(unfinished_value(f))
        if playing:
            done = completed_value(f, state.rules.patch)
            value += FINISH_CHANCE * (done - value)
        for s in majority(f.holders(state.players)):
            values[s] += value
    if playing:
        for s in range(state.players):
            stock = state.boots[s] + state.pitchforks[s]
            values[s] += TOKEN_VALUE * stock + FLIP_VALUE * min(state.spades[s], 2)
    return values


def evaluate(state: GameState, seat: Seat) -> float:
    """The seat's worth less the best other seat's; a finished game adds a
    million for a win, takes one off for a loss."""
    if seat in state.resigned:
        return -1e6
    values = worth(state)
    others = [values[s] for s in state.active_seats() if s != seat]
    value = values[seat] - (max(others) if others else 0.0)
    if state.finished:
        value += 1e6 if seat in state.winners else -1e6
    return value


Touch = tuple[list[tuple[int, int]], list[tuple[int, int]]]
"""What a tile laid at a position would touch: (arc, root) of each neighbouring
region across its arcs, and (side, root) of each neighbouring beast segment."""


def _touch(state: GameState, pos: Pos) -> Touch:
    """The neighbouring features a tile at ``pos`` would join, whatever the tile
    (the walk of ``board.claim_blocked``, done once per position, not per claim)."""
    board, feats = state.board, state.features
    arcs: list[tuple[int, int]] = []
    segs: list[tuple[int, int]] = []
    x, y = pos
    for s, (dx, dy) in enumerate(STEP):
        nb = board.get((x + dx, y + dy))
        if nb is None:
            continue
        s2 = (s + 2) % 4
        for i in range(3):
            theirs = nb.region_nodes[nb.o.region_of_arc[(2 * s2 + 2 - i) % 8]]
            arcs.append(((2 * s + i) % 8, feats.find(theirs)))
        seg = nb.live_segment(s2)
        if seg is not None:
            segs.append((s, feats.find(seg)))
    return arcs, segs


def _blocked(o: Oriented, touch: Touch, claimed: set[int]) -> set[tuple[str, int]]:
    """The regions ("r", i) and segments ("b", i) of ``o``, laid where ``touch``
    was taken, whose feature would already hold a token. The tile's nodes that
    touch one feature join through it, so a token anywhere in such a group
    blocks every node of it."""
    nodes: list[tuple[tuple[str, int], int]] = [(("r", o.region_of_arc[a]), root)
                                                for a, root in touch[0]]
    nodes += [(("b", i), root) for s, root in touch[1]
              if (i := o.seg_at_side[s]) is not None]
    groups: list[tuple[set[tuple[str, int]], set[int]]] = []
    for node, root in nodes:
        merged: tuple[set[tuple[str, int]], set[int]] = ({node}, {root})
        for g in [g for g in groups if node in g[0] or root in g[1]]:
            groups.remove(g)
            merged[0].update(g[0])
            merged[1].update(g[1])
        groups.append(merged)
    return {n for members, roots in groups if roots & claimed for n in members}


def candidates(state: GameState) -> list[dict[str, Any]]:
    """The moves a bot weighs for the seat to move (no guess or chance pending):
    every legal placement, without a claim and with each claim the seat may make
    on it, the flips (without claims), and the pass when nothing else is legal."""
    seat = state.current
    out: list[dict[str, Any]] = []
    catalogue = state.config.catalogue
    token_for_beasts = "pitchfork" if state.rules.pitchforks_for_beasts else "boot"
    boots = state.boots[seat] > 0
    beasts = state.supply(token_for_beasts)[seat] > 0
    claimed = {root for root, f in state.features.roots.items() if f.claims}
    touches: dict[Pos, Touch] = {}
    for tile_id, face, rotation, pos in B.iter_placements(state, state.hands[seat]):
        move = {"type": "place", "player": seat, "tile": tile_id, "face": face,
                "at": [pos[0], pos[1]], "rotation": rotation, "claim": None}
        out.append(move)
        if not (boots or beasts):
            continue
        o = catalogue[tile_id].oriented(face, rotation)  # type: ignore[arg-type]
        claims: list[dict[str, int]] = []
        if boots:
            claims += [{"arc": min(r.arcs)} for r in o.regions]
        if beasts:
            claims += [{"side": min(seg.sides)} for seg in o.segments]
        touch = touches.get(pos)
        if touch is None:
            touch = touches[pos] = _touch(state, pos)
        blocked = _blocked(o, touch, claimed) if claimed else set()
        out += [{**move, "claim": claim} for claim in claims
                if (("r", o.region_of_arc[claim["arc"]]) if "arc" in claim
                    else ("b", o.seg_at_side[claim["side"]])) not in blocked]
    out += [{**flip, "claim": None} for flip in flips(state, seat)]
    if not out:
        out.append({"type": "pass", "player": seat})
    return out
