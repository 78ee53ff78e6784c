"""The picture of the table a "your turn" mail carries (a PNG drawn with
Pillow): the middle's groups with their numbers and prices, the seat's own ark,
and each player's crates and ark count. It is drawn from the seat's view
(``GAME.view``), the same answer the API gives that seat, so it shows nothing
the seat may not see: the face-down tile is a card back, the others' arks are
counts."""
from __future__ import annotations

import io
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.animals_on_board import GAME
from ui import Picture
from ui.animals_on_board.species import name_of, species

TILE_W, TILE_H, GAP = 40, 56, 6
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


def _rows(view: dict[str, Any], names: list[str]) -> list[tuple[str, list[str]]]:
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


def _players(view: dict[str, Any], names: list[str]) -> list[str]:
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


def alt_text(view: dict[str, Any], names: list[str]) -> str:
    """The picture in words (the HTML's alt): the same rows, the tiles named."""
    parts = [f"Round {view['round']}, {counted(view['stack'], 'tile')} left in the stack."]
    for heading, tiles in _rows(view, names):
        parts.append(f"{heading}: " + (", ".join(f"{t} ({name_of(t)})" for t in tiles)
                                        or "none") + ".")
    parts.append("; ".join(_players(view, names)) + ".")
    return " ".join(parts)


def _tile(draw: ImageDraw.ImageDraw, x: int, y: int, tile: str) -> None:
    box = (x, y, x + TILE_W, y + TILE_H)
    if tile == "?":
        draw.rounded_rectangle(box, 6, fill=BACK, outline=INK, width=2)
        for k in range(-TILE_H, TILE_W, 8):  # the card back's stripes
            draw.line((x + max(k, 0), y + max(-k, 0),
                       x + min(k + TILE_H, TILE_W), y + min(TILE_H, TILE_W - k)),
                      fill="#4a5c94", width=2)
        draw.text((x + TILE_W / 2, y + TILE_H / 2), "?", fill="white", font=_font(24),
                  anchor="mm")
        return
    info = species()[tile[0]]
    draw.rounded_rectangle(box, 6, fill="white", outline=info["color"], width=3)
    size = 18
    gx, gy = x + (TILE_W - size) / 2, y + 5
    draw.polygon([(gx + px * size, gy + py * size) for px, py in info["glyph"]],
                 fill=info["color"])
    draw.text((x + TILE_W / 2, y + 40), tile[1], fill=INK, font=_font(18), anchor="ms")
    draw.text((x + TILE_W / 2, y + TILE_H - 5), tile, fill=MUTED, font=_font(10), anchor="ms")


def draw_view(view: dict[str, Any], names: list[str]) -> Picture:
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
            _tile(draw, MARGIN + col * (TILE_W + GAP), y + row * (TILE_H + GAP), tile)
        y += max(1, -(-len(tiles) // PER_ROW)) * (TILE_H + GAP)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return Picture(out.getvalue(), alt_text(view, names), WIDTH, height)


def board_picture(state: Any, seat: int) -> Picture:
    names = list(state.config.players)
    return draw_view(GAME.view(state, seat), names)
