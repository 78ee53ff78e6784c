"""The action step: place an egg, move a tadpole one step, move a frog one or
two steps in a straight line; and every way an action can be refused, which
changes nothing."""
from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.pond import GAME

from .helpers import egg, move, play, position, rows


def refused(state, event, code: str, match: str | None = None) -> None:
    before = (rows(state), list(state.spawns), list(state.piles), state.current)
    with pytest.raises(IllegalAction, match=match) as e:
        play(state, event)
    assert e.value.code == code
    assert (rows(state), list(state.spawns), list(state.piles), state.current) == before


# ---------------------------------------------------------------- the egg

def test_an_egg_from_the_spawn_goes_on_any_empty_position():
    # ann places an egg in the far corner; nothing is next to it, nothing develops;
    # her spawn goes from 13 to 12 and it is bob's turn
    state = play(position("....", "....", "....", "...."), egg(0, 3, 3))
    assert rows(state) == ["....", "....", "....", "...e"]
    assert state.spawns == [12, 13] and state.current == 1


def test_an_egg_cannot_go_on_a_piece():
    refused(position("....", ".T..", "....", "...."), egg(0, 1, 1), "occupied",
            r"\[1, 1\] holds a dark tadpole")


def test_an_egg_needs_an_egg_left_in_the_spawn():
    # ann's spawn is empty; her tadpole could still move, so she is not eliminated
    state = position("t...", "....", "....", "....", spawns=(0, 3))
    refused(state, egg(0, 2, 2), "no_eggs_left", "ann has no egg left in the spawn")
    assert all(a["type"] == "move" for a in GAME.legal_actions(state, 0))


def test_eggs_never_move():
    refused(position("e...", "....", "....", "...."), move(0, (0, 0), (1, 0)),
            "egg_cannot_move")


# ---------------------------------------------------------------- the tadpole

def test_a_tadpole_moves_one_step_to_an_adjacent_empty_position():
    # ann's tadpole at 1,1 swims east to 2,1; nothing is next to 2,1
    state = play(position("....", ".t..", "....", "...."), move(0, (1, 1), (2, 1)))
    assert rows(state) == ["....", "..t.", "....", "...."]
    assert state.spawns == [13, 13]  # a move takes nothing from the spawn


@pytest.mark.parametrize("to", [(1, 3), (3, 1), (2, 2), (0, 0)])
def test_a_tadpole_does_not_move_two_steps_or_diagonally(to):
    refused(position("....", ".t..", "....", "...."), move(0, (1, 1), to),
            "tadpole_one_step")


def test_a_tadpole_does_not_move_onto_a_piece():
    refused(position("....", ".tE.", "....", "...."), move(0, (1, 1), (2, 1)), "occupied")


# ---------------------------------------------------------------- the frog

@pytest.mark.parametrize("to", [(1, 0), (1, 2), (1, 3), (0, 1), (2, 1), (3, 1)])
def test_a_frog_moves_one_or_two_steps_in_a_straight_line(to):
    state = play(position("....", ".f..", "....", "...."), move(0, (1, 1), to))
    assert state.board[to] is not None and state.board[(1, 1)] is None


def test_a_frog_taking_two_steps_hops_over_a_piece_of_either_colour():
    # ann's frog at 0,0 hops over bob's egg at 1,0 and lands on 2,0; the egg is
    # next to the landing position, so it develops into a tadpole
    state = play(position("fE..", "....", "....", "...."), move(0, (0, 0), (2, 0)))
    assert rows(state) == [".Tf.", "....", "....", "...."]


@pytest.mark.parametrize("to", [(3, 0), (1, 1), (2, 2), (0, 3)])
def test_a_frog_moves_no_further_than_two_and_never_diagonally(to):
    refused(position("f...", "....", "....", "...."), move(0, (0, 0), to), "frog_one_or_two")


def test_a_frog_does_not_land_on_a_piece():
    refused(position("f.E.", "....", "....", "...."), move(0, (0, 0), (2, 0)), "occupied",
            r"a frog lands on an empty position: \[2, 0\] holds a dark egg")


# ---------------------------------------------------------------- whose pieces

def test_a_player_moves_only_pieces_of_their_own_colour():
    refused(position("T...", "....", "....", "...."), move(0, (0, 0), (1, 0)),
            "not_your_piece", "ann plays the light pieces")
    refused(position("f...", "....", "....", "....", to_move=1), move(1, (0, 0), (0, 2)),
            "not_your_piece", "bob plays the dark pieces")


def test_a_move_needs_a_piece_where_it_starts():
    refused(position("....", "....", "....", "...."), move(0, (0, 0), (1, 0)), "no_piece")


def test_only_the_player_to_move_acts():
    refused(position("....", "....", "....", "...."), egg(1, 0, 0), "not_your_turn",
            "it is ann's turn")
    refused(position("....", "....", "....", "....", to_move=1), egg(0, 0, 0),
            "not_your_turn", "it is bob's turn")


@pytest.mark.parametrize(("event", "code"), [
    ({"type": "egg", "player": 0, "at": [4, 0]}, "off_board"),
    ({"type": "egg", "player": 0, "at": [0, -1]}, "off_board"),
    ({"type": "egg", "player": 0, "at": [0]}, "bad_event"),
    ({"type": "egg", "player": 0, "at": "0,0"}, "bad_event"),
    ({"type": "egg", "player": 0, "at": [True, 0]}, "bad_event"),
    ({"type": "egg", "player": 0}, "bad_event"),
    ({"type": "egg", "player": 2, "at": [0, 0]}, "bad_event"),
    ({"type": "egg", "player": False, "at": [0, 0]}, "bad_event"),
    ({"type": "move", "player": 0, "to": [1, 0]}, "bad_event"),
    ({"type": "hatch", "player": 0}, "bad_event"),
    (["egg", 0, [0, 0]], "bad_event"),
])
def test_a_malformed_event_is_refused_and_changes_nothing(event, code):
    refused(position("....", "....", "....", "...."), event, code)


def test_the_legal_actions_are_every_egg_then_every_move_of_the_player_to_move():
    # ann (light) has 2 eggs left, a tadpole at 0,0 and a frog at 3,3; bob's pieces
    # are not hers to move. 11 empty positions for an egg; the tadpole may swim
    # to 1,0 (0,1 holds bob's tadpole); the frog to 3,2, 3,1, 2,3 (1,3 holds a piece)
    state = position("t...", "T...", "..E.", ".E.f", spawns=(2, 5))
    legal = GAME.legal_actions(state, 0)
    eggs = [a["at"] for a in legal if a["type"] == "egg"]
    moves = sorted((tuple(a["from"]), tuple(a["to"])) for a in legal if a["type"] == "move")
    assert len(eggs) == 11 and eggs[0] == [1, 0]
    assert moves == [((0, 0), (1, 0)), ((3, 3), (2, 3)), ((3, 3), (3, 1)), ((3, 3), (3, 2))]
    assert GAME.legal_actions(state, 1) == []  # not bob's turn
    for action in legal:  # every listed action is accepted
        play(state, action)
