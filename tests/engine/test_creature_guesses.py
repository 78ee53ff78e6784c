"""Guessing the fly's and the frog's hops (Animals): the odds of each fate come
from the hop rule (a neighbouring tile weighs 1, the tile just left 1/2, a blue
head eats), each guess pays by the guess rule, and the medium and strong bots
guess what pays most on average; the page is told the same."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from engine.bots import choose
from engine.errors import IllegalAction
from engine.fairness import draw_event
from engine.marram import creatures
from engine.marram.adapter import GAME
from engine.protocol import read_options
from engine.selfplay import secret_seed


def at_the_guess(seed: int = 5):
    """A 2-player Animals game played at random up to the fly's first guess."""
    secret = secret_seed(seed)
    state = GAME.start(GAME.setup(read_options(GAME, {"variant": "animals"}, 2),
                                  ["ann", "bob"], secret))
    rng = random.Random(seed)
    events = 0
    while True:
        wait = GAME.awaiting(state)
        if wait.players and GAME.legal_actions(state, wait.players[0])[0]["type"] == "guess":
            return state, wait.players[0]
        event = GAME.automatic(state)
        if event is None and wait.chance is not None:
            event = draw_event(secret, events, GAME.chance(state))
        elif event is None:
            event = GAME.bot_action(state, wait.players[0], rng, "random")
        state = GAME.fold(state, event)
        events += 1


def test_the_odds_of_the_first_hops_are_those_of_the_hop_rule():
    state, _ = at_the_guess()
    fly = state.creatures["fly"]
    odds = creatures.fate_odds(state, fly)
    assert abs(sum(odds.values()) - 1.0) < 1e-9
    # the chance tree of the first three hops, drawn as the server draws them:
    # the game's own odds, each hop folded, the fly eaten on a blue head
    eaten = {1: Fraction(0), 2: Fraction(0), 3: Fraction(0)}
    walk = [(state, Fraction(1))]
    for hop in (1, 2, 3):
        after = []
        for s, p in walk:
            s = GAME.copy(s)
            s.pending.insert(0, ("hop", "fly"))  # the hop after a place or flip
            for event, q in GAME.chance(s).outcomes:
                t = GAME.fold(GAME.copy(s), event)
                if t.creatures["fly"].status == "eaten":
                    eaten[hop] += p * q
                else:
                    after.append((t, p * q))
        walk = after
    for hop in (1, 2, 3):
        assert odds[hop] == pytest.approx(float(eaten[hop]), abs=1e-12)


FATES = {3: 0.5, 7: 0.3, "escape": 0.2}
"""Odds put in place of the board's, to work the payouts out by hand."""


def test_the_bots_guess_what_pays_most_by_the_odds(monkeypatch):
    state, first = at_the_guess()
    state = GAME.fold(state, {"type": "guess", "player": first, "creature": "fly", "hops": 5})
    second = GAME.awaiting(state).players[0]
    assert second != first
    monkeypatch.setattr(creatures, "fate_odds",
                        lambda state, creature: {**dict.fromkeys(range(1, 31), 0.0), **FATES})
    expected = creatures.expected_points(state, state.creatures["fly"], second)
    # against the guess of 5 (12 to the closest, 12 more if exact, ties share):
    # 3 is exact half the time (24) and 4 hops from 7: 0.5 * 24 = 12
    # 4 is closest to 3 (12): 6; 7 is exact 30% of the time: 0.3 * 24 = 7.2
    # 6 is closest to 7: 0.3 * 12 = 3.6; 5 shares both: 0.8 * 6 = 4.8
    # escape pays 12 when the fly escapes: 0.2 * 12 = 2.4
    assert {g: round(expected[g], 6) for g in (3, 4, 5, 6, 7, "escape")} == {
        3: 12.0, 4: 6.0, 5: 4.8, 6: 3.6, 7: 7.2, "escape": 2.4}
    assert max(expected.values()) == expected[3]
    for level in ("medium", "strong"):
        move = choose(GAME, state, second, level, random.Random(1)).action
        assert move == {"type": "guess", "player": second, "creature": "fly", "hops": 3}
    # the page is told the same: the chance and the pay of each fate, the expectation
    told = GAME.queries["guess_odds"](state, second, {"action": {
        "type": "guess", "player": second, "creature": "fly", "hops": 7}})
    assert told["expected"] == 7.2 and told["guesses"] == {str(first): 5}
    fates = {f["fate"]: (f["chance"], f["points"]) for f in told["fates"]}
    assert fates[7] == (0.3, 24) and fates[3] == (0.5, 0) and fates[8] == (0.0, 12)
    assert fates[6] == (0.0, 6)  # as close as the guess of 5: the 12 shared
    assert fates["escape"] == (0.2, 0)


def test_the_guess_odds_are_asked_only_of_a_due_guess():
    state, seat = at_the_guess()
    with pytest.raises(IllegalAction, match="no guess of the frog is due"):
        GAME.queries["guess_odds"](state, seat, {"action": {
            "type": "guess", "player": seat, "creature": "frog", "hops": 3}})
    with pytest.raises(IllegalAction, match="a guess is a number of hops from 1 to 30"):
        GAME.queries["guess_odds"](state, seat, {"action": {
            "type": "guess", "player": seat, "creature": "fly", "hops": 31}})
