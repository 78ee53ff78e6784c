"""Copies of a Marram state share their laid tiles (the bots copy states by the
thousand): folding into a copy must never change the state it was copied from,
whatever the move does to tiles already laid (flips, tokens coming home, beasts
leaving the board)."""
from __future__ import annotations

import random

import pytest

from engine import registry
from engine.protocol import read_options
from engine.selfplay import secret_seed

MARRAM = registry.get("marram")


def tiles(state):
    """Everything about the laid tiles, deeply."""
    return {pos: (p.tile.id, p.face, p.rotation, p.inverted, tuple(p.region_nodes),
                  tuple(p.seg_nodes), p.spade, p.flips, p.token)
            for pos, p in state.board.items()}


@pytest.mark.parametrize("variant", ["classic", "pitchfork", "animals"])
def test_folding_into_a_copy_leaves_the_original_as_it_was(variant):
    changed = {"flip": 0, "token home": 0, "beast gone": 0}
    for seed in range(3):
        opts = read_options(MARRAM, {"variant": variant}, 2)
        state = MARRAM.start(MARRAM.setup(opts, ["ann", "bob"], secret_seed(seed)))
        rng = random.Random(seed)
        while not MARRAM.awaiting(state).finished:
            event = MARRAM.automatic(state)
            if event is None and MARRAM.chance(state) is not None:
                event = rng.choice(MARRAM.chance(state).outcomes)[0]
            elif event is None:
                seat = MARRAM.awaiting(state).players[0]
                event = rng.choice(MARRAM.bot_candidates(state, seat))
            before, view = tiles(state), MARRAM.view(state, None)
            after = MARRAM.fold(MARRAM.copy(state), event)
            assert tiles(state) == before and MARRAM.view(state, None) == view
            now = tiles(after)
            old = {pos: t for pos, t in before.items() if pos in now}
            changed["flip"] += any(now[p][7] != t[7] for p, t in old.items())
            changed["token home"] += any(t[8] is not None and now[p][8] is None
                                         for p, t in old.items())
            changed["beast gone"] += any(now[p][5] != t[5] for p, t in old.items())
            state = after
    # the games did change laid tiles in every way the copies must not share
    assert changed["token home"] > 0
    if variant != "classic":
        assert changed["beast gone"] > 0
    if variant == "pitchfork":
        assert changed["flip"] > 0
