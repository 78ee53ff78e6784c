"""A picture of the table for mail: PNG, since most mail clients show no SVG.

Drawn with Pillow from the engine's own geometry, as the page draws it
(``engine.make_a_snake.view``: every part a line between two points or an arc
round a centre), in the colours of static/make_a_snake/draw.js: one panel a
snake, all to one scale, with the head, tongue, tiles, tail, the ribbon and
distance at the end, the lollipops of the hunt; and for the seat about to
connect a tile, both placements (``connect_preview``), each labelled up or down,
with a cross on one the advanced rules refuse.

Layout, in pixels: panels of PANEL_PX square side by side (two a row; the hunt's
one snake SINGLE_PX), each with a caption band of CAPTION_PX above; two lines of
the die, the tile taken and the stacks below.
"""
from __future__ import annotations

import io
import math
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from engine.make_a_snake import GAME
from engine.make_a_snake.pieces import COLOURS
from engine.make_a_snake.state import State
from engine.make_a_snake.view import PartView, PlayerView, Preview, SnakeDrawing, player_view
from games.game_ui import Picture

PANEL_PX = 300
CAPTION_PX = 22
MARGIN = 10
GAP = 10
FOOTER_PX = 44
"""Two lines under the panels: the die and the tile taken; the stacks."""
SINGLE_PX = 420
"""The one panel of the lollipop hunt, larger."""
PER_ROW = 2
SUPERSAMPLE = 2
MIN_SPAN = 40.0
"""The table is at least 40 cm across, so a short snake is not drawn huge."""
PAD = 6.0

COLOUR_HEX = {"red": "#d33a3a", "green": "#2f9e4f", "blue": "#2f6fd1", "yellow": "#e8b416"}
OUTLINE = "#1d2a22"
BACKGROUND = "#f6f8f1"
GRID = "#d8e3d0"
TONGUE = "#c2185b"
RIBBON = "#6a1b9a"
INK = "#1d1d1b"
REFUSED = "#b00020"

Point = tuple[float, float]


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def part_points(part: PartView) -> list[Point]:
    """A part's centre line as points: a line's ends, an arc every 5 degrees."""
    if "line" in part:
        (x0, y0), (x1, y1) = part["line"]
        return [(x0, y0), (x1, y1)]
    arc = part["arc"]
    (cx, cy), r = arc["centre"], arc["radius"]
    steps = max(2, math.ceil(arc["sweep"] / 5))
    angles = [math.radians(arc["from"] + arc["sweep"] * i / steps) for i in range(steps + 1)]
    return [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in angles]


def _all_parts(view: PlayerView, previews: list[Preview]) -> list[PartView]:
    parts: list[PartView] = []
    for drawing in view["drawing"]:
        parts += drawing["head"]["parts"]
        for tile in drawing["tiles"]:
            parts += tile["parts"]
        if drawing["tail"]:
            parts += drawing["tail"]["parts"]
    for p in previews:
        parts += p["parts"]
        for t in p["turned"]:
            parts += t["parts"]
    return parts


def table_box(view: PlayerView, previews: list[Preview]) -> tuple[float, float, float]:
    """The plane's square shown in every panel (centimetres): x0, y0, span."""
    points = [p for part in _all_parts(view, previews) for p in part_points(part)]
    points.append((0.0, 7.0))
    for pop in view.get("lollipops", []):
        (x, y), r = pop["centre"], pop["radius"]
        points += [(x - r, y - r), (x + r, y + r)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    span = max(max(xs) - min(xs), max(ys) - min(ys), MIN_SPAN) + 2 * PAD
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return cx - span / 2, cy - span / 2, span


class _Pen:
    """Draws in centimetres of the plane (y north) onto one panel."""

    def __init__(self, draw: ImageDraw.ImageDraw, left: float, top: float, size: float,
                 box: tuple[float, float, float]) -> None:
        self.draw, self.left, self.top = draw, left, top
        self.x0, self.y0, span = box
        self.k = size / span
        self.size = size

    def at(self, p: Point) -> Point:
        return (self.left + (p[0] - self.x0) * self.k,
                self.top + self.size - (p[1] - self.y0) * self.k)

    def path(self, points: list[Point], fill: str, width: float) -> None:
        w = max(1, round(width * self.k))
        self.draw.line([self.at(p) for p in points], fill=fill, width=w, joint="curve")

    def disc(self, p: Point, r: float, fill: str | None, outline: str | None = None,
             width: float = 0.4) -> None:
        x, y = self.at(p)
        rk = r * self.k
        self.draw.ellipse((x - rk, y - rk, x + rk, y + rk), fill=fill, outline=outline,
                          width=max(1, round(width * self.k)) if outline else 0)

    def text(self, p: Point, words: str, size: int, fill: str = INK) -> None:
        self.draw.text(self.at(p), words, fill=fill, anchor="mm", font=_font(size))


def _piece(pen: _Pen, parts: list[PartView], colour: str | None, *,
           faded: bool = False) -> None:
    fill = COLOUR_HEX.get(colour, "#888888") if colour is not None else "#888888"
    if faded:  # a preview: lighter, drawn over the table
        r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
        fill = "#{:02x}{:02x}{:02x}".format(*((c + 255 * 2) // 3 for c in (r, g, b)))
    points = [p for part in parts for p in part_points(part)]
    pen.path(points, OUTLINE, 4.5)
    pen.path(points, fill, 4.0)
    # the joint at the tile's start, across its body
    first = parts[0]
    sx, sy = first["start"]
    if "line" in first:
        (x0, y0), (x1, y1) = first["line"]
        n = math.hypot(x1 - x0, y1 - y0) or 1
        nx, ny = -(y1 - y0) / n, (x1 - x0) / n
    else:
        cx, cy = first["arc"]["centre"]
        n = math.hypot(sx - cx, sy - cy) or 1
        nx, ny = (sx - cx) / n, (sy - cy) / n
    pen.path([(sx + 2 * nx, sy + 2 * ny), (sx - 2 * nx, sy - 2 * ny)], OUTLINE, 0.4)


def _snake(pen: _Pen, drawing: SnakeDrawing, distance: float | None, font: int) -> None:
    colour = drawing["colour"]
    for tile in drawing["tiles"]:
        _piece(pen, tile["parts"], tile["colour"])
    tail = drawing["tail"]
    if tail:
        part = tail["parts"][0]  # a line
        (sx, sy), (ex, ey) = part["start"], part["end"]
        n = math.hypot(ex - sx, ey - sy) or 1
        nx, ny = -(ey - sy) / n, (ex - sx) / n
        pen.draw.polygon([pen.at((sx + 2 * nx, sy + 2 * ny)), pen.at((ex, ey)),
                          pen.at((sx - 2 * nx, sy - 2 * ny))], fill=COLOUR_HEX[colour],
                         outline=OUTLINE)
    # the head: an oval from the neck to 5 north, eyes, and the forked tongue to 7
    pen.path([(0, 4.6), (0, 6.3)], TONGUE, 0.45)
    pen.path([(0, 6.3), (-0.6, 7.2)], TONGUE, 0.45)
    pen.path([(0, 6.3), (0.6, 7.2)], TONGUE, 0.45)
    x0, y0 = pen.at((-2.6, 5.7))
    x1, y1 = pen.at((2.6, -0.5))
    pen.draw.ellipse((x0, y0, x1, y1), fill=COLOUR_HEX[colour], outline=OUTLINE,
                     width=max(1, round(0.4 * pen.k)))
    for x in (-1.1, 1.1):
        pen.disc((x, 3.4), 0.55, "#ffffff")
        pen.disc((x, 3.5), 0.28, "#111111")
    if tail and distance is not None:
        tx, ty = tail["parts"][0]["end"]
        tip = (tx, ty)
        pen.path([(0, 7), tip], RIBBON, 0.7)
        mid = ((tip[0]) / 2 + 1.5, (7 + tip[1]) / 2 + 1.5)
        pen.text(mid, f"{distance:.2f} cm", font, RIBBON)


def previews_for(state: State, seat: int) -> list[Preview]:
    """Both placements of the tile the seat is about to connect (the server's
    ``connect_preview``); none when the seat is not connecting."""
    if state.phase != "connect" or state.current != seat or state.finished:
        return []
    return GAME.connect_previews(state)


def alt_text(view: PlayerView, names: list[str], previews: list[Preview]) -> str:
    """The picture in words, for a mail client that shows no images."""
    said = []
    for i, drawing in enumerate(view["drawing"]):
        who = "the snake" if view["mode"] == "lollipop" else f"{names[i]}'s snake"
        tiles = ", ".join(f"{t['tile']} {t['side']}" for t in drawing["tiles"]) or "no tiles"
        distance = view["distances"][i] if i < len(view["distances"]) else None
        said.append(f"{who} ({drawing['colour']} head): {tiles}"
                    + (f"; tongue to tail {distance:.2f} cm" if distance is not None else ""))
    if view.get("lollipops"):
        said.append(f"lollipops touched: {len(view.get('touched', []))} of 4")
    for p in previews:
        said.append(f"{view['taken']} {p['side']}: "
                    + ("allowed" if p["allowed"] else "not allowed") + f" ({p['why']})")
    return "The table: " + "; ".join(said) + "."


def table_picture(state: State, seat: int | None) -> Picture:
    view = player_view(state, seat)
    names = list(state.players)
    previews = previews_for(state, seat) if seat is not None else []
    box = table_box(view, previews)
    drawings = view["drawing"]
    cols = min(PER_ROW, len(drawings))
    rows = math.ceil(len(drawings) / cols)
    size = SINGLE_PX if len(drawings) == 1 else PANEL_PX
    width = MARGIN * 2 + cols * size + (cols - 1) * GAP
    height = MARGIN * 2 + rows * (size + CAPTION_PX) + (rows - 1) * GAP + FOOTER_PX
    s = SUPERSAMPLE
    image = Image.new("RGB", (width * s, height * s), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, drawing in enumerate(drawings):
        col, row = i % cols, i // cols
        left = MARGIN + col * (size + GAP)
        top = MARGIN + row * (size + CAPTION_PX + GAP)
        distance = view["distances"][i] if i < len(view["distances"]) else None
        who = "The snake" if view["mode"] == "lollipop" else names[i]
        tiles = len(drawing["tiles"])
        caption = f"{who} · {drawing['colour']} · {tiles} tile{'' if tiles == 1 else 's'}"
        if distance is not None:
            caption += f" · {distance:.2f} cm"
        if i == seat and view["mode"] != "lollipop":
            caption += " (you)"
        draw.text((left * s, (top + CAPTION_PX / 2) * s), caption, fill=INK, anchor="lm",
                  font=_font(13 * s))
        ptop = top + CAPTION_PX
        draw.rectangle((left * s, ptop * s, (left + size) * s, (ptop + size) * s),
                       fill="#ffffff", outline=GRID, width=s)
        pen = _Pen(draw, left * s, ptop * s, size * s, box)
        x0, y0, span = box
        for g in range(math.ceil(x0 / 10) * 10, math.floor(x0 + span) + 1, 10):
            pen.path([(g, y0), (g, y0 + span)], GRID, 0.2)
        for g in range(math.ceil(y0 / 10) * 10, math.floor(y0 + span) + 1, 10):
            pen.path([(x0, g), (x0 + span, g)], GRID, 0.2)
        pen.path([(x0 + 2, y0 + 2), (x0 + 12, y0 + 2)], "#555555", 0.5)
        pen.text((x0 + 7, y0 + 4), "10 cm", 11 * s, "#555555")
        _snake(pen, drawing, distance, 12 * s)
        for j, pop in enumerate(view.get("lollipops", [])):  # on top: touched or not
            hit = j in view.get("touched", [])
            px, py = pop["centre"]
            pen.disc((px, py), pop["radius"], "#ec407a" if hit else "#ffffff",
                     "#ad1457", 0.5)
        mine = view["mode"] == "lollipop" or i == seat
        taken = view["taken"]
        if previews and mine and taken is not None:  # previews are of the tile taken
            for p in previews:
                for t in p["turned"]:
                    _piece(pen, t["parts"], t["colour"], faded=True)
                _piece(pen, p["parts"], taken.split("-")[0], faded=True)
                end = tuple(p["end_point"])
                label = p["side"] + ("" if p["allowed"] else " ✗")
                pen.text((end[0] + 2.5, end[1] + 2.5), label, 13 * s,
                         INK if p["allowed"] else REFUSED)
    first = []
    if view["die"]:
        first.append(f"Die: {view['die'][0]} and {view['die'][1]}")
    if view["taken"]:
        first.append(f"taken: {view['taken']}")
    lines = [" · ".join(first),
             "Stacks: " + ", ".join(f"{c} {view['stacks'][c]}" for c in COLOURS)]
    for n, line in enumerate(lines):
        draw.text((MARGIN * s, (height - FOOTER_PX + 10 + 18 * n) * s), line, fill=INK,
                  anchor="lm", font=_font(13 * s))
    small = image.reduce(s) if s > 1 else image
    out = io.BytesIO()
    small.quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(out, "PNG",
                                                                       compress_level=6)
    return Picture(out.getvalue(), alt_text(view, names, previews), width, height)
