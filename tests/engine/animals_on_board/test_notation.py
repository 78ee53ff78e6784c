"""The notation: every action read from and written as one line of text (for
replies by mail), and every event told in words without naming a secret."""
from __future__ import annotations

import pytest

from engine.animals_on_board import GAME
from engine.errors import NotationError

from .helpers import PLAYERS, keep, opened, pass_, random_game, split, start, take


@pytest.mark.parametrize(("text", "event"), [
    ("keep C4", keep(1, "C4")),
    ("Keep c4", keep(1, "C4")),
    ("split 0 A1 H3", split(1, 0, "A1", "H3")),
    ("split group 2: a1, ?", split(1, 2, "A1", "?")),
    ("take 1", take(1, 1)),
    ("TAKE group 0", take(1, 0)),
    ("pass", pass_(1)),
])
def test_a_line_reads_as_the_seat_s_action(text: str, event: dict):
    assert GAME.parse_action(text, 1) == event


@pytest.mark.parametrize(("text", "hint"), [
    ("", "empty"),
    ("keep", "keep C4"),
    ("keep ?", "keep C4"),
    ("keep Z9", "not a tile"),
    ("split A1", "group's number"),
    ("split 0", "name the tiles"),
    ("take", "group's number"),
    ("take 1 A1", "only the group"),
    ("pass 3", "not a move"),
    ("hello", "not a move"),
])
def test_a_line_that_is_no_action_says_how_to_write_one(text: str, hint: str):
    with pytest.raises(NotationError, match=hint):
        GAME.parse_action(text, 0)


def test_every_legal_action_writes_and_reads_back_the_same():
    # the setup's keeps, a round's splits and takes, and a forced pass
    states = [start(), opened()]
    _, played = random_game(11, 3, leave=False)
    states += played[::4]
    seen = set()
    for state in states:
        for seat in GAME.awaiting(state).players:
            for action in GAME.legal_actions(state, seat)[:300]:
                text = GAME.format_action(action)
                assert GAME.parse_action(text, seat) == action, text
                seen.add(action["type"])
    assert seen >= {"keep", "split", "take"}
    assert GAME.parse_action(GAME.format_action(pass_(0)), 0) == pass_(0)


def test_the_server_s_events_are_not_written_by_players():
    with pytest.raises(NotationError):
        GAME.format_action({"type": "resign", "player": 0})


@pytest.mark.parametrize(("event", "words"), [
    (keep(0, "C4"), "ann keeps one of their three tiles on their ark, in secret"),
    (split(1, 0, "H3", "?", "A1"),
     "bob splits A1, H3, the face-down tile off group 0 and gains a food crate"),
    (take(0, 2), "ann takes group 2 onto their ark and leaves the round"),
    (pass_(1), "bob passes and leaves the round"),
    ({"type": "timeout", "player": 0}, "ann ran out of time"),
    ({"type": "resign", "player": 1}, "bob resigned"),
])
def test_every_event_is_told_in_words(event: dict, words: str):
    assert GAME.describe_event(event, PLAYERS) == words


def test_a_keep_told_in_words_never_names_the_tile():
    assert "C4" not in GAME.describe_event(keep(0, "C4"), PLAYERS)


def test_the_turn_mail_asks_for_a_keep_then_for_a_turn_with_examples_to_paste():
    state = start("A1", "B2", "C3")
    mail = GAME.turn_mail(state, 0)
    assert mail is not None and mail.examples == ("keep A1", "keep B2", "keep C3")
    mail = GAME.turn_mail(opened(), 0)
    assert mail is not None and mail.subject == "your turn"
    assert "A1 A4 B5 C3 D4 F1 G2 H3 ?" in mail.prompt
    for example in mail.examples:
        GAME.fold(opened(), GAME.parse_action(example, 0))  # each one is legal
    assert GAME.turn_mail(opened(), 1) is None
