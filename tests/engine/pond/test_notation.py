"""The notation players write in mail replies: every action read and written
back, forgiving spellings, helpful refusals; every event told in words."""
from __future__ import annotations

import pytest

from engine import NotationError
from engine.pond import GAME

from .helpers import egg, move, play, position

NAMES = ["ann", "bob"]


@pytest.mark.parametrize(("text", "action"), [
    ("egg 1,2", egg(0, 1, 2)),
    ("Egg at 1, 2", egg(0, 1, 2)),
    ("place egg [1, 2]", egg(0, 1, 2)),
    ("place (3,0)", egg(0, 3, 0)),
    ("move 1,2 2,2", move(0, (1, 2), (2, 2))),
    ("move 1,2 to 2,2", move(0, (1, 2), (2, 2))),
    ("MOVE from 1,2 to 2,2", move(0, (1, 2), (2, 2))),
    ("frog 0,0 -> 0,2", move(0, (0, 0), (0, 2))),
    ("tadpole 3,3 3,2", move(0, (3, 3), (3, 2))),
    ("1,2-2,2", move(0, (1, 2), (2, 2))),
    ("[1,2] [1,4]", move(0, (1, 2), (1, 4))),
    ("  move 10,2 12,2  ", move(0, (10, 2), (12, 2))),
])
def test_every_action_reads_from_a_line(text, action):
    assert GAME.parse_action(text, 0) == action


def test_the_seat_comes_from_who_wrote_not_from_the_line():
    assert GAME.parse_action("egg 0,0", 1) == egg(1, 0, 0)


@pytest.mark.parametrize("action", [egg(0, 1, 2), move(1, (0, 0), (0, 2))])
def test_every_action_is_written_canonically_and_reads_back(action):
    text = GAME.format_action(action)
    assert text in ("egg 1,2", "move 0,0 0,2")
    assert GAME.parse_action(text, action["player"]) == action


@pytest.mark.parametrize(("text", "message"), [
    ("", "the move is empty"),
    ("hatch 1,2", "'hatch' is not a move"),
    ("egg", "an egg needs one position"),
    ("egg 1,2 2,2", "an egg needs one position"),
    ("egg north", "'north' is not a position"),
    ("move 1,2", "a move needs the position it starts from and the one it goes to"),
    ("move 1;2 2,2", "is not a position"),
    ("move a1 b1", "'a1' is not a position"),
])
def test_a_line_that_is_no_action_says_how_to_write_one(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.parse_action(text, 0)


def test_the_server_s_events_are_not_written_by_players():
    with pytest.raises(NotationError, match="not something a player writes"):
        GAME.format_action({"type": "resign", "player": 0})


@pytest.mark.parametrize(("event", "words"), [
    (egg(0, 1, 2), "ann placed an egg at 1,2"),
    (move(1, (1, 0), (2, 0)), "bob moved from 1,0 to 2,0"),
    ({"type": "timeout", "player": 0}, "ann ran out of time and missed the turn"),
    ({"type": "resign", "player": 1}, "bob resigned"),
])
def test_every_event_is_told_in_words(event, words):
    assert GAME.describe_event(event, NAMES) == words


def test_the_turn_mail_asks_the_player_to_move_with_examples_that_are_legal():
    # ann has a tadpole and eggs left: one egg and one move as examples
    state = position("t...", "....", "....", "....")
    mail = GAME.turn_mail(state, 0)
    assert mail is not None and mail.subject == "your move"
    assert mail.examples == ("egg 1,0", "move 0,0 1,0")
    assert "light pieces" in mail.prompt and "13 eggs left" in mail.prompt
    for example in mail.examples:
        play(state, GAME.parse_action(example, 0))  # legal as written
    assert GAME.turn_mail(state, 1) is None  # not bob's turn


def test_without_eggs_the_mail_offers_only_moves():
    state = position("t...", "....", "....", "...E", spawns=(0, 4))
    mail = GAME.turn_mail(state, 0)
    assert mail is not None and mail.examples == ("move 0,0 1,0",)
    assert "0 eggs left" in mail.prompt
