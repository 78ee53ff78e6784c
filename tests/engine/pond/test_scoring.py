"""The score step: after all developments, every unbroken run of 3 or more
pieces showing one face in a row or a column, whatever their colours, is a set;
all sets leave together, a piece in two sets leaves once, and each piece goes
to the pile of its colour's owner, whoever made the set."""
from __future__ import annotations

from .helpers import egg, move, play, position, rows


def test_three_tadpoles_in_a_row_of_mixed_colours_score_for_each_colour():
    # ann's tadpole swims from 2,1 up to 2,0, next to her egg at 1,0, which develops
    # into a tadpole: row 0 reads T t t, a set. Bob's tadpole goes to bob's pile
    # (1), ann's two to hers (2), though ann made the set.
    state = play(position("Te..",
                          "..t.",
                          "....",
                          "...."), move(0, (2, 1), (2, 0)))
    assert rows(state) == ["....", "....", "....", "...."]
    assert state.piles == [2, 1]


def test_a_run_of_four_leaves_whole():
    # the egg at 2,0 develops into a tadpole next to ann's tadpole landing on 3,0:
    # t T t t is one set of four: 3 light, 1 dark
    state = play(position("tTe.",
                          "...t",
                          "....",
                          "...."), move(0, (3, 1), (3, 0)))
    assert rows(state) == ["....", "....", "....", "...."]
    assert state.piles == [3, 1]


def test_a_plus_scores_its_five_pieces_and_the_middle_once():
    # big pond: ann's frog hops from 0,2 over her tadpole at 1,2 onto 2,2. Its four
    # neighbours develop from tadpoles into frogs: row 2 reads . f f F . and
    # column 2 reads . F f f . : two sets crossing at 2,2, 5 pieces leave, not 6.
    # Light: 1,2 2,2 2,3 = 3; dark: 3,2 2,1 = 2.
    state = play(position(".....",
                          "..T..",
                          "ft.T.",
                          "..t..",
                          ".....", options="big"), move(0, (0, 2), (2, 2)))
    assert rows(state) == ["....."] * 5
    assert state.piles == [3, 2]


def test_an_l_scores_its_five_pieces_and_the_corner_once():
    # ann's frog hops down from 1,0 to 1,1: its neighbours 2,1 (t) and 1,2 (T)
    # develop into frogs. Row 1 reads . f f F and column 1 . f F f: two sets
    # sharing the corner 1,1. Light: 1,1 2,1 1,3 = 3; dark: 3,1 1,2 = 2.
    state = play(position(".f..",
                          "..tF",
                          ".T..",
                          ".f.."), move(0, (1, 0), (1, 1)))
    assert rows(state) == ["....", "....", "....", "...."]
    assert state.piles == [3, 2]


def test_a_set_made_by_development_alone_scores_even_without_the_moved_piece():
    # bob's egg at 1,1 develops ann's egg at 0,1 into a tadpole: column 0 reads
    # t t t, all ann's. Bob made the set; ann's pile gets the 3; bob's egg stays.
    state = play(position("t...",
                          "e...",
                          "t...",
                          "....", to_move=1), egg(1, 1, 1))
    assert rows(state) == ["....", ".E..", "....", "...."]
    assert state.piles == [3, 0]


def test_two_of_a_face_three_faces_or_a_diagonal_are_no_set():
    # the tadpole lands on 2,2: diagonal t t t (0,0 1,1 2,2) is no set, and the
    # egg at 2,1 develops into a tadpole next to the frog at 3,1 (row 1: . t t F:
    # two tadpoles) and column 2 reads . t t . : two again
    state = play(position("t...",
                          ".teF",
                          "....",
                          "..t."), move(0, (2, 3), (2, 2)))
    assert rows(state) == ["t...",
                           ".ttF",
                           "..t.",
                           "...."]
    assert state.piles == [0, 0]
