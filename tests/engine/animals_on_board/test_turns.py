"""A round's turns: split a group and gain a crate, take a group paying a crate
a tile, pass only when neither is possible; turns go round the seats still in
the round, and the last one left makes one more turn."""
from __future__ import annotations

import pytest

from engine.animals_on_board import GAME
from engine.errors import IllegalAction

from .helpers import (
    keep,
    opened,
    pass_,
    play,
    split,
    start,
    summary,
    take,
    timeout,
    with_crates,
)

# opened(): the middle is one group A1 A4 B5 C3 D4 F1 G2 H3 and C1 face down;
# ann (seat 0) and bob hold one crate each, ann to move.


def refused(state, event) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        play(state, event)
    return e.value


def test_a_split_puts_the_part_last_and_gains_a_crate():
    s = summary(play(opened(), split(0, 0, "A1", "H3")))
    assert s["middle"] == [["A4", "B5", "C3", "D4", "F1", "G2", "?"], ["A1", "H3"]]
    assert s["crates"] == [2, 1]
    assert s["current_player"] == 1


def test_the_face_down_tile_is_split_off_as_a_question_mark():
    s = summary(play(opened(), split(0, 0, "?", "A1")))
    assert s["middle"] == [["A4", "B5", "C3", "D4", "F1", "G2", "H3"], ["A1", "?"]]


def test_the_face_down_tile_cannot_be_named_and_the_refusal_does_not_tell_it():
    # C1 lies face down in group 0, E2 is somewhere in the stack: both are
    # refused with the same words, so trying names cannot find the hidden tile
    hidden = refused(opened(), split(0, 0, "C1"))
    elsewhere = refused(opened(), split(0, 0, "E2"))
    assert hidden.code == elsewhere.code == "not_in_group"
    assert hidden.message.replace("C1", "X") == elsewhere.message.replace("E2", "X")


def test_a_split_needs_a_group_of_two_and_leaves_a_tile_on_each_side():
    state = play(opened(), split(0, 0, "A1"))  # group 1 is A1 alone
    assert refused(state, split(1, 1, "A1")).code == "too_small"
    whole = ["A4", "B5", "C3", "D4", "F1", "G2", "H3", "?"]
    assert refused(state, split(1, 0, *whole)).code == "whole_group"
    assert refused(state, split(1, 0, "A4", "A4")).code == "bad_part"
    assert refused(state, split(1, 0)).code == "bad_part"
    assert refused(state, split(1, 5, "A4")).code == "no_such_group"


def test_a_sixth_crate_is_never_held_gaining_it_returns_one():
    # ann holds 5 crates: a split would make 6, so she returns one and holds 4
    state = with_crates(opened(), 5, 1)
    assert summary(play(state, split(0, 0, "A1")))["crates"] == [4, 1]


def test_a_take_pays_a_crate_a_tile_and_leaves_the_round():
    # ann splits A1 off (2 crates); bob takes A1 for 1 crate (0 left)
    state = play(opened(), split(0, 0, "A1"), take(1, 1))
    s = summary(state)
    assert s["arks"] == [["B2"], ["A1", "E5"]]
    assert s["crates"] == [2, 0]
    assert s["in_round"] == [0]
    assert s["middle"] == [["A4", "B5", "C3", "D4", "F1", "G2", "H3", "?"]]


def test_a_group_costs_as_many_crates_as_it_holds_tiles():
    # bob holds 1 crate: A1 H3 costs 2
    state = play(opened(), split(0, 0, "A1", "H3"))
    error = refused(state, take(1, 1))
    assert error.code == "cannot_pay"
    assert "2 crates" in error.message


def test_groups_after_a_taken_group_move_up_one():
    # groups: 0 [rest], 1 [A1], 2 [H3]; bob takes group 1, H3 becomes group 1
    state = play(opened(), split(0, 0, "A1"), split(1, 0, "H3"), take(0, 1))
    assert summary(state)["middle"][1] == ["H3"]


def test_the_first_to_take_in_a_round_takes_the_starting_flag():
    # three players: ann splits, bob takes (flag to bob), cat takes (bob keeps it)
    state = start(seats=3)
    deck = GAME.config(state)["deck"]
    state = play(state, *(keep(s, deck[3 * s]) for s in range(3)))
    first_tile = summary(state)["middle"][0][0]
    second_tile = summary(state)["middle"][0][1]
    state = play(state, split(0, 0, first_tile), split(1, 0, second_tile))
    assert summary(state)["start_player"] == 0
    state = play(state, take(2, 1))
    assert summary(state)["start_player"] == 2
    state = play(state, take(0, 1))
    assert summary(state)["start_player"] == 2


def test_turns_skip_the_seats_that_left_the_round():
    # three players: ann splits, bob splits, cat takes; then ann, bob, ann...
    state = start(seats=3)
    deck = GAME.config(state)["deck"]
    state = play(state, *(keep(s, deck[3 * s]) for s in range(3)))
    a, b = summary(state)["middle"][0][:2]
    state = play(state, split(0, 0, a), split(1, 0, b), take(2, 1))
    assert summary(state)["in_round"] == [0, 1]
    assert summary(state)["current_player"] == 0
    state = play(state, split(0, 0, summary(state)["middle"][0][0]))
    assert summary(state)["current_player"] == 1


def test_a_pass_only_when_neither_a_split_nor_a_take_is_possible():
    assert refused(opened(), pass_(0)).code == "not_stuck"


def test_a_player_stuck_passes_by_itself_and_leaves_the_round():
    # bob took A1 and left; on her last turn ann faces only single tiles and
    # holds no crate (hand-built): she can only pass, and the server does it.
    state = play(opened(), split(0, 0, "A1"), take(1, 1))
    stuck = state.copy()
    stuck.middle = [[t] for t in stuck.middle[0]]
    stuck.crates = [0, 0]
    assert GAME.legal_actions(stuck, 0) == [pass_(0)]
    assert GAME.automatic(stuck) == pass_(0)
    assert GAME.automatic(state) is None
    after = play(stuck, pass_(0))
    assert summary(after)["round"] == 2


def test_the_last_player_in_the_round_makes_one_more_turn_then_it_ends():
    # bob takes A1 and leaves: ann alone makes one more turn, a split of F1.
    # The round ends: the groups A4 B5 C3 D4 G2 H3 + C1 (face down, now turned
    # up) and F1 make one group of 8 face-up tiles, so none is drawn face up;
    # the stack's next tile (A2) is added face down. Bob took first: his flag.
    state = play(opened(), split(0, 0, "A1"), take(1, 1))
    assert summary(state)["current_player"] == 0 and summary(state)["final_turn"]
    s = summary(play(state, split(0, 0, "F1")))
    assert s["round"] == 2
    assert s["middle"] == [["A4", "B5", "C1", "C3", "D4", "F1", "G2", "H3", "?"]]
    assert s["in_round"] == [0, 1]
    assert s["start_player"] == 1 and s["current_player"] == 1
    assert s["crates"] == [3, 0]


def test_the_round_ends_at_once_when_nobody_is_left():
    # ann takes A1 (1 of her 2 crates); bob, alone, takes H3 on his last turn
    state = play(opened(), split(0, 0, "A1"), split(1, 0, "H3"), take(0, 1), take(1, 1))
    s = summary(state)
    assert s["round"] == 2
    assert s["arks"] == [["A1", "B2"], ["E5", "H3"]]
    assert s["start_player"] == 0  # ann took first


def test_a_player_out_of_time_in_a_round_passes_whatever_they_could_do():
    state = play(opened(), timeout(0))
    s = summary(state)
    assert s["in_round"] == [1] and s["current_player"] == 1 and s["final_turn"]
    assert s["crates"] == [1, 1] and s["arks"] == [["B2"], ["E5"]]


def test_only_the_seat_to_move_moves():
    assert refused(opened(), split(1, 0, "A1")).code == "not_your_turn"
    assert refused(opened(), keep(0, "A1")).code == "wrong_action"
