"""The baselines the bots are measured against (benchmarks/baselines.py), as
the rule books make them: the one-ply greedy player takes the best score
difference now, and both players may make every move the rules allow."""
from __future__ import annotations

import random

from benchmarks.baselines import greedy, moves, uniform_random
from engine.marram.actions import claim_options
from engine.pond import GAME as POND
from engine.replay import apply

from .pond.helpers import move, position
from .test_bots import MARRAM, marram_midgame


def test_greedy_takes_the_set_that_leaves_it_ahead():
    # ann's tadpole swims from 2,1 up to 2,0, next to her egg at 1,0, which
    # develops into a tadpole: row 0 reads T t t, a set: 2 to ann, 1 to bob, so
    # ann is 1 ahead; no other move scores
    state = position("Te..",
                     "..t.",
                     "....",
                     "....")
    for seed in range(5):
        assert greedy(POND, state, 0, random.Random(seed)) == move(0, (2, 1), (2, 0))


def test_the_baselines_may_claim_at_marram():
    state = marram_midgame(events=6)
    seat = MARRAM.awaiting(state).players[0]
    allowed = moves(MARRAM, state, seat)
    legal = MARRAM.legal_actions(state, seat)
    claimed = [a for a in allowed if a.get("claim")]
    assert len(allowed) == len(legal) + len(claimed) and claimed
    some = next(a for a in legal if a["type"] == "place")

    def unclaimed(action):
        return {k: v for k, v in action.items() if k != "claim"}

    assert [a["claim"] for a in claimed if unclaimed(a) == unclaimed(some)] == \
        claim_options(state, dict(some))
    for action in allowed[::7]:
        apply(MARRAM, state, action)  # each one legal
    assert uniform_random(MARRAM, state, seat, random.Random(1)) in allowed
