"""A turn (spec note, "A turn"): the server rolls, the player takes the top tile
of a rolled colour (any colour when a rolled stack is empty) and connects it,
up or down. Every wrong event is refused with a stable code and changes nothing."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.make_a_snake import GAME

from .helpers import connect, moves, new, play, roll, summary, take


def refused(state, event) -> str:
    before = summary(state)
    with pytest.raises(IllegalAction) as e:
        play(state, event)
    assert summary(state) == before  # the state it was given is untouched
    return e.value.code


def test_a_turn_is_a_roll_a_take_and_a_connect_then_the_next_seat_rolls():
    state = new(red=["red-4"])
    assert summary(state)["awaiting"] == "roll" and summary(state)["current_player"] == 0
    state = play(state, roll("red", "blue"))
    assert summary(state)["awaiting"] == "take" and summary(state)["die"] == ["red", "blue"]
    state = play(state, take(0, "red"))
    s = summary(state)
    assert s["awaiting"] == "connect" and s["taken"] == "red-4"
    assert s["stacks"] == {"red": 7, "green": 8, "blue": 8, "yellow": 8}
    state = play(state, connect(0, "up"))
    s = summary(state)
    # arc 6 90 left from the neck heading south: round (6, 0) to (6, -6), heading east
    assert s["snakes"] == [[["red-4", "up"]], []]
    assert s["open_ends"] == [[6, -6, 0], [0, 0, 270]]
    assert (s["current_player"], s["awaiting"], s["die"]) == (1, "roll", None)


def test_the_player_chooses_either_rolled_colour():
    state = play(new(), roll("green", "yellow"))
    assert [a["colour"] for a in GAME.legal_actions(state, 0)] == ["green", "yellow"]
    assert summary(play(state, take(0, "yellow")))["taken"] == "yellow-1"


def test_a_colour_not_rolled_is_refused():
    state = play(new(), roll("red", "green"))
    assert refused(state, take(0, "blue")) == "not_rolled"


def test_when_a_rolled_stack_is_empty_any_stack_with_tiles_may_be_taken():
    # eight red tiles taken (red and green rolled): red is empty, three stacks left
    state = moves(new(), *["red"] * 8)
    assert summary(state)["stacks"]["red"] == 0 and not state.finished
    state = play(state, roll("red", "blue"))
    assert [a["colour"] for a in GAME.legal_actions(state, 0)] == ["green", "blue", "yellow"]
    assert refused(state, take(0, "red")) == "empty_stack"
    assert summary(play(state, take(0, "yellow")))["taken"] == "yellow-1"
    # with both rolled stacks full, only they may be taken
    state = play(new(), roll("green", "blue"))
    assert refused(state, take(0, "yellow")) == "not_rolled"


def test_a_tile_connects_up_or_down_and_down_turns_the_other_way():
    # arc 6 90 down turns right: round (-6, 0) to (-6, -6), heading west
    state = moves(new(red=["red-4"]), "red down")
    assert summary(state)["open_ends"][0] == [-6, -6, 180]


def test_the_basic_game_connects_any_side_whatever_it_overlaps():
    # seat 0: red-6 up then green-6 up come back to the neck; blue-6 up lies
    # exactly on red-6: in the basic game that is allowed, either side up
    state = moves(new(red=["red-6"], green=["green-6"], blue=["blue-6"]),
                  "red", "yellow", "green", "yellow")
    state = play(state, roll("blue", "red"), take(0, "blue"))
    assert [a["side"] for a in GAME.legal_actions(state, 0)] == ["up", "down"]
    state = play(state, connect(0, "up"))
    assert summary(state)["snakes"][0] == [["red-6", "up"], ["green-6", "up"], ["blue-6", "up"]]
    assert summary(state)["open_ends"][0] == [8, 0, 90]


@pytest.mark.parametrize(("events", "bad", "code"), [
    ([], take(0, "red"), "wrong_action"),  # nothing is taken before the roll
    ([roll()], roll(), "not_pending"),  # one roll a turn
    ([roll()], connect(0), "wrong_action"),  # take before connecting
    ([roll(), take(0, "red")], take(0, "green"), "wrong_action"),  # one tile a turn
    ([roll()], take(1, "red"), "not_your_turn"),
    ([roll()], take(5, "red"), "bad_event"),
    ([roll()], take(True, "red"), "bad_event"),
    ([roll()], take(0, "purple"), "bad_colour"),
    ([roll(), take(0, "red")], connect(0, "sideways"), "bad_side"),
    ([roll(), take(0, "red")], connect(0, "up", turn=-1), "bad_turn"),
    ([roll(), take(0, "red")], connect(0, "up", turn=1), "wrong_turn"),  # basic game
    ([], {"type": "roll", "face": ["red", "red"]}, "impossible_chance"),
    ([], {"type": "roll", "face": ["red"]}, "impossible_chance"),
    ([], {"type": "roll", "face": "red green"}, "impossible_chance"),
    ([], {"type": "timeout", "player": 0}, "not_pending"),  # the server rolls
    ([roll()], {"type": "resign", "player": 9}, "bad_event"),
])
def test_wrong_events_are_refused_with_a_code(events, bad, code):
    assert refused(play(new(), *events), bad) == code


def test_an_unknown_event_type_is_refused():
    with pytest.raises(IllegalAction) as e:
        GAME.read_event({"type": "jump", "player": 0})
    assert e.value.code == "bad_event"


def test_the_die_face_may_be_written_in_either_order():
    assert summary(play(new(), roll("blue", "red")))["die"] == ["red", "blue"]


def test_a_timeout_after_the_roll_takes_nothing_and_passes_the_turn():
    state = play(new(), roll(), {"type": "timeout", "player": 0})
    s = summary(state)
    assert (s["current_player"], s["awaiting"]) == (1, "roll")
    assert s["stacks"] == {"red": 8, "green": 8, "blue": 8, "yellow": 8}
    assert s["snakes"] == [[], []]


def test_a_timeout_after_the_take_connects_the_tile_up():
    state = play(new(red=["red-4"]), roll(), take(0, "red"), {"type": "timeout", "player": 0})
    s = summary(state)
    assert s["snakes"][0] == [["red-4", "up"]] and s["current_player"] == 1


def test_a_timeout_of_another_seat_is_refused():
    assert refused(play(new(), roll()), {"type": "timeout", "player": 1}) == "not_your_turn"


def test_a_resigned_seat_leaves_the_turn_order_and_its_snake_stands():
    state = moves(new(players=3, red=["red-4"]), "red")
    state = play(state, {"type": "resign", "player": 1})
    s = summary(state)
    # seat 1 resigned while its roll was due: its turn is over, seat 2's begins
    assert s["current_player"] == 2 and s["resigned"] == [1] and s["awaiting"] == "roll"
    state = moves(state, "green")
    assert summary(state)["snakes"][2] == [["green-1", "up"]]
    assert summary(state)["current_player"] == 0  # seat 1 is skipped
    assert summary(state)["snakes"][0] == [["red-4", "up"]]
    assert refused(state, {"type": "resign", "player": 1}) == "resigned"
