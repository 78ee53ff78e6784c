"""Where the parts of a snake lie, and how close two of them come.

Method
------
A part lies as a ``Segment`` (a straight centre line) or an ``Arc`` (a circular
one). Points are kept exactly, in Q(√2) (``exact``): headings are multiples of
45 degrees, lengths and radii whole numbers, so every end point and centre is
``a + b·√2/2`` with whole a and b.

The least distance between two parts is the least over a few candidate pairs
of points, since it is reached either at an end of a part or where the line
joining the two points is square to both parts:

- an end point of either part against the other part (point-segment: the foot
  of the perpendicular when it falls inside, else the nearer end; point-arc:
  the point on the circle's radius through it when that radius is inside the
  arc, else the nearer end);
- a crossing of the two parts (distance 0);
- segment-arc: the foot of the perpendicular from the circle's centre to the
  segment, against the arc's points on that radius (distance |δ - R| or δ + R);
- arc-arc: the points of both arcs on the line through the two centres
  (distance |d ± R2 ∓ R1|). Two arcs of one centre meet their least distance at
  an end of one of them, so ends cover them.

``distance`` evaluates these candidates in floating point (for the tests, the
views and a filter). ``closer`` answers "less than this limit?" exactly:

1. bounding boxes more than limit + ``MARGIN`` apart: no (boxes of exact points
   rounded once, so off by < 1e-13);
2. the floating-point distance more than ``MARGIN`` from the limit: its answer.
   Coordinates stay below 500 cm (32 tiles of at most 14.2 cm, plus the head
   and tail), each is rounded once from its exact value (error < 1e-13), and
   every candidate near a limit of a few centimetres comes from a
   well-conditioned formula (divisions by squared lengths of at least 16, square
   roots of numbers of at least 1), so its error is below 1e-9. The ill-
   conditioned candidates, crossings of nearly tangent circles, are at
   distances close to 0, where an error of 1e-4 changes no answer. The
   ``MARGIN`` of 1e-6 is a thousand times the bound;
3. otherwise exactly, in Q(√2): every candidate distance is compared with the
   limit by squares (and the crossings' coordinates, which need one more square
   root, by ``exact.sign_with_root``). No floating-point number decides.

So no answer depends on rounding: "exactly 4 apart" is never "less than
3.999", and a distance of 3.9990000001 is not either.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from .exact import HALF_SQRT2, Q2, sign_with_root
from .pieces import Bend, Line, Part

Vec = tuple[Q2, Q2]
FVec = tuple[float, float]
Box = tuple[float, float, float, float]

MARGIN = 1e-6
"""Float answers nearer than this to a limit are decided exactly (see above)."""

_ONE, _ZERO = Q2(1), Q2(0)
UNIT: dict[int, Vec] = {
    0: (_ONE, _ZERO), 45: (HALF_SQRT2, HALF_SQRT2), 90: (_ZERO, _ONE),
    135: (-HALF_SQRT2, HALF_SQRT2), 180: (-_ONE, _ZERO), 225: (-HALF_SQRT2, -HALF_SQRT2),
    270: (_ZERO, -_ONE), 315: (HALF_SQRT2, -HALF_SQRT2),
}
"""The unit vector of each heading, exactly."""
FUNIT: dict[int, FVec] = {h: (float(x), float(y)) for h, (x, y) in UNIT.items()}


# ---------------------------------------------------------------- vectors

def add(p: Vec, v: Vec) -> Vec:
    return (p[0] + v[0], p[1] + v[1])


def sub(p: Vec, q: Vec) -> Vec:
    return (p[0] - q[0], p[1] - q[1])


def scale(k: Q2 | int | Fraction, v: Vec) -> Vec:
    return (v[0] * k, v[1] * k)


def dot(u: Vec, v: Vec) -> Q2:
    return u[0] * v[0] + u[1] * v[1]


def cross(u: Vec, v: Vec) -> Q2:
    return u[0] * v[1] - u[1] * v[0]


def to_float(p: Vec) -> FVec:
    return (float(p[0]), float(p[1]))


def point(x: int | Fraction, y: int | Fraction) -> Vec:
    return (Q2(x), Q2(y))


def _fdist(p: FVec, q: FVec) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def _fcross(u: FVec, v: FVec) -> float:
    return u[0] * v[1] - u[1] * v[0]


# ---------------------------------------------------------------- parts as they lie

class Segment:
    """A straight centre line from ``start`` to ``end``."""

    __slots__ = ("start", "end", "fstart", "fend", "box")

    def __init__(self, start: Vec, end: Vec) -> None:
        self.start, self.end = start, end
        self.fstart, self.fend = to_float(start), to_float(end)
        xs, ys = (self.fstart[0], self.fend[0]), (self.fstart[1], self.fend[1])
        self.box: Box = (min(xs), min(ys), max(xs), max(ys))

    def __repr__(self) -> str:
        return f"Segment({self.fstart} -> {self.fend})"


class Arc:
    """A circular centre line round ``centre``: the radius vectors from angle
    ``first`` counter-clockwise through ``sweep`` degrees (at most 180).
    ``start`` and ``end`` are its ends in the order the snake lays it."""

    __slots__ = ("centre", "radius", "first", "sweep", "start", "end", "fcentre",
                 "ffirst", "flast", "fstart", "fend", "box")

    def __init__(self, centre: Vec, radius: int, first: int, sweep: int, start: Vec,
                 end: Vec) -> None:
        self.centre, self.radius, self.first, self.sweep = centre, radius, first % 360, sweep
        self.start, self.end = start, end
        self.fcentre = to_float(centre)
        self.ffirst, self.flast = FUNIT[self.first], FUNIT[(self.first + sweep) % 360]
        self.fstart, self.fend = to_float(start), to_float(end)
        xs, ys = [self.fstart[0], self.fend[0]], [self.fstart[1], self.fend[1]]
        for angle in (0, 90, 180, 270):  # the circle's extreme points inside the arc
            if (angle - self.first) % 360 <= sweep:
                xs.append(self.fcentre[0] + radius * FUNIT[angle][0])
                ys.append(self.fcentre[1] + radius * FUNIT[angle][1])
        self.box = (min(xs), min(ys), max(xs), max(ys))

    @property
    def first_vector(self) -> Vec:
        return UNIT[self.first]

    @property
    def last_vector(self) -> Vec:
        return UNIT[(self.first + self.sweep) % 360]

    def __repr__(self) -> str:
        return f"Arc(centre {self.fcentre}, r {self.radius}, {self.first}+{self.sweep})"


Placed = Segment | Arc


def lay(part: Part, at: Vec, heading: int, mirrored: bool = False) -> tuple[Placed, Vec, int]:
    """``part`` laid from point ``at`` leaving with ``heading`` (turning the other
    way when ``mirrored``: the tile lies down); with the point and heading it ends at."""
    if isinstance(part, Line):
        end = add(at, scale(part.length, UNIT[heading]))
        return Segment(at, end), end, heading
    assert isinstance(part, Bend)
    turn = -part.turn if mirrored else part.turn
    r = part.radius
    if turn > 0:  # left: the centre on the left, radius vectors sweep counter-clockwise
        centre = add(at, scale(r, UNIT[(heading + 90) % 360]))
        first = (heading - 90) % 360
        end = add(centre, scale(r, UNIT[(first + turn) % 360]))
        arc = Arc(centre, r, first, turn, at, end)
    else:  # right: the centre on the right, the end is the counter-clockwise first
        centre = add(at, scale(r, UNIT[(heading - 90) % 360]))
        first = (heading + 90 + turn) % 360
        end = add(centre, scale(r, UNIT[first]))
        arc = Arc(centre, r, first, -turn, at, end)
    return arc, end, (heading + turn) % 360


# ---------------------------------------------------------------- floating point

def _fin_span(arc: Arc, w: FVec) -> bool:
    return _fcross(arc.ffirst, w) >= 0 and _fcross(w, arc.flast) >= 0


def _fpoint_segment(p: FVec, s: Segment) -> float:
    (ax, ay), (bx, by) = s.fstart, s.fend
    vx, vy = bx - ax, by - ay
    vv = vx * vx + vy * vy
    t = ((p[0] - ax) * vx + (p[1] - ay) * vy) / vv
    if t <= 0:
        return _fdist(p, s.fstart)
    if t >= 1:
        return _fdist(p, s.fend)
    return abs(vx * (p[1] - ay) - vy * (p[0] - ax)) / math.sqrt(vv)


def _fpoint_arc(p: FVec, arc: Arc) -> float:
    w = (p[0] - arc.fcentre[0], p[1] - arc.fcentre[1])
    r = math.hypot(*w)
    if r == 0:
        return float(arc.radius)
    if _fin_span(arc, w):
        return abs(r - arc.radius)
    return min(_fdist(p, arc.fstart), _fdist(p, arc.fend))


def fpoint_distance(p: FVec, part: Placed) -> float:
    """The least distance from point ``p`` to a part's centre line."""
    return _fpoint_segment(p, part) if isinstance(part, Segment) else _fpoint_arc(p, part)


def _fsegments_cross(s: Segment, u: Segment) -> bool:
    a, b, c, d = s.fstart, s.fend, u.fstart, u.fend
    ab, cd = (b[0] - a[0], b[1] - a[1]), (d[0] - c[0], d[1] - c[1])
    o1 = _fcross(ab, (c[0] - a[0], c[1] - a[1]))
    o2 = _fcross(ab, (d[0] - a[0], d[1] - a[1]))
    o3 = _fcross(cd, (a[0] - c[0], a[1] - c[1]))
    o4 = _fcross(cd, (b[0] - c[0], b[1] - c[1]))
    return o1 * o2 < 0 and o3 * o4 < 0


def _fsegment_arc(s: Segment, arc: Arc) -> float:
    best = min(_fpoint_arc(s.fstart, arc), _fpoint_arc(s.fend, arc),
               _fpoint_segment(arc.fstart, s), _fpoint_segment(arc.fend, s))
    (ax, ay), (bx, by), (cx, cy) = s.fstart, s.fend, arc.fcentre
    vx, vy = bx - ax, by - ay
    vv = vx * vx + vy * vy
    proj = (cx - ax) * vx + (cy - ay) * vy
    if 0 < proj < vv:  # the foot of the perpendicular from the centre is inside
        g = (ax - cx + proj / vv * vx, ay - cy + proj / vv * vy)
        delta = math.hypot(*g)
        if delta == 0:
            best = min(best, float(arc.radius))
        else:
            if _fin_span(arc, g):
                best = min(best, abs(delta - arc.radius))
            if _fin_span(arc, (-g[0], -g[1])):
                best = min(best, delta + arc.radius)
    acx, acy = ax - cx, ay - cy
    half_b = vx * acx + vy * acy
    c = acx * acx + acy * acy - arc.radius ** 2
    disc = half_b * half_b - vv * c
    if disc >= 0:
        root = math.sqrt(disc)
        for t in ((-half_b + root) / vv, (-half_b - root) / vv):
            if 0 <= t <= 1 and _fin_span(arc, (acx + t * vx, acy + t * vy)):
                return 0.0
    return best


def _farc_arc(a: Arc, b: Arc) -> float:
    best = min(_fpoint_arc(a.fstart, b), _fpoint_arc(a.fend, b),
               _fpoint_arc(b.fstart, a), _fpoint_arc(b.fend, a))
    dx, dy = b.fcentre[0] - a.fcentre[0], b.fcentre[1] - a.fcentre[1]
    dd = dx * dx + dy * dy
    if dd == 0:
        return best
    d = math.sqrt(dd)
    for s1 in (1, -1):
        if not _fin_span(a, (s1 * dx, s1 * dy)):
            continue
        for s2 in (1, -1):
            if _fin_span(b, (s2 * dx, s2 * dy)):
                best = min(best, abs(d + s2 * b.radius - s1 * a.radius))
    m = dd + a.radius ** 2 - b.radius ** 2
    big_delta = 4 * dd * a.radius ** 2 - m * m
    if big_delta >= 0:
        root = math.sqrt(big_delta)
        for sigma in (1, -1):
            px, py = -dy * sigma * root, dx * sigma * root
            if _fin_span(a, (m * dx + px, m * dy + py)) and \
                    _fin_span(b, ((m - 2 * dd) * dx + px, (m - 2 * dd) * dy + py)):
                return 0.0
    return best


def distance(p: Placed, q: Placed) -> float:
    """The least distance between two parts' centre lines, in floating point."""
    if isinstance(p, Segment) and isinstance(q, Segment):
        if _fsegments_cross(p, q):
            return 0.0
        return min(_fpoint_segment(p.fstart, q), _fpoint_segment(p.fend, q),
                   _fpoint_segment(q.fstart, p), _fpoint_segment(q.fend, p))
    if isinstance(p, Segment):
        assert isinstance(q, Arc)
        return _fsegment_arc(p, q)
    if isinstance(q, Segment):
        return _fsegment_arc(q, p)
    return _farc_arc(p, q)


# ---------------------------------------------------------------- exactly

def _in_span(arc: Arc, w: Vec) -> bool:
    return cross(arc.first_vector, w).sign() >= 0 and cross(w, arc.last_vector).sign() >= 0


def _root_in_span(arc: Arc, p: Vec, q: Vec, d: Q2) -> bool:
    """Whether the direction p + q·√d (each coordinate) is inside the arc."""
    f, last = arc.first_vector, arc.last_vector
    return (sign_with_root(cross(f, p), cross(f, q), d) >= 0
            and sign_with_root(cross(p, last), cross(q, last), d) >= 0)


def _xpoint_segment(p: Vec, s: Segment, limit: Fraction) -> bool:
    v, w = sub(s.end, s.start), sub(p, s.start)
    proj, vv = dot(w, v), dot(v, v)
    if proj.sign() <= 0:
        return dot(w, w) < limit * limit
    if proj >= vv:
        e = sub(p, s.end)
        return dot(e, e) < limit * limit
    c = cross(v, w)
    return c * c < vv * (limit * limit)


def _within_ring(square: Q2, lo: Q2 | Fraction, hi: Q2 | Fraction) -> bool:
    """lo < sqrt(square) < hi, exactly (square ≥ 0)."""
    if hi <= 0:
        return False
    return square < hi * hi and (lo <= 0 or square > lo * lo)


def _xpoint_arc(p: Vec, arc: Arc, limit: Fraction) -> bool:
    w = sub(p, arc.centre)
    ww = dot(w, w)
    if ww.sign() == 0:
        return arc.radius < limit
    if _in_span(arc, w):
        return _within_ring(ww, arc.radius - limit, arc.radius + limit)
    e0, e1 = sub(p, arc.start), sub(p, arc.end)
    return dot(e0, e0) < limit * limit or dot(e1, e1) < limit * limit


def _xpoint(p: Vec, part: Placed, limit: Fraction) -> bool:
    if isinstance(part, Segment):
        return _xpoint_segment(p, part, limit)
    return _xpoint_arc(p, part, limit)


def _xsegments_cross(s: Segment, u: Segment) -> bool:
    ab, cd = sub(s.end, s.start), sub(u.end, u.start)
    o1 = cross(ab, sub(u.start, s.start)).sign()
    o2 = cross(ab, sub(u.end, s.start)).sign()
    o3 = cross(cd, sub(s.start, u.start)).sign()
    o4 = cross(cd, sub(s.end, u.start)).sign()
    return o1 * o2 < 0 and o3 * o4 < 0


def _xsegment_arc(s: Segment, arc: Arc, limit: Fraction) -> bool:
    if (_xpoint_arc(s.start, arc, limit) or _xpoint_arc(s.end, arc, limit)
            or _xpoint_segment(arc.start, s, limit) or _xpoint_segment(arc.end, s, limit)):
        return True
    v = sub(s.end, s.start)
    vv = dot(v, v)
    ca = sub(arc.centre, s.start)
    proj = dot(ca, v)
    if proj.sign() > 0 and proj < vv:
        # from the centre towards the foot of the perpendicular, scaled by vv > 0
        g = add(scale(vv, scale(-1, ca)), scale(proj, v))
        c = cross(v, ca)
        delta_square_vv = c * c  # δ² · vv
        if g[0].sign() == 0 and g[1].sign() == 0:
            if arc.radius < limit:
                return True
        else:
            r = arc.radius
            if _in_span(arc, g) and _within_ring_scaled(delta_square_vv, vv, r - limit,
                                                        r + limit):
                return True
            if _in_span(arc, scale(-1, g)) and _within_ring_scaled(
                    delta_square_vv, vv, Fraction(-1), limit - r):
                return True
    ac = scale(-1, ca)
    half_b = dot(v, ac)
    disc = half_b * half_b - vv * (dot(ac, ac) - arc.radius ** 2)
    if disc.sign() < 0:
        return False
    for sigma in (1, -1):
        q = Q2(sigma)
        # the crossing at t = (-half_b + sigma·√disc) / vv, if 0 ≤ t ≤ 1
        if sign_with_root(-half_b, q, disc) < 0 or sign_with_root(vv + half_b, -q, disc) < 0:
            continue
        # its direction from the centre, scaled by vv: vv·ac - half_b·v + sigma·√disc·v
        p = sub(scale(vv, ac), scale(half_b, v))
        if _root_in_span(arc, p, scale(q, v), disc):
            return True
    return False


def _within_ring_scaled(square_k: Q2, k: Q2, lo: Fraction | int, hi: Fraction | int) -> bool:
    """lo < sqrt(square_k / k) < hi, exactly (k > 0, square_k ≥ 0)."""
    if hi <= 0:
        return False
    return square_k < k * (hi * hi) and (lo <= 0 or square_k > k * (lo * lo))


def _xarc_arc(a: Arc, b: Arc, limit: Fraction) -> bool:
    if (_xpoint_arc(a.start, b, limit) or _xpoint_arc(a.end, b, limit)
            or _xpoint_arc(b.start, a, limit) or _xpoint_arc(b.end, a, limit)):
        return True
    d = sub(b.centre, a.centre)
    dd = dot(d, d)
    if dd.sign() == 0:
        return False  # one centre: the ends decide (module docstring)
    for s1 in (1, -1):
        if not _in_span(a, scale(s1, d)):
            continue
        for s2 in (1, -1):
            # |d + k| < limit, k = s2·R2 - s1·R1
            k = s2 * b.radius - s1 * a.radius
            if _in_span(b, scale(s2, d)) and _within_ring(dd, -limit - k, limit - k):
                return True
    m = dd + (a.radius ** 2 - b.radius ** 2)
    big_delta = dd * (4 * a.radius ** 2) - m * m
    if big_delta.sign() < 0:
        return False
    perp = (-d[1], d[0])
    for sigma in (1, -1):
        # the crossings, from each centre, scaled by 2·dd: m·d ± √Δ·perp(d)
        q = scale(sigma, perp)
        if _root_in_span(a, scale(m, d), q, big_delta) and \
                _root_in_span(b, scale(m - 2 * dd, d), q, big_delta):
            return True
    return False


def closer_exactly(p: Placed, q: Placed, limit: Fraction) -> bool:
    """Whether the two centre lines come closer than ``limit``, in exact arithmetic."""
    if isinstance(p, Segment) and isinstance(q, Segment):
        return (_xsegments_cross(p, q)
                or _xpoint_segment(p.start, q, limit) or _xpoint_segment(p.end, q, limit)
                or _xpoint_segment(q.start, p, limit) or _xpoint_segment(q.end, p, limit))
    if isinstance(p, Segment):
        assert isinstance(q, Arc)
        return _xsegment_arc(p, q, limit)
    if isinstance(q, Segment):
        return _xsegment_arc(q, p, limit)
    return _xarc_arc(p, q, limit)


def _boxes_apart(a: Box, b: Box, gap: float) -> bool:
    return a[0] - b[2] > gap or b[0] - a[2] > gap or a[1] - b[3] > gap or b[1] - a[3] > gap


def _float(limit: Fraction) -> float:
    """float(limit), without the numbers module's generic path (asked for on
    every test of two parts)."""
    return limit.numerator / limit.denominator


def _filtered(box: Box, other: Box, fdistance: Callable[[], float],
              exactly: Callable[[], bool], limit: Fraction) -> bool:
    """"Closer than ``limit``?" by bounding boxes, then floating point far from
    the limit, else exactly (module docstring)."""
    fl = _float(limit)
    if _boxes_apart(box, other, fl + MARGIN):
        return False
    d = fdistance()
    if d < fl - MARGIN:
        return True
    if d > fl + MARGIN:
        return False
    return exactly()


def closer(p: Placed, q: Placed, limit: Fraction) -> bool:
    """Whether the two centre lines come closer than ``limit``."""
    return _filtered(p.box, q.box, lambda: distance(p, q),
                     lambda: closer_exactly(p, q, limit), limit)


def point_closer(p: Vec, part: Placed, limit: Fraction, fp: FVec | None = None) -> bool:
    """Whether the point comes closer than ``limit`` to the part's centre line
    (``fp``: the point in floating point, when the caller has it already)."""
    fp = to_float(p) if fp is None else fp
    return _filtered((fp[0], fp[1], fp[0], fp[1]), part.box, lambda: fpoint_distance(fp, part),
                     lambda: _xpoint(p, part, limit), limit)


def point_closer_exactly(p: Vec, part: Placed, limit: Fraction) -> bool:
    return _xpoint(p, part, limit)
