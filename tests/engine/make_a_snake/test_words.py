"""The notation (moves by mail) and the game's story in words."""
from __future__ import annotations

import pytest

from engine.errors import NotationError
from engine.make_a_snake import GAME

from .helpers import connect, moves, new, play, roll, take

NAMES = ["ann", "bob"]


@pytest.mark.parametrize(("text", "action"), [
    ("take red", {"type": "take", "player": 1, "colour": "red"}),
    ("Take Yellow.", {"type": "take", "player": 1, "colour": "yellow"}),
    ("green", {"type": "take", "player": 1, "colour": "green"}),
    ("connect up", {"type": "connect", "player": 1, "side": "up", "turn": 0}),
    ("DOWN", {"type": "connect", "player": 1, "side": "down", "turn": 0}),
    ("connect down turn 2", {"type": "connect", "player": 1, "side": "down", "turn": 2}),
    ("connect up, turning 1", {"type": "connect", "player": 1, "side": "up", "turn": 1}),
])
def test_a_line_of_notation_is_the_seats_action(text, action):
    assert GAME.parse_action(text, 1) == action


@pytest.mark.parametrize(("text", "hint"), [
    ("", "empty"),
    ("jump", "'jump' is not a move"),
    ("take", "take which colour"),
    ("take purple", "take which colour"),
    ("take red blue", "take which colour"),
    ("connect", "which side up"),
    ("connect red", "which side up"),
    ("connect sideways", "which side up"),
    ("connect up turn", "is not a turn"),
    ("connect up turn two", "is not a turn"),
    ("connect up turn ²", "is not a turn"),
])
def test_a_line_that_is_no_move_says_how_to_write_one(text, hint):
    with pytest.raises(NotationError, match=hint):
        GAME.parse_action(text, 0)


def test_every_action_writes_as_a_line_that_reads_back_as_itself():
    state = play(new(), roll("red", "blue"))
    for action in GAME.legal_actions(state, 0):
        assert GAME.parse_action(GAME.format_action(action), 0) == action
    state = play(state, take(0, "blue"))
    for action in GAME.legal_actions(state, 0):
        assert GAME.parse_action(GAME.format_action(action), 0) == action
    assert GAME.format_action(connect(0, "down", 2)) == "connect down turn 2"
    with pytest.raises(NotationError):
        GAME.format_action(roll())


def test_each_event_is_told_in_words():
    assert GAME.describe_event(roll("red", "blue"), NAMES) == "the die shows red and blue"
    assert GAME.describe_event(take(1, "blue"), NAMES) == "bob takes the top blue tile"
    assert GAME.describe_event(connect(0, "down"), NAMES) == "ann connects the tile down"
    assert GAME.describe_event(connect(0, "up", 1), NAMES) == \
        "ann turns the last 1 tile over and connects the tile up"
    assert GAME.describe_event(connect(0, "up", 2), NAMES) == \
        "ann turns the last 2 tiles over and connects the tile up"
    assert GAME.describe_event({"type": "timeout", "player": 1}, NAMES) == "bob ran out of time"
    assert GAME.describe_event({"type": "resign", "player": 0}, NAMES) == "ann resigned"


def test_turn_mail_asks_for_the_take_then_the_connect_with_replies_that_work():
    state = play(new(), roll("green", "yellow"))
    assert GAME.turn_mail(state, 1) is None
    mail = GAME.turn_mail(state, 0)
    assert mail is not None and "green and yellow" in mail.prompt
    assert mail.examples == ("take green", "take yellow")
    state = play(state, take(0, "green"))
    mail = GAME.turn_mail(state, 0)
    assert mail is not None and "green-1" in mail.prompt
    for line in mail.examples:
        assert GAME.parse_action(line, 0) in GAME.legal_actions(state, 0)


def test_turn_mail_in_the_advanced_game_gives_the_turn_to_write():
    tops = {"red": ["red-6"], "green": ["green-6"], "blue": ["blue-6"]}
    state = moves(new(advanced=True, **tops), "red up", "yellow", "green up", "yellow")
    state = play(state, roll("blue", "yellow"), take(0, "blue"))
    mail = GAME.turn_mail(state, 0)
    assert mail is not None and mail.examples == ("connect up turn 1",)
    assert "turn the last tile over, then connect" in mail.prompt
