"""The site's icon, drawn here: a grass tile crossed by a band of sand.

Browsers ask every site for /favicon.ico, the admin and the API docs included;
the pages link to the same address. Drawn once per process with Pillow from the
geometry below, so the picture lives in code rather than in a binary file.
"""

from __future__ import annotations

import functools
import io

from PIL import Image, ImageDraw

GRASS = "#74b04f"
SAND = "#efd99b"
# In units of a 16-unit square: the tile's corner radius, and the sand band,
# which covers the points whose x + y lies between 9 and 19.
CORNER = 3
BAND = [(0, 9), (9, 0), (16, 0), (16, 3), (3, 16), (0, 16)]
SIZES = [(16, 16), (32, 32), (48, 48), (64, 64)]
DRAWN_PX = 256  # drawn large, then scaled down into each size of the .ico


def draw(size: int = DRAWN_PX) -> Image.Image:
    unit = size / 16
    tile = Image.new("L", (size, size), 0)
    ImageDraw.Draw(tile).rounded_rectangle((0, 0, size - 1, size - 1), radius=CORNER * unit,
                                           fill=255)
    picture = Image.new("RGBA", (size, size), GRASS)
    ImageDraw.Draw(picture).polygon([(x * unit, y * unit) for x, y in BAND], fill=SAND)
    picture.putalpha(tile)  # transparent outside the rounded tile
    return picture


@functools.cache
def favicon_ico() -> bytes:
    out = io.BytesIO()
    draw().save(out, format="ICO", sizes=SIZES)
    return out.getvalue()
