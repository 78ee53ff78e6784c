"""A picture of the board for mail: PNG, since most mail clients show no SVG.

Drawn with Pillow from the same tile views the browser draws
(``engine.marram.view.tile_view`` and ``face_view``), in the colours and shapes of
ui/marram/static/marram/board.js, simplified where a picture this small gains
nothing (no grass tufts or sand dots). Nothing here knows a rule: the open
places and the tiles that may be flipped come from the seat's legal actions
(``GAME.legal_actions``).

Layout, in pixels (the tests work positions out from it):

- the board: the cell of position ``(x, y)`` has its top-left corner at
  ``(BOARD_LEFT + (x - x0) * TILE_PX, BOARD_TOP + (y - y0) * TILE_PX)``, where
  ``x0``/``y0`` are the smallest x/y of the laid tiles and the open places;
  a ruler of x values runs above the board and of y values left of it;
- the hand below it: each tile's front then its back, as printed (rotation 0),
  each labelled "T17 front" / "T17 back".

Each open place is a pale square with its position written in its middle
("3,-2"), the position a placement names in the mail notation.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from engine import marram as engine
from engine.marram.events import MarramEvent
from engine.marram.state import GameState
from engine.marram.view import Beast, FaceView, TileView, Token, face_view, tile_view
from games.game_ui import Picture

# ---------------------------------------------------------------- layout

TILE_PX = 60
"""One tile's square on the board and in the hand."""
MARGIN = 10
RULER = 18
"""The band for the ruler's numbers, above and left of the board."""
BOARD_LEFT = MARGIN + RULER
BOARD_TOP = MARGIN + RULER
HAND_GAP = 6
"""Between a tile's two faces."""
HAND_SPACING = 18
"""Between two tiles of the hand."""
LABEL_H = 18
SUPERSAMPLE = 2
"""Drawn at twice the size, then halved: smooth edges without an anti-aliasing
renderer."""

# ---------------------------------------------------------------- colours (board.js)

BACKGROUND = "#cfdcd3"
GRASS = "#74b04f"
SAND = "#efd99b"
SHORE = "#8a7d5c"
"""board.js's shore, rgba(70, 55, 20, 0.45), laid over grass and sand."""
OUTLINE = "#1d1d1b"
TILE_EDGE = "#6d6c63"
BEAST = {"blue": "#1f5fbf", "orange": "#e0801a", "worm": "#c27a6a", "any": "#c27a6a"}
BEAST_STRIPE = {"blue": "#8fb8f5", "orange": "#8f4306", "worm": "#6e3a2f", "any": "#1f5fbf"}
BEAST_WIDTH = {"blue": 13, "orange": 13, "worm": 12, "any": 13}
SADDLE = "#ff5fa8"
ITEM = {"gold": ("#f4c430", "#6b5000"), "silver": ("#e6e9ee", "#4d5560"),
        "flower": ("#f0609e", "#7d1747")}
PLAYER_COLOURS = ["#d7263d", "#f5c518", "#7b3fbf", "#f4f4f4"]
OPEN_FILL = "#eef3ef"
"""board.js's open place, white at 55% over the board's background."""
OPEN_INK = "#0b5d3b"
LABEL_INK = "#1d1d1b"
FLIP_MARK = "#ffffff"

# ---------------------------------------------------------------- tile geometry (board.js)

T3 = 100 / 3
C = 50.0
SIDE_MID = ((50.0, 0.0), (100.0, 50.0), (50.0, 100.0), (0.0, 50.0))
Point = tuple[float, float]


def _perim_point(p: float) -> Point:
    """The point at perimeter distance p, clockwise from the NW corner."""
    q = p % 400
    if q <= 100:
        return (q, 0.0)
    if q <= 200:
        return (100.0, q - 100)
    if q <= 300:
        return (300 - q, 100.0)
    return (0.0, 400 - q)


def _arc_span(k: int) -> tuple[float, float]:
    """A corner arc covers the outer third of both sides meeting there."""
    h = T3 if k % 2 == 0 else 50 - T3
    return (k * 50 - h, k * 50 + h)


def _span_points(a: float, b: float) -> list[Point]:
    out = [_perim_point(a)]
    c = math.floor(a / 100) * 100 + 100
    while c < b:
        if c > a:
            out.append(_perim_point(c))
        c += 100
    out.append(_perim_point(b))
    return out


@dataclass(frozen=True)
class _Run:
    arcs: tuple[int, ...]
    start: float
    end: float
    full: bool


def _runs_of(arcs: list[int]) -> list[_Run]:
    """The circular runs of adjacent arcs in a region."""
    found = set(arcs)
    if len(found) >= 8:
        return [_Run(tuple(range(8)), -T3, 400 - T3, True)]
    runs = []
    for k in sorted(found):
        if (k + 7) % 8 in found:
            continue
        run, j = [k], (k + 1) % 8
        length = _arc_span(k)[1] - _arc_span(k)[0]
        while j in found and j != k:
            run.append(j)
            length += _arc_span(j)[1] - _arc_span(j)[0]
            j = (j + 1) % 8
        start = _arc_span(k)[0]
        runs.append(_Run(tuple(run), start, start + length, False))
    return runs


def _lerp(a: Point, b: Point, f: float) -> Point:
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)


def _unit(dx: float, dy: float) -> Point:
    length = math.hypot(dx, dy) or 1.0
    return (dx / length, dy / length)


def _arc_anchor(k: int) -> Point:
    a, b = _arc_span(k)
    return _perim_point((a + b) / 2)


def _segment_points(sides: Sequence[int], reach: float, steps: int = 10) -> list[Point]:
    """Points along a beast segment: a straight or quarter-circle path between two
    side midpoints, or from one side midpoint towards the centre."""
    if len(sides) >= 2:
        a, b = SIDE_MID[sides[0]], SIDE_MID[sides[1]]
        if (sides[1] - sides[0]) % 4 == 2:
            return [_lerp(a, b, i / steps) for i in range(steps + 1)]
        k = (a[0] + b[0] - C, a[1] + b[1] - C)  # the corner both midpoints are 50 from
        a0 = math.atan2(a[1] - k[1], a[0] - k[0])
        a1 = math.atan2(b[1] - k[1], b[0] - k[0])
        if a1 - a0 > math.pi:
            a1 -= 2 * math.pi
        if a0 - a1 > math.pi:
            a1 += 2 * math.pi
        return [(k[0] + 50 * math.cos(a0 + (a1 - a0) * i / steps),
                 k[1] + 50 * math.sin(a0 + (a1 - a0) * i / steps)) for i in range(steps + 1)]
    m = SIDE_MID[sides[0]]
    return [_lerp(m, (C, C), reach / 50 * i / 6) for i in range(7)]


def _reaches(beasts: Sequence[Beast]) -> list[float]:
    """How far in each one-side segment reaches: as far as it can without touching
    the others (board.js reachesOf)."""
    fixed = [p for b in beasts if len(b["sides"]) >= 2 for p in _segment_points(b["sides"], 0)]
    reaches: dict[int, float] = {}
    ends = [i for i, b in enumerate(beasts) if len(b["sides"]) < 2]
    for i in ends:
        m = SIDE_MID[beasts[i]["sides"][0]]
        others = [p for j in ends if j != i
                  for p in _segment_points(beasts[j]["sides"], reaches.get(j, 34))]
        reach = 30.0
        for r in (47, 44, 41, 38, 35, 32):
            tip = _lerp(m, (C, C), r / 50)
            room = min((math.hypot(tip[0] - q[0], tip[1] - q[1]) for q in fixed + others),
                       default=math.inf)
            if room >= 15:
                reach = r
                break
        reaches[i] = reach
    return [reaches.get(i, 0.0) for i in range(len(beasts))]


def _item_positions(view: TileView | FaceView) -> list[tuple[str, Point]]:
    beast_sides = {s for b in view["beasts"] for s in b["sides"]}
    used: dict[int, int] = {}
    out = []
    for item in view["items"]:
        k = item["arc"]
        if k % 2 == 0:
            p = _lerp((C, C), _perim_point(k * 50), 0.66)
        else:
            p = _lerp((C, C), _arc_anchor(k), 0.74)
            side = (k - 1) // 2
            if side in beast_sides:  # along the side, off the beast crossing it
                along = ((1, 0), (0, 1), (-1, 0), (0, -1))[side]
                p = (p[0] + 10 * along[0], p[1] + 10 * along[1])
        n = used.get(k, 0)
        used[k] = n + 1
        if n:
            ux, uy = _unit(p[0] - C, p[1] - C)
            p = (p[0] - uy * 10 * n, p[1] + ux * 10 * n)
        out.append((item["kind"], p))
    return out


QUADRANTS = ((27, 27), (73, 27), (73, 73), (27, 73), (50, 24), (76, 50), (50, 76), (24, 50))


def _best_spot(candidates: list[Point], taken: list[tuple[Point, float]],
               radius: float) -> Point:
    def clearance(p: Point) -> float:
        best = min((math.hypot(p[0] - q[0], p[1] - q[1]) - r for q, r in taken),
                   default=math.inf)
        return min(best, p[0] - 1, p[1] - 1, 99 - p[0], 99 - p[1]) - radius

    best, score = candidates[0], -math.inf
    for c in candidates:
        s = min(clearance(c), 12)
        if s > score + 0.01:
            best, score = c, s
    return best


# ---------------------------------------------------------------- drawing


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


class _Pen:
    """Draws in tile units (0-100) onto a tile's square of the canvas."""

    def __init__(self, draw: ImageDraw.ImageDraw, left: float, top: float, size: float) -> None:
        self.draw, self.left, self.top, self.k = draw, left, top, size / 100

    def at(self, p: Point) -> Point:
        return (self.left + p[0] * self.k, self.top + p[1] * self.k)

    def polygon(self, points: list[Point], fill: str, outline: str | None = None,
                width: float = 0) -> None:
        self.draw.polygon([self.at(p) for p in points], fill=fill, outline=outline,
                          width=max(1, round(width * self.k)) if outline else 0)

    def line(self, points: list[Point], fill: str, width: float, round_ends: bool = False) -> None:
        w = max(1, round(width * self.k))
        self.draw.line([self.at(p) for p in points], fill=fill, width=w, joint="curve")
        if round_ends:
            for p in (points[0], points[-1]):
                self.disc(p, width / 2, fill)

    def disc(self, p: Point, r: float, fill: str, outline: str | None = None,
             width: float = 1) -> None:
        x, y = self.at(p)
        rk = r * self.k
        self.draw.ellipse((x - rk, y - rk, x + rk, y + rk), fill=fill, outline=outline,
                          width=max(1, round(width * self.k)) if outline else 0)

    def text(self, p: Point, words: str, size: float, fill: str) -> None:
        self.draw.text(self.at(p), words, fill=fill, anchor="mm",
                       font=_font(max(6, round(size * self.k))))


def _draw_terrain(pen: _Pen, view: TileView | FaceView) -> None:
    colours = {"G": GRASS, "S": SAND}
    regions = view["regions"]
    for region in regions:
        fill = colours[region["terrain"]]
        for run in _runs_of(region["arcs"]):
            if run.full:
                pen.polygon([(0, 0), (100, 0), (100, 100), (0, 100)], fill)
            else:
                pen.polygon([(C, C), *_span_points(run.start, run.end)], fill, SHORE, 0.8)
    # a region linking runs that do not touch: a band through the centre
    for region in regions:
        runs = _runs_of(region["arcs"])
        if len(runs) < 2:
            continue
        fill, w = colours[region["terrain"]], 13
        for run in runs:
            mid = _perim_point((run.start + run.end) / 2)
            ux, uy = _unit(mid[0] - C, mid[1] - C)
            px, py = -uy, ux
            a, b = _perim_point(run.start), _perim_point(run.end)
            if (b[0] - C) * px + (b[1] - C) * py < 0:
                px, py = -px, -py
            pen.polygon([(C - w * px, C - w * py), a,
                         *_span_points(run.start, run.end)[1:-1], b,
                         (C + w * px, C + w * py)], fill)
        pen.disc((C, C), w, fill)


def _draw_beasts(pen: _Pen, beasts: Sequence[Beast]) -> list[tuple[Point, float]]:
    """The beasts, bodies first; the places they take (for the symbols' layout)."""
    reaches = _reaches(beasts)
    taken: list[tuple[Point, float]] = []
    order = sorted(range(len(beasts)), key=lambda i: -len(beasts[i]["sides"]))
    for i in order:
        seg = beasts[i]
        kind, colour = seg["kind"], BEAST.get(seg["type"], BEAST["any"])
        w = BEAST_WIDTH.get(seg["type"], 13)
        points = _segment_points(seg["sides"], reaches[i] or 47, steps=16)
        taken += [(p, 8.5) for p in points]
        if len(seg["sides"]) >= 2:
            pen.line(points, OUTLINE, w + 3)
            pen.line(points, colour, w)
            pen.line(points, BEAST_STRIPE.get(seg["type"], OUTLINE), 2.5)
            if kind == "saddle":
                pen.disc(points[len(points) // 2], w / 2 + 3, SADDLE, OUTLINE, 1.5)
            continue
        tip = points[-1]
        pen.line(points, OUTLINE, w + 3)
        pen.line(points[:-1], colour, w)
        pen.line(points[:-2], BEAST_STRIPE.get(seg["type"], OUTLINE), 2.5)
        if kind == "head":  # a round head with two eyes
            pen.disc(tip, w / 2 + 2.5, colour, OUTLINE, 1.5)
            ux, uy = _unit(C - SIDE_MID[seg["sides"][0]][0], C - SIDE_MID[seg["sides"][0]][1])
            for s in (-1, 1):
                pen.disc((tip[0] - uy * 3.5 * s, tip[1] + ux * 3.5 * s), 1.8, "#ffffff")
        elif kind == "tail":  # tapering to a point
            m = SIDE_MID[seg["sides"][0]]
            ux, uy = _unit(C - m[0], C - m[1])
            base = points[-2]
            pen.polygon([(base[0] - uy * w / 2, base[1] + ux * w / 2),
                         (tip[0] + ux * 6, tip[1] + uy * 6),
                         (base[0] + uy * w / 2, base[1] - ux * w / 2)], colour, OUTLINE, 1.2)
        else:  # an end: a round cap
            pen.disc(tip, w / 2, colour, OUTLINE, 1.5)
    return taken


def _draw_tile(pen: _Pen, view: TileView | FaceView, token: Token | None,
               players: list[str]) -> None:
    """A laid tile (``tile_view``) with its token, or a face of a tile in the hand
    (``face_view``, no token)."""
    pen.polygon([(0, 0), (100, 0), (100, 100), (0, 100)], SAND)
    _draw_terrain(pen, view)
    taken = _draw_beasts(pen, view["beasts"])
    for kind, p in _item_positions(view):
        fill, ink = ITEM[kind]
        pen.disc(p, 6, fill, ink, 1.1)
        taken.append((p, 6.5))
    if view["spade"]:
        spot = (C, C) if not view["beasts"] else _best_spot([(C, C), *QUADRANTS], taken, 13)
        pen.disc(spot, 10.5, "#fbfaf4", OUTLINE, 1)
        pen.polygon([(spot[0] - 3.8, spot[1] - 1.5), (spot[0] + 3.8, spot[1] - 1.5),
                     (spot[0] + 3.8, spot[1] + 3.8), (spot[0], spot[1] + 8),
                     (spot[0] - 3.8, spot[1] + 3.8)], "#5a5a5a")
        pen.line([(spot[0], spot[1] - 8), (spot[0], spot[1] - 1.5)], "#2b2b2b", 1.7)
        taken.append((spot, 15))
    if token:
        if "side" in token:
            m = SIDE_MID[token["side"]]
            spot = _best_spot([_lerp(m, (C, C), f) for f in (0.3, 0.24, 0.36, 0.5)], taken, 12)
        else:
            arcs = next((r["arcs"] for r in view["regions"] if token["arc"] in r["arcs"]),
                        [token["arc"]])
            candidates = [_lerp((C, C), _arc_anchor(k), 0.6) for k in arcs] + [(C, C)]
            spot = _best_spot(candidates, taken, 12)
        colour = PLAYER_COLOURS[token["seat"] % len(PLAYER_COLOURS)]
        pen.disc(spot, 11, colour, "#111111", 1.6)
        name = players[token["seat"]] if token["seat"] < len(players) else "?"
        ink = "#111111" if colour in ("#f5c518", "#f4f4f4") else "#ffffff"
        pen.text(spot, name[:1].upper() + ("" if token["kind"] == "boot" else "*"), 13, ink)
    pen.draw.rectangle((*pen.at((0, 0)), *pen.at((100, 100))), outline=TILE_EDGE,
                       width=max(1, round(pen.k)))


def open_places(state: GameState, seat: int) -> list[tuple[int, int]]:
    """Where the seat may lay a tile now (none unless the game waits for its move)."""
    return sorted({(a["at"][0], a["at"][1]) for a in _actions(state, seat)
                   if a["type"] == "place"})


def flippable(state: GameState, seat: int) -> list[tuple[int, int]]:
    """The laid tiles the seat may flip now."""
    return sorted({(a["at"][0], a["at"][1]) for a in _actions(state, seat)
                   if a["type"] == "flip"})


def _actions(state: GameState, seat: int) -> list[MarramEvent]:
    return engine.GAME.legal_actions(state, seat)


@dataclass(frozen=True)
class Layout:
    """Where everything goes (see the module's docstring)."""

    x0: int
    y0: int
    cols: int
    rows: int
    places: list[tuple[int, int]]
    flips: list[tuple[int, int]]
    hand: list[str]
    width: int
    height: int

    @property
    def board_bottom(self) -> int:
        return BOARD_TOP + self.rows * TILE_PX

    @property
    def hand_top(self) -> int:
        return self.board_bottom + MARGIN + LABEL_H

    def cell(self, x: int, y: int) -> tuple[int, int]:
        """The top-left pixel of a position's square."""
        return (BOARD_LEFT + (x - self.x0) * TILE_PX, BOARD_TOP + (y - self.y0) * TILE_PX)

    def alt(self, state: GameState) -> str:
        """The picture in words, for mail clients that show no images."""
        laid = len(state.board)
        words = [f"The board: {laid} tile{'s' if laid != 1 else ''} laid."]
        if self.places:
            where = ", ".join(f"{x},{y}" for x, y in self.places[:12])
            more = f" and {len(self.places) - 12} more" if len(self.places) > 12 else ""
            words.append(f"Open places (where a tile can go): {where}{more}.")
        if self.flips:
            words.append("Tiles you may flip: "
                         + ", ".join(f"{x},{y}" for x, y in self.flips) + ".")
        if self.hand:
            words.append(f"Your hand: {', '.join(self.hand)}, each shown front and back.")
        return " ".join(words)


def layout(state: GameState, seat: int) -> Layout:
    places = open_places(state, seat)
    cells = [*state.board, *places] or [(0, 0)]
    x0, y0 = min(c[0] for c in cells), min(c[1] for c in cells)
    cols = max(c[0] for c in cells) - x0 + 1
    rows = max(c[1] for c in cells) - y0 + 1
    hand = list(state.hands[seat]) if 0 <= seat < len(state.hands) else []
    hand_width = len(hand) * _PAIR + max(len(hand) - 1, 0) * HAND_SPACING
    board_bottom = BOARD_TOP + rows * TILE_PX
    width = max(BOARD_LEFT + cols * TILE_PX, MARGIN + hand_width) + MARGIN
    height = (board_bottom + MARGIN + LABEL_H + TILE_PX + LABEL_H + MARGIN if hand
              else board_bottom + MARGIN)
    return Layout(x0, y0, cols, rows, places, flippable(state, seat), hand, width, height)


_PAIR = 2 * TILE_PX + HAND_GAP


def board_picture(state: GameState, seat: int) -> Picture:
    """The board as the seat sees it when its move is awaited: the laid tiles, the
    open places with their positions written in, the tiles it may flip, and its
    hand with both faces of each tile."""
    players = list(state.config.players)
    plan = layout(state, seat)
    width, height, hand = plan.width, plan.height, plan.hand
    flips = set(plan.flips)
    s = SUPERSAMPLE
    image = Image.new("RGB", (width * s, height * s), BACKGROUND)
    draw = ImageDraw.Draw(image)

    def cell(x: int, y: int) -> _Pen:
        left, top = plan.cell(x, y)
        return _Pen(draw, left * s, top * s, TILE_PX * s)

    for i in range(plan.cols):  # the ruler: x above, y to the left
        draw.text(((BOARD_LEFT + (i + 0.5) * TILE_PX) * s, (MARGIN + RULER / 2) * s),
                  str(plan.x0 + i), fill=LABEL_INK, anchor="mm", font=_font(12 * s))
    for j in range(plan.rows):
        draw.text(((MARGIN + RULER / 2) * s, (BOARD_TOP + (j + 0.5) * TILE_PX) * s),
                  str(plan.y0 + j), fill=LABEL_INK, anchor="mm", font=_font(12 * s))
    for pos in sorted(state.board):
        pen = cell(*pos)
        laid = tile_view(state, pos, state.board[pos])
        _draw_tile(pen, laid, laid["token"], players)
        if pos in flips:  # the position, for 'flip x,y rN'
            pen.draw.rounded_rectangle((*pen.at((22, 80)), *pen.at((78, 98))), radius=4 * s,
                                       fill=FLIP_MARK, outline=OPEN_INK, width=s)
            pen.text((50, 89), f"{pos[0]},{pos[1]}", 17, OPEN_INK)
    for pos in plan.places:
        pen = cell(*pos)
        pen.draw.rounded_rectangle((*pen.at((4, 4)), *pen.at((96, 96))), radius=8 * s,
                                   fill=OPEN_FILL, outline=OPEN_INK, width=2 * s)
        pen.text((50, 50), f"{pos[0]},{pos[1]}", 24, OPEN_INK)
    for name, creature in state.creatures.items():
        if creature.at is not None and creature.status in ("on_board", "eaten"):
            pen = cell(*creature.at)
            spot = (24, 68) if name == "fly" else (76, 68)
            pen.disc(spot, 12, "#ffffff", "#111111", 1.4)
            pen.text(spot, name.capitalize(), 10, "#111111")

    if hand:
        draw.text((MARGIN * s, (plan.board_bottom + MARGIN + LABEL_H / 2) * s),
                  "Your hand (as printed, rotation r0):", fill=LABEL_INK, anchor="lm",
                  font=_font(13 * s))
        catalogue = state.config.catalogue
        for i, tile_id in enumerate(hand):
            left = MARGIN + i * (_PAIR + HAND_SPACING)
            for j, face in enumerate(("front", "back")):
                x = left + j * (TILE_PX + HAND_GAP)
                pen = _Pen(draw, x * s, plan.hand_top * s, TILE_PX * s)
                _draw_tile(pen, face_view(catalogue[tile_id], face), None, players)
                draw.text(((x + TILE_PX / 2) * s, (plan.hand_top + TILE_PX + LABEL_H / 2) * s),
                          f"{tile_id} {face}", fill=LABEL_INK, anchor="mm", font=_font(12 * s))

    small = image.reduce(s) if s > 1 else image
    out = io.BytesIO()
    # a palette of 128 keeps it to a few tens of KB; octree and zlib's default
    # level are the fast choices (median cut and zlib -9 cost 50 ms more for 10%)
    small.quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(out, "PNG",
                                                                       compress_level=6)
    return Picture(out.getvalue(), plan.alt(state), width, height)
