"""The medium bot's look at the reply (``engine.bots.ranking.replied``), on a
Pond position worked out by hand: the move that looks best one ply ahead lets
the other seat complete a set, and the ranking by the reply plays the other
move; Pond's medium bot ranks so (``medium_replies``), the other games' do not."""
from __future__ import annotations

import random

from engine import registry
from engine.bots import choose
from engine.bots.ranking import ranked, replied
from engine.pond.adapter import PondGame

from .pond.helpers import move, position

POND = registry.get("pond")


def one_tadpole_against_a_set_in_waiting():
    """Light (seat 0) to move on the small pond, no eggs left on either side:

        E t . E      row 0: a dark egg, the light tadpole, a dark egg
        . . . E      row 1: a dark egg under the one at (3, 0)
        . . . .
        . . . T      a dark tadpole at (3, 3)

    The light tadpole may step east to (2, 0) or south to (1, 1) ((0, 0) is
    taken); those are its only actions. Pond's evaluation (engine.pond.bots):
    10 a piece in the pile, 1 a piece on the board, 2 a piece in a near-set
    (two of one face and a gap within three positions of a row or column),
    light's less dark's. Both piles stay empty until the reply below."""
    return position("Et.E", "...E", "....", "...T", spawns=(0, 0))


EAST = move(0, (1, 0), (2, 0))
"""One ply ahead: the tadpole's neighbour at (3, 0) develops, egg to tadpole.
Row 0 is then E . t T: no run of three, but (1, 0)-(3, 0) is a near-set of two
tadpoles and a gap, one light piece and one dark, so near-sets cancel; pieces
on the board 1 to 4: -3. Dark's reply: its tadpole (3, 3) steps north to
(3, 2) (its egg neighbour (3, 1) develops to a tadpole) and column 3 reads
T T T from (3, 0) to (3, 2): a set of three dark tadpoles leaves for dark's
pile. Then piles 0 to 3, board 1 to 1 (the light tadpole, the dark egg at
(0, 0)), no near-set: 10 * -3 = -30."""

SOUTH = move(0, (1, 0), (1, 1))
"""One ply ahead: (1, 1) has no neighbour, nothing develops. Column 3 keeps
E E . from (3, 0) to (3, 2), a dark near-set of two pieces: 1 - 4 - 2 * 2 = -7.
Dark's replies: the tadpole (3, 3) to (3, 2) develops (3, 1) to a tadpole,
column 3 E T T . (no set; (3, 1)-(3, 3) T T . is a dark near-set of two) and
row 1 . t . T gives one light and one dark piece in the near-set (1, 1)-(3, 1):
1 - 4 + 2 * (1 - 3) = -7; or to (2, 3), with no neighbour, leaving column 3's
near-set as it was: -7. So -7 after the reply, against -30 for EAST."""


def _actions(scored):
    return [(value, dict(action)) for value, action in scored]


def test_one_ply_ahead_the_step_east_looks_best():
    state = one_tadpole_against_a_set_in_waiting()
    assert _actions(ranked(POND, state, 0, random.Random(1))) == [(-3.0, EAST), (-7.0, SOUTH)]


def test_after_the_best_reply_the_step_south_is_best():
    state = one_tadpole_against_a_set_in_waiting()
    assert _actions(replied(POND, state, 0, random.Random(1))) == [(-7.0, SOUTH), (-30.0, EAST)]


def test_pond_medium_weighs_the_reply_and_the_other_games_medium_do_not():
    assert [game.key for game in registry.games() if game.medium_replies] == ["pond"]
    state = one_tadpole_against_a_set_in_waiting()
    for seed in range(5):
        assert dict(choose(POND, state, 0, "medium", random.Random(seed)).action) == SOUTH
    one_ply = type("OnePlyPond", (PondGame,), {"medium_replies": False})()
    for seed in range(5):
        assert dict(choose(one_ply, state, 0, "medium", random.Random(seed)).action) == EAST
