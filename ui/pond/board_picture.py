"""A picture of the pond for mail: PNG, since most mail clients show no SVG.

Drawn with Pillow in the colours and shapes of ui/pond/static/pond/board.js:
an egg is an oval, a tadpole a round head with a tail, a frog a wide body with
two eyes and four legs; light pieces are cream with a dark outline, dark pieces
dark green with a light outline. Nothing here knows a rule: the positions where
an egg may go come from the engine's legal actions.

Layout, in pixels (the tests work positions out from it):

- the cell of position ``(x, y)`` has its top-left corner at
  ``(BOARD_LEFT + x * CELL, BOARD_TOP + y * CELL)``; the x of each column is
  written above the board, the y of each row left of it;
- an empty position where the player may place an egg carries its position
  ("2,3") in its middle, as a move names it;
- the latest egg or move is outlined in ``LAST``; what it developed, in
  ``DEVELOPED``;
- below the board, one line a player: their colour's egg, name, spawn, pile
  (the picture is as wide as the longest line needs).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from engine.pond import GAME
from engine.pond.pieces import COLOURS, Face, Piece
from engine.pond.state import GameState
from games.game_ui import Picture

CELL = 64
MARGIN = 10
RULER = 18
BOARD_LEFT = MARGIN + RULER
BOARD_TOP = MARGIN + RULER
LINE_H = 30
"""One player's line below the board."""
SUPERSAMPLE = 2

WATER = "#9fd3e0"
WATER_EDGE = "#4f8fa3"
OPEN_INK = "#1f5668"
LAST = "#d7263d"
DEVELOPED = "#f5a31a"
INK = "#1d1d1b"
PIECE_FILL = ("#f6efd9", "#2f5d3a")
PIECE_EDGE = ("#3d3522", "#0f2416")
PIECE_MARK = ("#3d3522", "#e8f3e0")
"""The eyes and the tail's stripe: dark on light pieces, light on dark ones."""
BACKGROUND = "#ffffff"


@dataclass(frozen=True)
class Layout:
    size: int
    lines: tuple[str, ...]
    """One line a player below the board."""

    @property
    def width(self) -> int:
        text = max(round(_font(13).getlength(line)) for line in self.lines)
        return max(BOARD_LEFT + self.size * CELL, MARGIN + LINE_H + 4 + text) + MARGIN

    @property
    def board_bottom(self) -> int:
        return BOARD_TOP + self.size * CELL

    @property
    def height(self) -> int:
        return self.board_bottom + MARGIN + 2 * LINE_H + MARGIN

    def cell(self, x: int, y: int) -> tuple[int, int]:
        return BOARD_LEFT + x * CELL, BOARD_TOP + y * CELL


def player_lines(state: GameState, seat: int) -> tuple[str, ...]:
    return tuple(f"{name}{' (you)' if i == seat else ''}, {COLOURS[i]}: {state.spawns[i]} "
                 f"eggs in the spawn, {state.piles[i]} in the pile"
                 for i, name in enumerate(state.players))


def layout(state: GameState, seat: int) -> Layout:
    return Layout(state.pond.size, player_lines(state, seat))


def alt_text(state: GameState, seat: int) -> str:
    """The picture in words, for mail clients that show no images."""
    size = state.pond.size
    players = "; ".join(
        f"{name} plays {COLOURS[s]}, {state.spawns[s]} egg{'' if state.spawns[s] == 1 else 's'} "
        "in the spawn, "
        f"{state.piles[s]} in the pile" for s, name in enumerate(state.players))
    pieces = ", ".join(f"{piece} at {x},{y}" for (x, y), piece in state.board.pieces())
    return (f"The {size}x{size} pond; you play {COLOURS[seat]}. {players}. "
            f"Pieces: {pieces or 'none'}.")


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def draw_piece(draw: ImageDraw.ImageDraw, piece: Piece, left: float, top: float,
               cell: float) -> None:
    """One piece in the cell whose top-left corner is (left, top)."""
    fill, edge, mark = (PIECE_FILL[piece.colour], PIECE_EDGE[piece.colour],
                        PIECE_MARK[piece.colour])
    cx, cy = left + cell / 2, top + cell / 2
    k = cell / 100
    width = max(1, round(3 * k))
    if piece.face == Face.EGG:
        draw.ellipse((cx - 22 * k, cy - 29 * k, cx + 22 * k, cy + 29 * k), fill=fill,
                     outline=edge, width=width)
    elif piece.face == Face.TADPOLE:
        tail = [(cx - 2 * k, cy + 10 * k), (cx + 10 * k, cy + 26 * k), (cx + 2 * k, cy + 40 * k),
                (cx + 14 * k, cy + 44 * k), (cx + 18 * k, cy + 28 * k), (cx + 10 * k, cy + 8 * k)]
        draw.polygon(tail, fill=fill, outline=edge, width=width)
        draw.ellipse((cx - 20 * k, cy - 30 * k, cx + 20 * k, cy + 14 * k), fill=fill,
                     outline=edge, width=width)
        for ex in (-8, 8):
            draw.ellipse((cx + (ex - 4) * k, cy - 14 * k, cx + (ex + 4) * k, cy - 6 * k),
                         fill=mark)
    else:
        for sx in (-1, 1):  # legs: back and front on each side
            draw.line([(cx + sx * 22 * k, cy + 10 * k), (cx + sx * 38 * k, cy + 30 * k),
                       (cx + sx * 26 * k, cy + 38 * k)], fill=edge, width=round(6 * k))
            draw.line([(cx + sx * 20 * k, cy - 10 * k), (cx + sx * 36 * k, cy - 26 * k)],
                      fill=edge, width=round(6 * k))
        draw.ellipse((cx - 30 * k, cy - 24 * k, cx + 30 * k, cy + 30 * k), fill=fill,
                     outline=edge, width=width)
        for ex in (-14, 14):
            draw.ellipse((cx + (ex - 9) * k, cy - 36 * k, cx + (ex + 9) * k, cy - 18 * k),
                         fill=fill, outline=edge, width=width)
            draw.ellipse((cx + (ex - 4) * k, cy - 31 * k, cx + (ex + 4) * k, cy - 23 * k),
                         fill=mark)


def board_picture(state: GameState, seat: int) -> Picture:
    plan = layout(state, seat)
    s = SUPERSAMPLE
    image = Image.new("RGB", (plan.width * s, plan.height * s), BACKGROUND)
    draw = ImageDraw.Draw(image)
    size = state.pond.size
    draw.rectangle((BOARD_LEFT * s, BOARD_TOP * s, (BOARD_LEFT + size * CELL) * s,
                    plan.board_bottom * s), fill=WATER)
    for i in range(size):
        x, _ = plan.cell(i, 0)
        draw.text(((x + CELL / 2) * s, (MARGIN + RULER / 2) * s), str(i), fill=INK,
                  anchor="mm", font=_font(12 * s))
        _, y = plan.cell(0, i)
        draw.text(((MARGIN + RULER / 2) * s, (y + CELL / 2) * s), str(i), fill=INK,
                  anchor="mm", font=_font(12 * s))
    for i in range(size + 1):
        draw.line([((BOARD_LEFT + i * CELL) * s, BOARD_TOP * s),
                   ((BOARD_LEFT + i * CELL) * s, plan.board_bottom * s)], fill=WATER_EDGE,
                  width=s)
        draw.line([(BOARD_LEFT * s, (BOARD_TOP + i * CELL) * s),
                   ((BOARD_LEFT + size * CELL) * s, (BOARD_TOP + i * CELL) * s)],
                  fill=WATER_EDGE, width=s)
    egg_spots = {tuple(a["at"]) for a in GAME.legal_actions(state, seat) if a["type"] == "egg"}
    last = state.last
    for pos in state.board.positions():
        left, top = plan.cell(*pos)
        piece = state.board[pos]
        if last is not None and (pos == last.moved_to or pos in last.developed):
            colour = LAST if pos == last.moved_to else DEVELOPED
            inset = 3
            draw.rectangle(((left + inset) * s, (top + inset) * s, (left + CELL - inset) * s,
                            (top + CELL - inset) * s), outline=colour, width=3 * s)
        if piece is not None:
            draw_piece(draw, piece, left * s, top * s, CELL * s)
        elif pos in egg_spots:
            draw.text(((left + CELL / 2) * s, (top + CELL / 2) * s), f"{pos[0]},{pos[1]}",
                      fill=OPEN_INK, anchor="mm", font=_font(13 * s))
    for i, line in enumerate(plan.lines):
        top = plan.board_bottom + MARGIN + i * LINE_H
        draw_piece(draw, Piece(i, Face.EGG), MARGIN * s, top * s, LINE_H * s)
        draw.text(((MARGIN + LINE_H + 4) * s, (top + LINE_H / 2) * s), line, fill=INK,
                  anchor="lm", font=_font(13 * s))
    image = image.resize((plan.width, plan.height), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return Picture(out.getvalue(), alt_text(state, seat), plan.width, plan.height)
