"""Properties over random games: tiles are conserved between the stack, the
setup's hands, the middle and the arks; crates stay between 0 and 5; a round
has one face-down tile while the stack lasts; every legal action is accepted;
replaying a record gives the game that was played; every game ends."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.animals_on_board import GAME, State
from engine.replay import replay, replay_events

from .helpers import random_game

games = st.tuples(st.integers(0, 10**6), st.sampled_from([2, 3, 4]), st.booleans())


def where_tiles_are(state: State) -> Counter[str]:
    places: Counter[str] = Counter(state.config.deck[state.next_draw:])
    for seat in range(state.seats):
        places.update(t for t in state.drawn[seat] if t != state.kept[seat])
        places.update(state.arks[seat])
    for group in state.middle:
        places.update(group)
    return places


@settings(max_examples=40, deadline=None)
@given(games)
def test_tiles_are_conserved_and_crates_stay_within_zero_to_five(game):
    seed, seats, leave = game
    record, states = random_game(seed, seats, leave=leave)
    every = Counter(record["config"]["deck"])
    for state in states:
        assert where_tiles_are(state) == every
        assert all(0 <= c <= 5 for c in state.crates)
        if not state.setup and not state.finished:
            in_middle = [t for g in state.middle for t in g]
            assert state.face_down is None or state.face_down in in_middle
            assert all(len(g) >= 1 for g in state.middle)
    assert states[-1].finished


@settings(max_examples=40, deadline=None)
@given(games)
def test_a_new_round_has_one_face_down_tile_while_the_stack_lasts(game):
    seed, seats, leave = game
    _, states = random_game(seed, seats, leave=leave)
    for before, after in zip(states, states[1:], strict=False):
        started = after.round != before.round or (before.setup and not after.setup)
        if started and not after.finished:
            # one group: 8 / 10 / 12 face up (or more left over) and one face
            # down, unless the stack ran out on the way
            face_up = sum(len(g) for g in after.middle) - (after.face_down is not None)
            assert len(after.middle) == 1
            assert face_up >= 2 * seats + 4 or after.stack() == 0
            assert after.face_down is not None or after.stack() == 0


@settings(max_examples=40, deadline=None)
@given(games)
def test_replaying_the_record_gives_the_game_that_was_played(game):
    seed, seats, leave = game
    record, states = random_game(seed, seats, leave=leave)
    _, result = replay(record)
    assert result.ok
    assert GAME.summary(result.state) == GAME.summary(states[-1])
    for seat in [*range(seats), None]:
        assert GAME.view(result.state, seat) == GAME.view(states[-1], seat)
    # and every prefix: the state after event i is the replay of the first i events
    start = GAME.start(record["config"])
    for i in range(0, len(states), 7):
        prefix = replay_events(GAME, start, record["events"][:i])
        assert GAME.summary(prefix.state) == GAME.summary(states[i])


@settings(max_examples=15, deadline=None)
@given(games)
def test_every_legal_action_is_accepted(game):
    seed, seats, leave = game
    _, states = random_game(seed, seats, leave=leave)
    for state in states[::5]:
        for seat in GAME.awaiting(state).players:
            for action in GAME.legal_actions(state, seat)[::97]:
                GAME.fold(GAME.copy(state), action)
