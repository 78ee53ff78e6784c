"""What a Marram state keeps of itself (``GameState.once``): the frontier index
that the check for a forced pass and the legal moves share, and the view every
seat sees but for ``you``. Whatever is kept must be what a state made afresh
gives, after every event folded into the very same state object, for every seat."""
from __future__ import annotations

import random

import pytest

from engine.marram import GAME as MARRAM
from engine.marram import chance_event, chance_odds, game, make_config, new_game
from engine.marram import view as V
from engine.marram.catalogue import standard
from engine.marram.selfplay import draw
from engine.marram.snapshot import dump, load


def afresh(state):
    """A state equal to ``state`` that has worked nothing out yet."""
    return load(MARRAM.start(MARRAM.config(state)), dump(state))


@pytest.mark.parametrize(("variant", "seed"), [("animals", 11), ("classic", 12)])
def test_one_state_folded_in_place_answers_as_a_state_made_afresh(variant, seed):
    rng = random.Random(seed)
    deck = standard().deck_ids()
    rng.shuffle(deck)
    state = new_game(make_config(variant, "long", ["p0", "p1"], deck=deck))
    checked = 0
    while not state.finished:
        fresh = afresh(state)
        for seat in (0, 1, None):  # asked of the state that keeps them, then afresh
            assert MARRAM.view(state, seat) == MARRAM.view(fresh, seat)
            assert MARRAM.view(state, seat)["you"] == seat
            assert MARRAM.legal_actions(state, seat) == MARRAM.legal_actions(fresh, seat)
        assert MARRAM.automatic(state) == MARRAM.automatic(afresh(state))
        assert MARRAM.view(state, 0) == {**V.player_view(fresh, 0), "board": sorted(
            V.player_view(fresh, 0)["board"], key=lambda t: (t["at"][1], t["at"][0]))}
        odds = chance_odds(state)
        event = (chance_event(state, draw(odds, rng)) if odds
                 else rng.choice(MARRAM.legal_actions(state, MARRAM.awaiting(state).players[0])))
        game.step(state, event)  # the same object, one event on: nothing kept holds
        checked += 1
    assert checked > 60


def test_a_copy_keeps_nothing_of_what_its_original_worked_out():
    state = new_game(make_config("animals", "long", ["p0", "p1"], deck=standard().deck_ids()))
    MARRAM.view(state, 0)
    MARRAM.legal_actions(state, state.current)
    assert state.kept  # the view and the frontier index
    copied = MARRAM.copy(state)
    assert copied.kept == {}
    assert MARRAM.view(copied, 1) == MARRAM.view(state, 1)
