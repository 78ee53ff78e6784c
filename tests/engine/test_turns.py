"""Turn flow: two moves a turn, hands topped up, passes, timeouts and resignations
(rule book: "Game play", "On any turn it is possible..."; spec: pass, timeout, resign)."""
from __future__ import annotations

import pytest

from engine.marram import IllegalAction, apply, awaiting, summary

from .helpers import game, pass_, place, seg, tile

GRASS = {"S0": tile("GGGGGGGG")} | {f"G{i}": tile("GGGGGGGG") for i in range(1, 20)}


def timeout(state, player):
    return apply(state, {"type": "timeout", "player": player})


def resign(state, player):
    return apply(state, {"type": "resign", "player": player})


def code_of(fn) -> str:
    with pytest.raises(IllegalAction) as e:
        fn()
    return e.value.code


def test_two_moves_a_turn_then_the_next_seat():
    s = game(GRASS, [["G1", "G2", "G3"], ["G4", "G5", "G6"]], rest=["G7", "G8", "G9"])
    assert awaiting(s) == {"kind": "move", "player": 0, "move": 1}
    s = place(s, 0, "G1", (1, 0))
    assert awaiting(s) == {"kind": "move", "player": 0, "move": 2}
    s = place(s, 0, "G2", (2, 0))
    assert s.current == 1
    assert awaiting(s) == {"kind": "move", "player": 1, "move": 1}
    s = place(s, 1, "G4", (3, 0))
    s = place(s, 1, "G5", (4, 0))
    assert s.current == 0


def test_three_players_go_round_in_seat_order():
    s = game(GRASS, [["G1", "G2"], ["G3", "G4"], ["G5", "G6"]])
    seen = []
    for x, (seat, t) in enumerate([(0, "G1"), (0, "G2"), (1, "G3"), (1, "G4"), (2, "G5"),
                                   (2, "G6")], start=1):
        seen.append(s.current)
        s = place(s, seat, t, (x, 0))
    assert seen == [0, 0, 1, 1, 2, 2]
    assert s.current == 0


def test_hand_is_topped_up_to_three_at_the_end_of_the_turn():
    s = game(GRASS, [["G1", "G2", "G3"], ["G4", "G5", "G6"]], rest=["G7", "G8", "G9"])
    s = place(s, 0, "G1", (1, 0))
    assert s.hands[0] == ["G2", "G3"]  # not during the turn
    s = place(s, 0, "G2", (2, 0))
    assert s.hands[0] == ["G3", "G7", "G8"]  # the next tiles of the deck, in order
    assert summary(s)["tiles_left"] == 1


def test_top_up_stops_when_the_deck_runs_out():
    s = game(GRASS, [["G1", "G2", "G3"], ["G4", "G5", "G6"]], rest=["G7"])
    s = place(s, 0, "G1", (1, 0))
    s = place(s, 0, "G2", (2, 0))
    assert s.hands[0] == ["G3", "G7"]  # a short hand late in the game
    assert summary(s)["supply"][0]["tiles_in_hand"] == 2


# ---------------------------------------------------------------- passes

def test_pass_is_illegal_while_a_tile_fits():
    s = game(GRASS, [["G1"], []])  # G1 fits anywhere next to the grass starter
    assert code_of(lambda: pass_(s, 0)) == "must_place"


def test_pass_is_illegal_while_any_one_tile_in_the_hand_fits():
    # two sand fillers that fit nowhere and one grass tile that does
    s = game(GRASS, [["F8", "F9", "G1"], []])
    assert code_of(lambda: pass_(s, 0)) == "must_place"


def test_pass_with_nothing_that_fits_deals_a_fresh_hand_for_the_same_move():
    # p0 holds three sand fillers (F1-F3) against an all-grass board: nothing fits
    s = game(GRASS, [[], ["G4", "G5", "G6"]], rest=["G7", "G8", "G9", "G10"])
    assert s.hands[0] == ["F1", "F2", "F3"]
    s = pass_(s, 0)
    assert s.hands[0] == ["G7", "G8", "G9"]  # the old hand is out of the game
    assert awaiting(s) == {"kind": "move", "player": 0, "move": 1}  # same move
    assert summary(s)["tiles_left"] == 1
    s = place(s, 0, "G7", (1, 0))
    s = place(s, 0, "G8", (2, 0))
    assert s.current == 1
    assert s.hands[0] == ["G9", "G10"]


def test_pass_as_second_move_keeps_the_turn_going():
    # the first move used the only grass tile; the rest of the hand fits nowhere
    s = game(GRASS, [["G1"], ["G4", "G5", "G6"]], rest=["G7", "G8", "G9"])
    s = place(s, 0, "G1", (1, 0))
    s = pass_(s, 0)
    assert s.hands[0] == ["G7", "G8", "G9"]
    assert awaiting(s) == {"kind": "move", "player": 0, "move": 2}


def test_pass_with_nothing_to_deal_empties_the_hand_then_gives_up_the_turn():
    s = game(GRASS, [[], ["G4", "G5", "G6"]])
    s = pass_(s, 0)  # the fillers leave; no tiles remain to deal
    assert s.hands[0] == []
    assert awaiting(s) == {"kind": "move", "player": 0, "move": 1}  # may still flip
    s = pass_(s, 0)  # empty hand and deck: the rest of the turn is forfeit
    assert s.current == 1
    assert s.hands[0] == []
    assert not s.finished  # p1 still holds tiles


def test_pass_by_the_wrong_player():
    s = game(GRASS, [[], []])
    assert code_of(lambda: pass_(s, 1)) == "not_your_turn"


# ---------------------------------------------------------------- timeouts

def test_timeout_gives_up_the_rest_of_the_turn_and_keeps_the_hand():
    s = game(GRASS, [["G1", "G2", "G3"], ["G4", "G5", "G6"]], rest=["G7", "G8"])
    s = place(s, 0, "G1", (1, 0))
    s = timeout(s, 0)
    assert s.current == 1
    assert awaiting(s) == {"kind": "move", "player": 1, "move": 1}
    assert s.hands[0] == ["G2", "G3", "G7"]  # kept, then topped up as usual


def test_timeout_before_any_move_keeps_the_whole_hand():
    s = game(GRASS, [["G1", "G2", "G3"], ["G4", "G5", "G6"]], rest=["G7"])
    s = timeout(s, 0)
    assert s.hands[0] == ["G1", "G2", "G3"]
    assert summary(s)["tiles_left"] == 1
    assert s.current == 1


def test_timeout_of_a_player_not_to_move():
    s = game(GRASS, [["G1"], ["G4"]])
    assert code_of(lambda: timeout(s, 1)) == "not_your_turn"


# ---------------------------------------------------------------- resignation

def test_resigned_seat_is_skipped_in_turn_order():
    s = game(GRASS, [["G1", "G2"], ["G3", "G4"], ["G5", "G6"]])
    s = resign(s, 1)  # p1 leaves while p0 is to move
    assert s.hands[1] == []  # its hand is discarded
    s = place(s, 0, "G1", (1, 0))
    s = place(s, 0, "G2", (2, 0))
    assert s.current == 2
    assert code_of(lambda: place(s, 1, "G3", (3, 0))) == "resigned"
    s = place(s, 2, "G5", (3, 0))
    s = place(s, 2, "G6", (4, 0))
    assert s.current == 0


def test_resigning_on_your_own_turn_hands_the_turn_on():
    s = game(GRASS, [["G1", "G2"], ["G3", "G4"], ["G5", "G6"]])
    s = place(s, 0, "G1", (1, 0))
    s = resign(s, 0)
    assert awaiting(s) == {"kind": "move", "player": 1, "move": 1}


def test_two_player_resignation_ends_the_game_for_the_other_seat():
    # p1 leads 9-0, then resigns: p0 wins at once
    tiles = dict(GRASS)
    tiles["S0"] = tile("GGGGGGGG", seg("blue", "head", 1))
    tiles["B"] = tile("GGGGGGGG", seg("blue", "body", 3, 1))
    tiles["T"] = tile("GGGGGGGG", seg("blue", "tail", 3))
    s = game(tiles, [["G1", "G2"], ["B", "T"]])
    s = place(s, 0, "G1", (0, 1))
    s = place(s, 0, "G2", (0, 2))
    s = place(s, 1, "B", (1, 0), claim={"side": 3})
    s = place(s, 1, "T", (2, 0))  # head + body + tail = 9
    assert s.scores == [0, 9]
    s = resign(s, 1)
    assert s.finished
    assert s.winners == [0]
    assert s.scores == [0, 9]  # the points stand
    assert summary(s)["current_player"] is None


def test_resigned_player_keeps_tokens_and_points_but_cannot_win():
    # the starter has an orange end (west) and a blue head (east)
    tiles = {
        "S0": tile("GGGGGGGG", seg("orange", "end", 3), seg("blue", "head", 1)),
        "O": tile("GGGGGGGG", seg("orange", "end", 1)),
        "B": tile("GGGGGGGG", seg("blue", "body", 3, 1)),
        "T": tile("GGGGGGGG", seg("blue", "tail", 3)),
        "G1": tile("GGGGGGGG"), "G2": tile("GGGGGGGG"),
        "G3": tile("GGGGGGGG"), "G4": tile("GGGGGGGG"),
    }
    s = game(tiles, [["G1", "G2"], ["O", "B"], ["G3", "G4", "T"]])
    s = place(s, 0, "G1", (0, 1))
    s = place(s, 0, "G2", (0, 2))
    s = place(s, 1, "O", (-1, 0), claim={"side": 1})  # orange end + end = 2 for p1
    s = place(s, 1, "B", (1, 0), claim={"side": 3})   # p1's boot on the open blue snake
    s = place(s, 2, "G3", (0, -1))
    s = place(s, 2, "G4", (0, -2))
    assert s.scores == [0, 2, 0]
    s = resign(s, 1)
    assert s.board[(1, 0)].token is not None            # the boot stays on the board
    assert summary(s)["supply"][1]["boots"] == 6        # and is not handed back
    assert s.scores == [0, 2, 0]                        # the points stand
    # p0 has only its filler left (F1): it goes, then p0 gives up its turn
    s = pass_(s, 0)
    s = pass_(s, 0)
    assert s.current == 2  # p1 is skipped
    assert code_of(lambda: place(s, 2, "T", (2, 0), claim={"side": 3})) == "taken_feature"
    s = place(s, 2, "T", (2, 0), claim={"arc": 0})  # completes the snake; boot on grass
    s = pass_(s, 2)  # nothing left to lay anywhere: p2 gives up the turn, the round starts
    assert not s.finished
    s = pass_(s, 0)  # p0 passes too: every active seat has passed in a row
    assert s.finished
    # p1 holds the highest score but has left the game: p0 and p2 tie on 0
    assert s.winners == [0, 2]
    assert max(s.scores) == s.scores[1] > 0
