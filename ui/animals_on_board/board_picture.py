"""The picture of the table a "your turn" mail carries (a PNG drawn with
Pillow): the middle's groups with their numbers and prices, the seat's own ark,
and each player's crates and ark count. It is drawn from the seat's view
(``GAME.view``), the same answer the API gives that seat, so it shows nothing
the seat may not see: the face-down tile is a card back, the others' arks are
counts. Each tile is drawn as the page draws it: its animal, name and number."""
from __future__ import annotations

import io
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.animals_on_board import State
from engine.animals_on_board.view import SeatView, seat_view
from games.game_ui import Picture
from ui.animals_on_board.species import name_of, species

TILE_W, TILE_H, GAP = 48, 66, 6
"""A tile's size in the picture: the page's tile (64 by 88) made smaller."""
MARGIN = 14
LABEL_H = 22
PLAYER_H = 16
PER_ROW = 13
"""Tiles a row holds: a 4-player round's group of 12 face up and 1 face down."""
WIDTH = 2 * MARGIN + PER_ROW * (TILE_W + GAP)
INK, MUTED, BACK = "#222222", "#666666", "#30406b"


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, singular for one: "1 crate", "3 tiles"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _rows(view: SeatView, names: list[str]) -> list[tuple[str, list[str]]]:
    """The picture's rows, top to bottom: a heading and its tiles."""
    rows: list[tuple[str, list[str]]] = []
    prices = view.get("prices") or []
    for g, group in enumerate(view["middle"]):
        price = prices[g] if g < len(prices) else len(group)
        rows.append((f"Group {g}: {counted(len(group), 'tile')}, take for "
                     f"{counted(price, 'crate')}", group))
    if view.get("drawn"):
        rows.append(("Your three tiles: keep one", view["drawn"]))
    you = view.get("you")
    if you is not None:
        rows.append((f"Your ark ({names[you]}): {counted(len(view.get('ark') or []), 'tile')}, "
                     f"{counted(view['crates'][you], 'crate')}", view.get("ark") or []))
    return rows


def _players(view: SeatView, names: list[str]) -> list[str]:
    """Each player in a few words: crates, ark count, in the round, the flag."""
    said = []
    for s, name in enumerate(names):
        marks = [counted(view['crates'][s], "crate"), f"ark {view['ark_sizes'][s]}"]
        if s in view.get("resigned", []):
            marks.append("resigned")
        elif s in view.get("kept", []):
            marks.append("has chosen a tile")
        elif s in view.get("awaiting", []):
            marks.append("is choosing a tile")
        elif not view["finished"]:
            marks.append("in the round" if s in view.get("in_round", []) else "out of this round")
        if s == view.get("start_player"):
            marks.append("flag")
        said.append(f"{name}: " + ", ".join(marks))
    return said


def alt_text(view: SeatView, names: list[str]) -> str:
    """The picture in words (the HTML's alt): the same rows, the tiles named."""
    parts = [f"Round {view['round']}, {counted(view['stack'], 'tile')} left in the stack."]
    for heading, tiles in _rows(view, names):
        parts.append(f"{heading}: " + (", ".join(f"{t} ({name_of(t)})" for t in tiles)
                                        or "none") + ".")
    parts.append("; ".join(_players(view, names)) + ".")
    return " ".join(parts)


SCALE = 3
"""Each tile is drawn this many times larger, then scaled down: smooth edges."""
INK_SHAPE, PAPER = "#2b2b2b", "#ffffff"


def _mix(colour: str, share: float) -> tuple[int, int, int]:
    """``colour`` at ``share`` over white: the tint behind the animal."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    r, g, b = (round(255 + (c - 255) * share) for c in rgb)
    return (r, g, b)


def _animal(draw: ImageDraw.ImageDraw, kind: dict[str, Any], ox: float, oy: float,
            scale: float) -> None:
    """The species' drawing (species.json, as board.js's animalSvg draws it) with
    its box's corner at ``ox, oy``."""
    for shape in kind["drawing"]:
        fill = {"ink": INK_SHAPE, "paper": PAPER}.get(shape.get("fill", ""), kind["color"])
        if "e" in shape:
            cx, cy, rx, ry = shape["e"]
            draw.ellipse((ox + (cx - rx) * scale, oy + (cy - ry) * scale,
                          ox + (cx + rx) * scale, oy + (cy + ry) * scale), fill=fill)
            continue
        numbers = shape.get("p") or shape["l"]
        points = [(ox + numbers[i] * scale, oy + numbers[i + 1] * scale)
                  for i in range(0, len(numbers), 2)]
        if "p" in shape:
            draw.polygon(points, fill=fill)
            continue
        width = shape.get("w", 2) * scale
        draw.line(points, fill=fill, width=max(1, round(width)), joint="curve")
        for x, y in (points[0], points[-1]):  # round caps, as the page's strokes
            draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=fill)


@cache
def _tile_image(tile: str) -> Image.Image:
    """One tile as board.js's tileSvg draws it (64 by 88 units): the animal on a
    band of its colour, its name, its number and its code; the face-down tile a
    card back."""
    unit = TILE_W * SCALE / 64
    big = Image.new("RGBA", (TILE_W * SCALE, TILE_H * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    card = (1.5 * unit, 1.5 * unit, 62.5 * unit, 86.5 * unit)
    if tile == "?":
        draw.rounded_rectangle(card, 7 * unit, fill=BACK, outline=INK, width=round(2 * unit))
        w, h = 58, 82
        for k in range(-h, w, 8):  # the card back's stripes (y = x - k)
            x1, x2 = max(k, 0), min(k + h, w)
            draw.line(((x1 + 3) * unit, (x1 - k + 3) * unit, (x2 + 3) * unit, (x2 - k + 3) * unit),
                      fill="#4a5c94", width=round(2 * unit))
        draw.text((32 * unit, 52 * unit), "?", fill="white", font=_font(round(18 * unit)),
                  anchor="ms")
    else:
        kind = species()[tile[0]]
        draw.rounded_rectangle(card, 7 * unit, fill="white", outline=kind["color"],
                               width=round(3 * unit))
        draw.rounded_rectangle((4 * unit, 4 * unit, 60 * unit, 48 * unit), 5 * unit,
                               fill=_mix(kind["color"], 0.14))
        _animal(draw, kind, 5 * unit, 7 * unit, 0.54 * unit)
        draw.text((32 * unit, 59 * unit), kind["name"], fill=INK, font=_font(round(8.5 * unit)),
                  anchor="ms")
        draw.text((32 * unit, 79 * unit), tile[1:], fill=INK, font=_font(round(18 * unit)),
                  anchor="ms")
        draw.text((59 * unit, 85 * unit), tile, fill=MUTED, font=_font(round(8 * unit)),
                  anchor="rs")
    return big.resize((TILE_W, TILE_H), Image.Resampling.LANCZOS)


def _tile(image: Image.Image, x: int, y: int, tile: str) -> None:
    drawn = _tile_image(tile)
    image.paste(drawn, (x, y), drawn)


def draw_view(view: SeatView, names: list[str]) -> Picture:
    rows = _rows(view, names)
    tile_rows = sum(max(1, -(-len(tiles) // PER_ROW)) for _, tiles in rows)
    players = _players(view, names)
    height = (2 * MARGIN + LABEL_H + len(players) * PLAYER_H + len(rows) * LABEL_H
              + tile_rows * (TILE_H + GAP))
    image = Image.new("RGB", (WIDTH, height), "#f6f3ea")
    draw = ImageDraw.Draw(image)
    y = MARGIN
    stack = counted(view["stack"], "tile")
    draw.text((MARGIN, y), f"Round {view['round']} · {stack} in the stack",
              fill=INK, font=_font(15))
    y += LABEL_H
    for line in players:
        draw.text((MARGIN, y), line, fill=MUTED, font=_font(12))
        y += PLAYER_H
    for heading, tiles in rows:
        draw.text((MARGIN, y + 4), heading, fill=INK, font=_font(13))
        y += LABEL_H
        if not tiles:
            draw.text((MARGIN, y + 4), "(none)", fill=MUTED, font=_font(12))
        for i, tile in enumerate(tiles):
            row, col = divmod(i, PER_ROW)
            _tile(image, MARGIN + col * (TILE_W + GAP), y + row * (TILE_H + GAP), tile)
        y += max(1, -(-len(tiles) // PER_ROW)) * (TILE_H + GAP)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return Picture(out.getvalue(), alt_text(view, names), WIDTH, height)


def board_picture(state: State, seat: int) -> Picture:
    names = list(state.config.players)
    return draw_view(seat_view(state, seat), names)
