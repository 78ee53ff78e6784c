"""The plane of the spec note: where each shape ends, and how close two parts
come, line-line, line-arc and arc-arc, each worked out by hand in a comment.
Exact answers at the limits: "exactly 4 apart" is never "less than 4"."""
from __future__ import annotations

import math
from fractions import Fraction

import pytest

from engine.make_a_snake.exact import Q2, round_hundredths, round_root_hundredths
from engine.make_a_snake.geometry import (
    Segment,
    closer,
    closer_exactly,
    distance,
    fpoint_distance,
    point_closer,
    point_closer_exactly,
)
from engine.make_a_snake.snake import NECK, lay_tile

from .helpers import R2, arc, pt, seg

S = Q2(0, 1)  # √2, exactly
LIMIT = Fraction(3999, 1000)  # W - 0.001


def end_of(tile: str, side: str) -> tuple[float, float, int]:
    laid = lay_tile(tile, side, NECK, 270)
    return (float(laid.end[0]), float(laid.end[1]), laid.heading)


# ---------------------------------------------------------------- laying the shapes

@pytest.mark.parametrize(("shape", "up", "down"), [
    # line 8 and line 4 run south from the neck, either side up
    (1, (0, -8, 270), (0, -8, 270)),
    (2, (0, -4, 270), (0, -4, 270)),
    # arc 8 45 left: centre (8, 0), the radius turns from 180 to 225 degrees:
    # (8 - 8·cos 45, -8·sin 45) = (8 - 4√2, -4√2), heading 270 + 45
    (3, (8 - 4 * R2, -4 * R2, 315), (-(8 - 4 * R2), -4 * R2, 225)),
    # arc 6 90 left: centre (6, 0), ends at (6, -6) heading east (the spec's example)
    (4, (6, -6, 0), (-6, -6, 180)),
    (5, (10, -10, 0), (-10, -10, 180)),
    # arc 4 180: a half circle round (4, 0) to (8, 0), heading north
    (6, (8, 0, 90), (-8, 0, 90)),
    # the S: (8 - 4√2, -4√2) heading 315, then right 45 round a centre 8 to the
    # south-west of it: twice the first step's x, -8√2 in y, heading south again
    (7, (16 - 8 * R2, -8 * R2, 270), (-(16 - 8 * R2), -8 * R2, 270)),
    # line 4 to (0, -4), then arc 5 90 left round (5, -4) to (5, -9)
    (8, (5, -9, 0), (-5, -9, 180)),
])
def test_each_shape_ends_where_the_spec_puts_it_up_and_down(shape, up, down):
    for side, want in (("up", up), ("down", down)):
        x, y, heading = end_of(f"red-{shape}", side)
        assert (x, y) == pytest.approx(want[:2], abs=1e-9), side
        assert heading == want[2], side


# ---------------------------------------------------------------- line-line

def test_parallel_lines_four_apart_are_four_apart_and_not_closer_than_3_999():
    # (0,0)-(8,0) and (0,4)-(8,4): every point of one is 4 above the other
    a, b = seg(0, 0, 8, 0), seg(0, 4, 8, 4)
    assert distance(a, b) == pytest.approx(4)
    assert not closer(a, b, LIMIT)
    assert closer(a, b, Fraction(4001, 1000))


def test_crossing_lines_are_zero_apart():
    # (0,0)-(8,0) and (4,-2)-(4,2) cross at (4,0); their ends are 2 and 4 away
    a, b = seg(0, 0, 8, 0), seg(4, -2, 4, 2)
    assert distance(a, b) == 0
    assert closer_exactly(a, b, Fraction(1, 1000))


def test_skew_lines_meet_their_least_distance_at_two_ends():
    # (0,0)-(4,0) and (7,4)-(7,8): from (4,0) to (7,4) is a 3-4-5 triangle
    a, b = seg(0, 0, 4, 0), seg(7, 4, 7, 8)
    assert distance(a, b) == pytest.approx(5)
    assert not closer_exactly(a, b, Fraction(5))
    assert closer_exactly(a, b, Fraction(5) + Fraction(1, 10**12))


def test_an_end_against_a_diagonal_line_meets_it_square():
    # the diagonal (0,0)-(4√2, 4√2) and (0,8)-(-4,8): from (0,8) the foot on y = x
    # is (4,4), inside the diagonal (4 < 4√2), at distance 8/√2 = 4√2
    a, b = Segment(pt(0, 0), pt(4 * S, 4 * S)), seg(0, 8, -4, 8)
    assert distance(a, b) == pytest.approx(4 * R2)
    # 4√2 = 5.6568542...: exactly between these two limits
    assert closer_exactly(a, b, Fraction(56569, 10000))
    assert not closer_exactly(a, b, Fraction(56568, 10000))


# ---------------------------------------------------------------- line-arc

def test_a_line_beyond_an_arc_meets_it_on_the_radius_square_to_it():
    # arc round (0,0), radius 6, from 45 to 135 degrees (over the top); the line
    # y = 10 from x = -4 to 4: the foot of the centre's perpendicular is (0,10),
    # on the arc's radius at 90 degrees, so the distance is 10 - 6 = 4
    a, line = arc(0, 0, 6, 45, 90), seg(-4, 10, 4, 10)
    assert distance(line, a) == pytest.approx(4)
    assert distance(a, line) == pytest.approx(4)
    assert not closer(line, a, LIMIT)
    assert not closer_exactly(line, a, Fraction(4))
    assert closer_exactly(line, a, Fraction(4) + Fraction(1, 10**9))


def test_a_line_crossing_an_arc_far_from_every_end_is_zero_apart():
    # the right half circle round (0,0), radius 10 (from -90 to 90 degrees), and
    # the line y = 0 from x = 5 to 15: they cross at (10,0). The line's ends are
    # 5 from the circle, the arc's ends (0,±10) more than 11 from the line, and
    # the centre's foot (0,0) is off the line: only the crossing is close.
    a, line = arc(0, 0, 10, 270, 180), seg(5, 0, 15, 0)
    assert distance(line, a) == 0
    assert closer_exactly(line, a, Fraction(1, 10**6))
    assert closer(line, a, LIMIT)


def test_a_line_inside_the_circle_is_nearest_the_arc_at_its_ends():
    # arc round (0,0), radius 10, from 45 to 135 degrees; the line y = 6 from
    # x = -2 to 2 inside it. Square to the line, (0,6) is 10 - 6 = 4 from the arc,
    # but the ends (±2, 6) are √40 from the centre: 10 - 2√10 = 3.6754...
    a, line = arc(0, 0, 10, 45, 90), seg(-2, 6, 2, 6)
    assert distance(line, a) == pytest.approx(10 - 2 * math.sqrt(10))
    assert closer(line, a, LIMIT)


def test_a_line_past_the_end_of_an_arc_is_nearest_that_end():
    # the quarter arc round (0,0), radius 6, from 0 to 90 degrees ends at (0,6);
    # the line x = -3 from y = 6 to 14 passes it: the end (0,6) is 3 from it
    a, line = arc(0, 0, 6, 0, 90), seg(-3, 6, -3, 14)
    assert distance(line, a) == pytest.approx(3)


# ---------------------------------------------------------------- arc-arc

def test_two_arcs_facing_each_other_meet_on_the_line_of_their_centres():
    # round (0,0) from -45 to 45 and round (16,0) from 135 to 225, both radius 6:
    # along y = 0 from (6,0) to (10,0): 16 - 6 - 6 = 4. Their ends are farther
    # (from (6cos45, 6sin45) to the other circle: √(11.76² + 4.24²) - 6 = 6.5)
    a, b = arc(0, 0, 6, 315, 90), arc(16, 0, 6, 135, 90)
    assert distance(a, b) == pytest.approx(4)
    assert not closer(a, b, LIMIT)
    assert not closer_exactly(a, b, Fraction(4))
    assert closer_exactly(a, b, Fraction(4) + Fraction(1, 10**9))


def test_crossing_arcs_are_zero_apart_though_their_ends_are_far():
    # circles of radius 10 round (0,0) and (12,0) cross at (6,±8); the right half
    # of the first and the left half of the second both hold (6,8). Their ends
    # are √244 - 10 = 5.62 from the other circle and the centres' line gives
    # 12 - 10 - 10 → 8: only the crossing comes closer than 3.999
    a, b = arc(0, 0, 10, 270, 180), arc(12, 0, 10, 90, 180)
    assert distance(a, b) == 0
    assert closer_exactly(a, b, Fraction(1, 10**6))
    assert closer(a, b, LIMIT)


def test_arcs_of_one_centre_are_their_radii_apart():
    # radius 6 and radius 10 round (0,0), both from 0 to 90 degrees: 10 - 6 = 4
    a, b = arc(0, 0, 6, 0, 90), arc(0, 0, 10, 0, 90)
    assert distance(a, b) == pytest.approx(4)
    assert not closer(a, b, LIMIT)
    # turned away from each other (0-90 against 180-270), two points at angles θ1
    # and θ2 are √(36 + 100 - 120·cos(θ1 - θ2)) apart, least when the angles are
    # nearest, 90 degrees: the ends (0,6) and (-10,0), √136 = 11.66
    c = arc(0, 0, 10, 180, 90)
    assert distance(a, c) == pytest.approx(math.sqrt(136))


def test_an_arc_end_near_the_middle_of_another_arc():
    # round (0,0) radius 8 over the top (45 to 135) and a quarter round (0,12)
    # radius 2 from 180 to 270 that ends at (0,10): 10 - 8 = 2 from the first
    a, b = arc(0, 0, 8, 45, 90), arc(0, 12, 2, 180, 90)
    assert distance(a, b) == pytest.approx(2)
    assert closer_exactly(a, b, Fraction(2) + Fraction(1, 10**9))
    assert not closer_exactly(a, b, Fraction(2))


# ---------------------------------------------------------------- points (lollipops)

def test_a_point_to_a_line_and_to_an_arc():
    # (3,4) is 4 above the line (0,0)-(8,0), and 5 from (0,0), so 5 - 2 = 3 from
    # the circle of radius 2 there (its radius through (3,4) is at 53 degrees)
    p = (3.0, 4.0)
    assert fpoint_distance(p, seg(0, 0, 8, 0)) == pytest.approx(4)
    assert fpoint_distance(p, arc(0, 0, 2, 0, 90)) == pytest.approx(3)
    # past the arc's end (90 degrees, at (0,2)): √(3² + 2²)
    assert fpoint_distance(p, arc(0, 0, 2, 90, 90)) == pytest.approx(math.sqrt(13))
    assert not point_closer_exactly(pt(3, 4), seg(0, 0, 8, 0), Fraction(4))
    assert point_closer(pt(3, 4), seg(0, 0, 8, 0), Fraction(4) + Fraction(1, 10**9))


# ---------------------------------------------------------------- exactness

def test_a_distance_of_exactly_four_along_a_diagonal_is_decided_exactly():
    # the point (2√2, 2√2) is exactly 4 from the neck, the end of the line
    # (0,0)-(0,-8), yet 2√2 in floating point is not exact. The float filter defers to
    # exact arithmetic this close to the limit, which says "not less than 4".
    p = pt(2 * S, 2 * S)
    line = seg(0, 0, 0, -8)
    assert not point_closer(p, line, Fraction(4))
    assert point_closer(p, line, Fraction(4) + Fraction(1, 10**12))
    # the same as two lines: the neck's line south and one starting at that point
    a = seg(0, 0, 0, -8)
    b = Segment(pt(2 * S, 2 * S), pt(2 * S + 8, 2 * S))
    assert not closer(a, b, Fraction(4))
    assert closer(a, b, Fraction(4) + Fraction(1, 10**12))


def test_rounding_to_hundredths_is_exact():
    # √2 = 1.41421...; 100√2 = 141.42 → 141; 5√2/2 = 3.5355 → 354 (up)
    assert round_hundredths(S) == 141
    assert round_hundredths(Q2(0, Fraction(5, 2))) == 354
    assert round_hundredths(Q2(-6)) == -600
    # √148 = 12.1655... → 1217; √50 = 7.0710... → 707; √0 = 0
    assert round_root_hundredths(Q2(148)) == 1217
    assert round_root_hundredths(Q2(50)) == 707
    assert round_root_hundredths(Q2(0)) == 0
