"""The end of the game, and the server's resign: the game ends at the end of a
round in which an ark reached 10 tiles (or after which the stack and the middle
are both empty); a resigning seat leaves for good."""
from __future__ import annotations

import pytest

from engine.animals_on_board import GAME
from engine.errors import IllegalAction

from .helpers import (
    OPENING,
    keep,
    opened,
    play,
    position,
    resign,
    split,
    start,
    summary,
    take,
)

# Ann's ark holds 8 tiles, bob's 3; the middle holds D1 D2 (group 0) and E1
# (group 1); ann holds 2 crates, bob 1; ann to move.
ANN = ["A1", "A2", "A3", "B1", "B2", "B3", "C4", "C5"]
BOB = ["F1", "G2", "H3"]


def near_the_end():
    return position([ANN, BOB], [["D1", "D2"], ["E1"]], [2, 1])


def test_an_ark_of_ten_ends_the_game_at_the_end_of_the_round_not_before():
    # ann takes D1 D2 (2 crates): 10 tiles, but bob is still in the round
    state = play(near_the_end(), take(0, 0))
    assert not summary(state)["finished"]
    assert GAME.awaiting(state).players == (1,)
    # bob's one more turn: he takes E1 with his crate; the round ends, and so the game
    s = summary(play(state, take(1, 0)))
    assert s["finished"] and s["end"] == "ark"
    assert s["current_player"] is None and s["in_round"] == []
    # ann: A1 A2 A3 herd 15, B1 B2 B3 herd 15, C4 C5 a pair returned, D1 D2 a
    # pair returned: 30, no crate left. Bob: E1 1 + F1 1 + G2 2 + H3 3 = 7.
    assert s["scores"] == [30, 7]
    assert s["winners"] == [0]
    assert GAME.awaiting(play(state, take(1, 0))).finished


def test_the_game_ends_after_a_round_that_leaves_stack_and_middle_empty():
    # Hand-built (three seats, cat resigned holding most tiles): the stack is
    # empty and the middle holds E5 alone. Ann takes it and leaves; bob, alone,
    # is stuck (no crate, nothing left) and passes: the round ends, nothing is
    # left to deal, so the game ends. Ann: A1 1 + B1 1 + E5 5 = 7, no crate
    # left; bob: C1 1, no crate: 1.
    every = [f"{s}{n}" for s in "ABCDEFGHIJ" for n in range(1, 6)]
    ann, bob = ["A1", "B1"], ["C1"]
    cat = [t for t in every if t not in ann + bob + ["E5"]]
    state = position([ann, bob, cat], [["E5"]], [1, 0, 0], resigned=(2,))
    assert summary(state)["stack"] == 0
    state = play(state, take(0, 0))
    assert GAME.automatic(state) == {"type": "pass", "player": 1}
    s = summary(play(state, GAME.automatic(state)))
    assert s["finished"] and s["end"] == "empty"
    assert s["scores"][:2] == [7, 1]
    assert s["winners"] == [0]


def test_nothing_more_happens_once_the_game_is_over():
    state = play(near_the_end(), take(0, 0), take(1, 0))
    with pytest.raises(IllegalAction) as e:
        play(state, resign(0))
    assert e.value.code == "game_finished"


def test_a_resigning_flag_holder_hands_the_flag_to_the_next_seat():
    state = start(seats=3)
    deck = GAME.config(state)["deck"]
    state = play(state, *(keep(s, deck[3 * s]) for s in range(3)), resign(0))
    s = summary(state)
    assert s["start_player"] == 1 and s["current_player"] == 1
    assert s["in_round"] == [1, 2]
    assert not s["finished"]


def test_when_one_seat_is_left_it_wins_whatever_the_scores():
    s = summary(play(opened(), resign(0)))
    assert s["finished"] and s["end"] == "resign"
    assert s["winners"] == [1]
    assert GAME.projection(play(opened(), resign(0))).out == (0,)


def test_a_resigned_ark_no_longer_ends_the_game_and_cannot_win():
    # three seats: cat took 12 tiles earlier in this round and is out of it.
    # Ann takes G1; bob, alone, splits F1 F2 on his last turn: the round ends.
    cat = ["A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4", "B5", "C1", "C2"]
    state = position([["D1"], ["E1"], cat], [["F1", "F2"], ["G1"]], [1, 1, 0],
                     in_round=[0, 1])
    end_of_round = (take(0, 1), split(1, 0, "F1"))
    # cat's ark of 12 ends the game, and cat (25 + 25 + C1 C2 returned) wins it
    s = summary(play(state, *end_of_round))
    assert s["finished"] and s["winners"] == [2]
    # but once cat has resigned it counts no more: round 3 starts
    s = summary(play(state, resign(2), *end_of_round))
    assert not s["finished"] and s["round"] == 3
    assert s["in_round"] == [0, 1]


def test_a_seat_resigning_out_of_turn_leaves_the_last_one_its_final_turn():
    # three seats: ann to move, bob and cat in the round; cat resigns, then bob
    # takes: ann is left alone and makes one more turn
    state = start(seats=3)
    deck = GAME.config(state)["deck"]
    state = play(state, *(keep(s, deck[3 * s]) for s in range(3)))
    state = play(state, resign(2))
    assert summary(state)["in_round"] == [0, 1] and summary(state)["current_player"] == 0
    first = summary(state)["middle"][0][0]
    state = play(state, split(0, 0, first), take(1, 1))
    assert summary(state)["final_turn"] and summary(state)["current_player"] == 0


def test_a_resign_that_leaves_the_seat_to_move_alone_makes_its_turn_the_last():
    # three seats: ann and bob split, cat takes and leaves; ann is to move when
    # bob resigns: she is alone in the round, so this turn is her last
    state = start(seats=3)
    deck = GAME.config(state)["deck"]
    state = play(state, *(keep(s, deck[3 * s]) for s in range(3)))
    a, b = summary(state)["middle"][0][:2]
    state = play(state, split(0, 0, a), split(1, 0, b), take(2, 1), resign(1))
    s = summary(state)
    assert s["in_round"] == [0] and s["current_player"] == 0 and s["final_turn"]
    c = s["middle"][0][0]
    assert summary(play(state, split(0, 0, c)))["round"] == 2


def test_a_seat_resigning_before_keeping_puts_its_three_tiles_in_the_middle():
    # three seats: bob resigns before choosing; ann keeps B2 and cat G2. Ann's
    # A1 C3, bob's D4 E5 F1 and cat's H3 A4 go face up: 7; the stack adds three
    # more to make 10 face up, then one face down.
    tiles = ("A1", "B2", "C3", "D4", "E5", "F1", "G2", "H3", "A4")
    state = play(start(*tiles, seats=3), resign(1), keep(0, "B2"), keep(2, "G2"))
    s = summary(state)
    assert s["arks"] == [["B2"], [], ["G2"]]
    (group,) = s["middle"]
    assert {"A1", "C3", "D4", "E5", "F1", "H3", "A4"} <= set(group)
    assert len(group) == 11
    assert s["in_round"] == [0, 2]


def test_a_resign_twice_is_refused():
    state = play(start(*OPENING, seats=3), resign(1))
    with pytest.raises(IllegalAction) as e:
        play(state, resign(1))
    assert e.value.code == "resigned"
