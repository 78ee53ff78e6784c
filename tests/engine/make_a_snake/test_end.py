"""The end of a competitive game (spec note, "End and result"): when a take
leaves two stacks with tiles, the later seats finish the round; every snake
still in gets its tail; the shortest tongue-to-tail distance wins, to 0.01 cm,
ties shared."""
from __future__ import annotations

from engine.errors import IllegalAction
from engine.make_a_snake import GAME

from .helpers import R2, connect, moves, new, play, roll, summary, take

RED_GREEN = ["red"] * 8 + ["green"] * 8


def test_the_round_is_finished_by_the_seats_after_the_one_that_left_two_stacks():
    # three seats take red eight times, then green: take 16 (seat 0's sixth)
    # empties green, leaving blue and yellow
    state = moves(new(players=3), *RED_GREEN)
    s = summary(state)
    assert not s["finished"] and s["current_player"] == 1
    assert [len(snake) for snake in s["snakes"]] == [6, 5, 5]
    state = moves(state, "blue")
    assert not summary(state)["finished"] and summary(state)["current_player"] == 2
    state = moves(state, "blue")
    s = summary(state)
    # every snake has the same number of tiles, and the game is over
    assert s["finished"] and s["awaiting"] is None and s["current_player"] is None
    assert [len(snake) for snake in s["snakes"]] == [6, 6, 6]
    assert all(d is not None for d in s["distances"])
    best = min(s["distances"])
    assert s["winners"] == [i for i, d in enumerate(s["distances"]) if d == best]
    assert GAME.legal_actions(state, 0) == [] and GAME.chance(state) is None


def test_the_game_ends_at_once_when_the_last_seat_leaves_two_stacks():
    # two seats: take 16 is seat 1's, the last seat
    state = moves(new(), *RED_GREEN)
    assert summary(state)["finished"]
    assert [len(snake) for snake in summary(state)["snakes"]] == [8, 8]


def test_a_seat_whose_turn_comes_when_every_stack_is_empty_plays_none():
    # four seats; seat 3 times out after its first three rolls, so seat 0 makes
    # take 30, which empties green and leaves one blue and one yellow tile.
    # Seat 1 takes the blue, seat 2 the yellow; seat 3 finds nothing: game over
    plan = (["red", "red", "red", "timeout"] * 2 + ["red", "red", "green", "timeout"]
            + ["green"] * 6 + ["blue"] * 7 + ["yellow"] * 7)
    state = moves(new(players=4), *plan)
    assert summary(state)["current_player"] == 0
    assert summary(state)["stacks"] == {"red": 0, "green": 1, "blue": 1, "yellow": 1}
    state = moves(state, "green")
    assert summary(state)["current_player"] == 1
    state = moves(state, "blue")
    state = play(state, roll("blue", "yellow"), take(2, "yellow"), connect(2))
    s = summary(state)
    assert s["finished"] and s["stacks"] == {"red": 0, "green": 0, "blue": 0, "yellow": 0}
    # seats 0-2 had nine turns each; seat 3 eight, three of them timed out
    assert [len(snake) for snake in s["snakes"]] == [9, 9, 9, 5]


def test_tails_and_distances_are_measured_from_the_tongue_tip():
    # four seats, red and green, each seat's four tiles up:
    #   seat 0: lines 4, 4, 8, 8 south to (0,-24); tail to (0,-29): 7 + 29 = 36
    #   seat 1: two arcs 6 90 (a half circle to (12,0) heading north), then two
    #     arcs 4 180 (a full circle back there); tail north to (12,5):
    #     √(12² + 2²) = √148 = 12.17
    #   seat 2: two arcs 10 90 to (20,0) heading north, two arcs 8 45 round
    #     (12,0) to (12,8) heading west; tail to (7,8): √(7² + 1²) = √50 = 7.07
    #   seat 3: two S's, each (16 - 8√2, -8√2); two "line 4, arc 5 90": (0,-4)
    #     then (5,-5) heading east, (4,0) then (5,5) heading north; tail (0,5):
    #     (46 - 16√2, 1 - 16√2), from (0,7): √((46 - 16√2)² + (6 + 16√2)²) = 36.96
    tops = {"red": ["red-2", "red-4", "red-5", "red-7", "red-1", "red-6", "red-3", "red-8"],
            "green": ["green-2", "green-4", "green-5", "green-7", "green-1", "green-6",
                      "green-3", "green-8"]}
    state = moves(new(players=4, **tops), *(["red"] * 4 + ["green"] * 4) * 2)
    s = summary(state)
    assert s["finished"]
    x3, y3 = 46 - 16 * R2, 1 - 16 * R2
    assert round(((x3 - 0) ** 2 + (y3 - 7) ** 2) ** 0.5, 2) == 36.96
    assert s["distances"] == [36.0, 12.17, 7.07, 36.96]
    assert s["winners"] == [2]
    # the open ends do not count the tail
    assert s["open_ends"] == [[0, -24, 270], [12, 0, 90], [12, 8, 180],
                              [round(46 - 16 * R2, 2), round(-4 - 16 * R2, 2), 90]]
    tail = state.snakes[2].tail
    assert tail is not None and (float(tail.end[0]), float(tail.end[1])) == (7.0, 8.0)
    assert GAME.projection(state).scores == (36.0, 12.17, 7.07, 36.96)
    assert GAME.projection(state).better == "lower"


def test_equal_distances_share_the_win():
    # seat 1 lays the same shapes as seat 0, each the other side up: its snake is
    # seat 0's mirrored in the head's line, so the tongue tip (on that line) is
    # as far from both tails
    tops = {"red": [f"red-{n}" for n in (4, 8, 3, 5, 1, 7, 6, 2)],
            "green": [f"green-{n}" for n in (4, 8, 3, 5, 1, 7, 6, 2)]}
    state = moves(new(**tops), *["red up", "green down"] * 8)
    s = summary(state)
    assert s["finished"] and s["distances"][0] == s["distances"][1] is not None
    assert s["winners"] == [0, 1]


def test_a_resigned_seat_gets_no_tail_no_distance_and_cannot_win():
    # seat 2 resigns with an empty snake (its tail would reach (0,-5): 12 from
    # the tongue, shorter than the others' snakes of eight lines and bends)
    state = play(new(players=3), {"type": "resign", "player": 2})
    state = moves(state, *RED_GREEN)
    s = summary(state)
    assert s["finished"] and s["distances"][2] is None and state.snakes[2].tail is None
    assert 2 not in s["winners"] and s["winners"]
    assert GAME.projection(state).out == (2,)


# ---------------------------------------------------------------- leaving

def test_when_one_seat_is_left_in_the_turn_order_the_game_ends_at_once_and_it_wins():
    # two seats: seat 1 resigns before the first roll; seat 0 wins at once, its
    # snake (the head alone) gets its tail as at any end: from the tongue tip
    # (0,7) to the tail tip (0,-5), 12
    state = play(new(), {"type": "resign", "player": 1})
    s = summary(state)
    assert s["finished"] and s["winners"] == [0] and s["end"] == "resign"
    assert s["awaiting"] is None and s["current_player"] is None
    assert s["distances"] == [12.0, None] and state.snakes[1].tail is None
    assert GAME.chance(state) is None  # the roll that was due is not made
    p = GAME.projection(state)
    assert p.finished and p.winners == (0,) and p.out == (1,)


def test_the_last_seat_left_wins_whatever_its_distance():
    # seat 0 lays lines 8 and 4 (its tail reaches (0,-17): 24 from the tongue
    # tip); seat 1, with one line 8 (it would reach (0,-13): 20), resigns after
    # its roll
    state = moves(new(), "red", "green", "red")
    state = play(state, roll(), {"type": "resign", "player": 1})
    s = summary(state)
    assert s["finished"] and s["winners"] == [0]
    assert s["distances"] == [24.0, None]


def test_with_three_seats_the_others_play_on_until_one_is_left():
    state = play(new(players=3), {"type": "resign", "player": 2})
    assert not summary(state)["finished"] and summary(state)["current_player"] == 0
    state = moves(state, "red", "green", "red")
    assert summary(state)["current_player"] == 1 and not summary(state)["finished"]
    state = play(state, {"type": "resign", "player": 0})
    s = summary(state)
    assert s["finished"] and s["winners"] == [1] and s["end"] == "resign"
    assert s["distances"][0] is None and s["distances"][2] is None
    assert s["distances"][1] is not None


def test_a_seat_that_resigns_while_its_roll_is_due_hands_the_roll_to_the_next_seat():
    state = play(new(players=3), {"type": "resign", "player": 0})
    s = summary(state)
    assert s["current_player"] == 1 and s["awaiting"] == "roll" and s["die"] is None
    assert GAME.chance(state) is not None
    state = moves(state, "red")
    assert summary(state)["snakes"][1] == [["red-1", "up"]]


def test_a_seat_that_resigns_while_another_seats_roll_is_due_leaves_that_roll_due():
    state = play(new(players=3), {"type": "resign", "player": 1})
    s = summary(state)
    assert s["current_player"] == 0 and s["awaiting"] == "roll"
    state = moves(state, "red")
    assert summary(state)["current_player"] == 2  # seat 1 is skipped


def test_a_resigned_seat_cannot_resign_again_nor_anyone_after_the_end():
    state = play(new(), roll(), {"type": "resign", "player": 0})
    s = summary(state)
    assert s["finished"] and s["winners"] == [1] and s["end"] == "resign"
    for seat in (0, 1):
        try:
            play(state, {"type": "resign", "player": seat})
            raise AssertionError("a resignation after the end was accepted")
        except IllegalAction as e:
            assert e.code == "game_finished"


def test_a_seat_that_resigns_holding_a_taken_tile_connects_it_first():
    # the rule book: a tile taken must be connected; it is, up, as at a timeout
    state = play(new(players=3, red=["red-4"]), roll(), take(0, "red"),
                 {"type": "resign", "player": 0})
    s = summary(state)
    assert s["snakes"][0] == [["red-4", "up"]] and s["current_player"] == 1
    # with two seats the other is left alone, and wins at once
    state = play(new(red=["red-4"]), roll(), take(0, "red"), {"type": "resign", "player": 0})
    s = summary(state)
    assert s["snakes"][0] == [["red-4", "up"]] and s["finished"] and s["winners"] == [1]


def test_the_last_seat_left_holding_a_taken_tile_connects_it_up_and_wins():
    # seat 0 has taken red-4 (an arc 6 90) when seat 1 leaves: the tile is
    # connected up, as at a timeout, and then the tail: tile and tail end at
    # (6,-6) then (11,-6), √(11² + 13²) = √290 = 17.03 from the tongue tip
    state = play(new(red=["red-4"]), roll(), take(0, "red"), {"type": "resign", "player": 1})
    s = summary(state)
    assert s["finished"] and s["winners"] == [0]
    assert s["snakes"][0] == [["red-4", "up"]] and s["distances"] == [17.03, None]
