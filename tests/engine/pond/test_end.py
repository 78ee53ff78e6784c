"""The end: a pile at the target (more pieces wins, equal piles draw), a player
who cannot take their turn (eliminated), the same position for the third time
(a draw), and the server's timeout and resign."""
from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.pond import GAME

from .helpers import egg, move, play, position, rows

# ann's tadpole swims from 2,1 to 2,0 and develops her egg at 1,0: row 0 reads
# T t t, a set of 2 light and 1 dark (as in test_scoring)
MIXED_SET = ("Te..", "..t.", "....", "....")
MAKE_MIXED_SET = move(0, (2, 1), (2, 0))


def test_reaching_the_target_ends_the_game_and_the_bigger_pile_wins():
    # small-13: target 10. Ann has 8, makes a set of 2 of hers and 1 of bob's:
    # 10 to 1, ann wins at once; nobody is to move
    state = play(position(*MIXED_SET, piles=(8, 0)), MAKE_MIXED_SET)
    assert state.piles == [10, 1]
    assert GAME.summary(state) | {"board": None} == {
        "finished": True, "winners": [0], "current_player": None, "scores": [10, 1],
        "spawn": [13, 13], "board": None, "end": "target"}


def test_a_set_can_win_the_game_for_the_other_player():
    # bob has 9; ann's egg at 1,1 develops bob's egg at 0,1: column 0 is T T T, all
    # bob's: 12 pieces, bob wins on ann's turn
    state = play(position("T...", "E...", "T...", "....", piles=(0, 9)), egg(0, 1, 1))
    assert (state.piles, state.winners, state.end) == ([0, 12], [1], "target")


def test_equal_piles_at_the_target_are_a_draw():
    # 8 to 9, then +2 for ann and +1 for bob: 10 to 10, both seats are winners
    state = play(position(*MIXED_SET, piles=(8, 9)), MAKE_MIXED_SET)
    assert (state.piles, state.winners, state.end) == ([10, 10], [0, 1], "target")


def test_when_both_piles_pass_the_target_the_bigger_one_wins():
    # 9 to 9, then 11 to 10: ann wins
    state = play(position(*MIXED_SET, piles=(9, 9)), MAKE_MIXED_SET)
    assert (state.piles, state.winners) == ([11, 10], [0])


def test_below_the_target_the_game_goes_on():
    state = play(position(*MIXED_SET, piles=(7, 0)), MAKE_MIXED_SET)
    assert not state.finished and state.current == 1 and state.winners == []


def test_the_small_pond_ends_at_7():
    # the seed's Small Pond: target 7. 5 + 2 = 7 ends it.
    state = play(position(*MIXED_SET, piles=(5, 0), options="small"), MAKE_MIXED_SET)
    assert (state.piles, state.winners, state.end) == ([7, 1], [0], "target")


def test_a_player_without_eggs_or_a_piece_that_can_move_is_eliminated():
    # bob has no egg left and his only piece is an egg, which cannot move: once
    # ann has placed her egg (far from his), bob cannot take his turn and loses
    state = play(position("E...", "....", "....", "....", spawns=(5, 0)), egg(0, 3, 3))
    assert (state.finished, state.winners, state.end) == (True, [0], "elimination")
    assert GAME.summary(state)["current_player"] is None


def test_a_full_pond_eliminates_the_player_to_move_even_with_eggs_left():
    # ann's egg fills the last empty position 3,3 and develops the frogs at 2,3 and
    # 3,2 into eggs (row 3: e t E e, column 3: E t E e, no set). Bob still has eggs
    # but nowhere to put them, and no piece can move on a full pond: he loses.
    state = play(position("eTfE",
                          "TfEt",
                          "fEtF",
                          "etF."), egg(0, 3, 3))
    assert rows(state) == ["eTfE", "TfEt", "fEtE", "etEe"]
    assert (state.winners, state.end) == ([0], "elimination")


def test_a_tadpole_or_frog_that_can_move_keeps_a_player_in_the_game():
    # bob has no egg left but his tadpole at 0,0 can still swim to 1,0
    state = play(position("T...", "....", "....", "....", spawns=(5, 0)), egg(0, 3, 3))
    assert not state.finished and state.current == 1


# ann's frog and bob's frog swap between two positions each, far apart
SHUFFLE = [move(0, (0, 0), (1, 0)), move(1, (3, 3), (2, 3)),
           move(0, (1, 0), (0, 0)), move(1, (2, 3), (3, 3))]


def test_the_same_position_for_the_third_time_is_a_draw():
    # the start position (ann to move) occurs at the start, after 4 moves and
    # after 8 moves: the eighth move draws the game
    start = position("f...", "....", "....", "...F")
    state = play(start, *SHUFFLE, *SHUFFLE[:3])
    assert not state.finished
    state = play(state, SHUFFLE[3])
    assert (state.finished, state.winners, state.end) == (True, [0, 1], "repetition")


def test_repetitions_count_from_the_start_whatever_brought_the_position_back():
    # two timeouts bring back the start position (its 2nd time, with ann to move);
    # the four shuffling moves bring it back a 3rd time: a draw
    start = position("f...", "....", "....", "...F")
    state = play(start, {"type": "timeout", "player": 0}, {"type": "timeout", "player": 1})
    assert GAME.view(state, 0)["repetitions"] == 2
    state = play(state, *SHUFFLE[:3])
    assert not state.finished
    state = play(state, SHUFFLE[3])
    assert state.end == "repetition"


def test_a_timeout_gives_up_the_turn_and_changes_nothing_else():
    before = position("t...", ".E..", "....", "....")
    state = play(before, {"type": "timeout", "player": 0})
    assert rows(state) == rows(before) and state.spawns == before.spawns
    assert state.current == 1 and not state.finished


def test_only_the_player_to_move_times_out():
    with pytest.raises(IllegalAction) as e:
        play(position("....", "....", "....", "...."), {"type": "timeout", "player": 1})
    assert e.value.code == "not_your_turn"


def test_a_player_may_resign_at_any_time_and_the_other_wins():
    # bob resigns on ann's turn
    state = play(position("....", "....", "....", "...."), {"type": "resign", "player": 1})
    assert (state.finished, state.winners, state.end) == (True, [0], "resign")
    assert GAME.projection(state).out == (1,)


@pytest.mark.parametrize("event", [egg(1, 0, 0), {"type": "resign", "player": 0},
                                   {"type": "timeout", "player": 1}])
def test_no_event_follows_the_end(event):
    over = play(position("....", "....", "....", "...."), {"type": "resign", "player": 0})
    with pytest.raises(IllegalAction, match="the game is over") as e:
        play(over, event)
    assert e.value.code == "game_finished"
