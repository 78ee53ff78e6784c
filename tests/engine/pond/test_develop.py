"""The develop step: every piece orthogonally next to the placed or moved piece,
of either colour, advances one face (egg -> tadpole -> frog -> egg); the piece
itself does not, and developing is not optional."""
from __future__ import annotations

from .helpers import egg, move, play, position, rows


def test_every_orthogonal_neighbour_of_either_colour_develops_but_not_the_placed_egg():
    # ann's egg at 1,1 has four neighbours: light egg 1,0 -> tadpole, dark tadpole
    # 0,1 -> frog, light frog 2,1 -> egg, dark egg 1,2 -> tadpole. The new egg
    # stays an egg. Row 1 reads F e e: two eggs, no set.
    state = play(position(".e..",
                          "T.f.",
                          ".E..",
                          "...."), egg(0, 1, 1))
    assert rows(state) == [".t..",
                           "Fee.",
                           ".T..",
                           "...."]


def test_diagonal_pieces_do_not_develop():
    # the egg at 1,1 touches the four corners of its square only diagonally
    state = play(position("e.T.",
                          "....",
                          "f.E.",
                          "...."), egg(0, 1, 1))
    assert rows(state) == ["e.T.",
                           ".e..",
                           "f.E.",
                           "...."]


def test_only_the_neighbours_of_where_the_piece_lands_develop():
    # ann's tadpole leaves 1,1 (next to her egg at 0,1) for 2,1 (next to bob's egg
    # at 3,1): bob's egg develops into a tadpole, ann's egg stays an egg
    state = play(position("....",
                          "et.E",
                          "....",
                          "...."), move(0, (1, 1), (2, 1)))
    assert rows(state) == ["....",
                           "e.tT",
                           "....",
                           "...."]


def test_a_frog_develops_back_into_an_egg():
    # bob's tadpole swims next to ann's frog: the frog becomes an egg again
    state = play(position("f...",
                          "....",
                          "T...",
                          "....", to_move=1), move(1, (0, 2), (0, 1)))
    assert rows(state) == ["e...",
                           "T...",
                           "....",
                           "...."]


def test_a_frog_hopping_over_a_piece_develops_it_when_it_lands_next_to_it():
    # ann's frog at 0,0 hops over 0,1 onto 0,2: the hopped tadpole at 0,1 is now
    # next to the frog and develops into a frog; bob's egg at 0,3 develops too
    state = play(position("f...",
                          "T...",
                          "....",
                          "E..."), move(0, (0, 0), (0, 2)))
    assert rows(state) == ["....",
                           "F...",
                           "f...",
                           "T..."]


def test_developing_comes_before_scoring_and_can_break_a_row():
    # a third egg in a row is no set: placing it next to the second egg develops
    # that egg into a tadpole, so the row reads e t e
    state = play(position("ee..",
                          "....",
                          "....",
                          "...."), egg(0, 2, 0))
    assert rows(state) == ["ete.", "....", "....", "...."]
    assert state.piles == [0, 0]
