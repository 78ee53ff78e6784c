"""The board's entries kept between views (``engine.marram.view._shown``) show
every tile exactly as a view made afresh would: at every state of whole random
games, viewed in the order played, then backwards and shuffled (older states
share most of their tiles with newer ones, but not always the types of the
beasts on them), with room for the whole board and with room for a few tiles."""
from __future__ import annotations

import random

import pytest

from engine.marram import apply, chance_event, chance_odds, legal_actions, make_config, new_game
from engine.marram import view as V
from engine.marram.catalogue import standard
from engine.marram.selfplay import draw
from engine.marram.state import GameState


def played(variant: str, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    deck = standard().deck_ids()
    rng.shuffle(deck)
    state = new_game(make_config(variant, "long", ["p0", "p1"], deck=deck))
    states = [state]
    while not state.finished:
        odds = chance_odds(state)
        event = (chance_event(state, draw(odds, rng)) if odds
                 else rng.choice(legal_actions(state)))
        state = apply(state, event)
        states.append(state)
    return states


def afresh(state: GameState) -> dict:
    V._shown.clear()
    return V.player_view(state, 0)


@pytest.mark.parametrize("kept", [V.SHOWN_KEPT, 7])
@pytest.mark.parametrize(("variant", "seed"), [("animals", 5), ("pitchfork", 6)])
def test_kept_entries_show_each_tile_as_made_afresh(monkeypatch, variant: str, seed: int,
                                                    kept: int):
    states = played(variant, seed)
    expected = [afresh(state) for state in states]
    monkeypatch.setattr(V, "SHOWN_KEPT", kept)
    V._shown.clear()
    order = list(range(len(states)))
    shuffled = order[:]
    random.Random(seed).shuffle(shuffled)
    for i in order + order[::-1] + shuffled:
        assert V.player_view(states[i], 0) == expected[i], f"state {i}"
    # the games had tiles shown with other beast types by a later state that still
    # holds the very same tile (the case the kept entries must notice), and boards
    # big enough to matter
    retyped = 0
    for k in range(len(states) - 1):
        before = {tuple(t["at"]): t["beasts"] for t in expected[k]["board"]}
        after = {tuple(t["at"]): t["beasts"] for t in expected[k + 1]["board"]}
        retyped += sum(1 for p, placed in states[k].board.items()
                       if states[k + 1].board.get(p) is placed and before[p] != after[p])
    assert retyped > 0 and len(states[-1].board) > 60
