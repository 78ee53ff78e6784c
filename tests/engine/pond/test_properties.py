"""Properties of random legal play on every option set: it never raises and
always ends; pieces on the board + spawns + piles are conserved colour by
colour; no set is left on the board; piles never shrink; and replaying the
events gives the state built move by move."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pond import GAME, NAMED, GameState
from engine.pond.actions import can_act
from engine.pond.scoring import sets
from engine.replay import replay_events

MAX_EVENTS = 2000


def conserved(state: GameState) -> list[int]:
    """Each colour's pieces on the board, in its spawn and in its pile."""
    on_board = [sum(1 for _, p in state.board.pieces() if p.colour == c) for c in (0, 1)]
    return [on_board[c] + state.spawns[c] + state.piles[c] for c in (0, 1)]


def random_game(options: str, seed: int, server_events: bool):
    """Play a game with random legal actions (and, if asked, the odd timeout or
    resign); check the invariants after every event; the final state and events."""
    rng = random.Random(seed)
    state = GAME.start({"players": ["ann", "bob"], "options": options})
    eggs = state.pond.eggs
    events = []
    while not state.finished:
        assert len(events) < MAX_EVENTS, "a random game did not end"
        seat = state.current
        legal = GAME.legal_actions(state, seat)
        assert legal and can_act(state, seat)
        assert GAME.legal_actions(state, 1 - seat) == []
        roll = rng.random()
        if server_events and roll < 0.05:
            event = GAME.timeout(state, seat)[0]
        elif server_events and roll < 0.06:
            event = GAME.resign(state, rng.choice((0, 1)))[0]
        else:
            event = rng.choice(legal)
        piles = list(state.piles)
        state = GAME.fold(state, event)
        events.append(event)
        assert conserved(state) == [eggs, eggs]
        assert sets(state.board) == []
        assert all(a >= b for a, b in zip(state.piles, piles, strict=True))
    assert GAME.legal_actions(state, 0) == GAME.legal_actions(state, 1) == []
    assert state.winners and GAME.summary(state)["current_player"] is None
    return state, events


@settings(max_examples=60, deadline=None)
@given(options=st.sampled_from(sorted(NAMED)), seed=st.integers(0, 2**32),
       server_events=st.booleans())
def test_random_legal_play_never_raises_conserves_pieces_and_ends(options, seed,
                                                                 server_events):
    state, _ = random_game(options, seed, server_events)
    if state.end == "target":
        assert max(state.piles) >= state.pond.target
        best = max(state.piles)
        assert state.winners == [s for s in (0, 1) if state.piles[s] == best]


@settings(max_examples=30, deadline=None)
@given(options=st.sampled_from(sorted(NAMED)), seed=st.integers(0, 2**32))
def test_replaying_the_events_gives_the_state_built_move_by_move(options, seed):
    state, events = random_game(options, seed, server_events=True)
    start = GAME.start({"players": ["ann", "bob"], "options": options})
    replayed = replay_events(GAME, start, events)
    assert replayed.ok
    assert GAME.view(replayed.state, None) == GAME.view(state, None)
    assert replayed.state.seen == state.seen
    # and every prefix: the state after k events is the same whichever way it is built
    k = seed % (len(events) + 1)
    prefix = replay_events(GAME, start, events[:k]).state
    again = start
    for event in events[:k]:
        again = GAME.fold(GAME.copy(again), event)
    assert GAME.view(prefix, 0) == GAME.view(again, 0)
