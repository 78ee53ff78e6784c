"""Properties of the geometry over random parts: the closed-form distance agrees
with dense sampling, is symmetric, and the exact decision agrees with it
wherever the float answer is clear; a snake laid the other side up is the
mirror image of itself."""
from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.make_a_snake.exact import Q2
from engine.make_a_snake.geometry import (
    Arc,
    Placed,
    closer,
    closer_exactly,
    distance,
    fpoint_distance,
    lay,
    point_closer_exactly,
    to_float,
)
from engine.make_a_snake.pieces import TILES, Bend, Line
from engine.make_a_snake.snake import Snake, lay_tile

coordinate = st.builds(lambda a, b: Q2(a, Fraction(b, 2)),
                       st.integers(-12, 12), st.integers(-6, 6))
shapes = st.one_of(st.builds(Line, st.sampled_from([4, 5, 8])),
                   st.builds(Bend, st.sampled_from([4, 5, 6, 8, 10]),
                             st.sampled_from([45, 90, 180, -45, -90, -180])))


@st.composite
def parts(draw: st.DrawFn) -> Placed:
    at = (draw(coordinate), draw(coordinate))
    placed, _, _ = lay(draw(shapes), at, draw(st.sampled_from(range(0, 360, 45))),
                       draw(st.booleans()))
    return placed


def samples(part: Placed, n: int = 64) -> tuple[list[tuple[float, float]], float]:
    """Points along the centre line, and the longest step between two of them."""
    if isinstance(part, Arc):
        cx, cy = part.fcentre
        angles = [math.radians(part.first + part.sweep * i / (n - 1)) for i in range(n)]
        step = math.radians(part.sweep) / (n - 1) * part.radius
        return [(cx + part.radius * math.cos(a), cy + part.radius * math.sin(a))
                for a in angles], step
    (x0, y0), (x1, y1) = part.fstart, part.fend
    return ([(x0 + (x1 - x0) * i / (n - 1), y0 + (y1 - y0) * i / (n - 1)) for i in range(n)],
            math.hypot(x1 - x0, y1 - y0) / (n - 1))


@settings(max_examples=150, deadline=None)
@given(parts(), parts())
def test_the_distance_is_the_least_distance_between_sampled_points(p, q):
    d = distance(p, q)
    assert d == distance(q, p) or abs(d - distance(q, p)) < 1e-9
    ps, hp = samples(p)
    qs, hq = samples(q)
    sampled = min(math.dist(a, b) for a in ps for b in qs)
    # no pair of points is closer than the distance, and the nearest points lie
    # within half a step of some sample on each part
    assert sampled >= d - 1e-9
    assert sampled <= d + (hp + hq) / 2 + 1e-9


@settings(max_examples=200, deadline=None)
@given(parts(), parts(), st.sampled_from([Fraction(1, 10**5), Fraction(1, 1000), Fraction(1, 3)]),
       st.booleans())
def test_the_exact_decision_agrees_with_the_float_distance_off_the_limit(p, q, gap, above):
    d = distance(p, q)
    limit = Fraction(d).limit_denominator(10**9) + (gap if above else -gap)
    if limit <= 0:
        return
    assert closer_exactly(p, q, limit) == (d < limit)
    assert closer(p, q, limit) == (d < limit)


@settings(max_examples=150, deadline=None)
@given(parts(), coordinate, coordinate, st.sampled_from([Fraction(1, 10**5), Fraction(1, 7)]),
       st.booleans())
def test_the_exact_point_decision_agrees_with_the_float_distance(part, x, y, gap, above):
    d = fpoint_distance(to_float((x, y)), part)
    limit = Fraction(d).limit_denominator(10**9) + (gap if above else -gap)
    if limit <= 0:
        return
    assert point_closer_exactly((x, y), part, limit) == (d < limit)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TILES), st.sampled_from(["up", "down"])),
                min_size=1, max_size=12))
def test_a_snake_turned_the_other_side_up_is_its_mirror_image(tiles):
    def end(sides_flipped: bool) -> tuple[Q2, Q2, int]:
        snake = Snake([])
        for tile, side in tiles:
            if sides_flipped:
                side = "down" if side == "up" else "up"
            snake.tiles.append(lay_tile(tile, side, *snake.open_end()))
        (x, y), heading = snake.open_end()
        return x, y, heading

    x, y, heading = end(False)
    mx, my, mheading = end(True)
    # mirrored in the line x = 0 (the head's line), exactly: x changes sign, and a
    # heading h becomes 180 - h
    assert (mx, my) == (-x, y)
    assert mheading == (180 - heading) % 360
