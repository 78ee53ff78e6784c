"""The project's own animals for the species letters A to L: a name, a colour
and a drawing (ellipses, polygons and strokes in a box 100 by 70, facing left).
One table, a static file, read by the pages' script (the board and the replay)
and by the mail picture alike."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

TABLE = Path(__file__).parent / "static" / "animals_on_board" / "species.json"


@cache
def species() -> dict[str, dict[str, Any]]:
    table: dict[str, dict[str, Any]] = json.loads(TABLE.read_text())
    return table


def name_of(tile: str) -> str:
    """``"C4"`` -> ``"Camel 4"``; the face-down tile ``"?"`` -> ``"face-down tile"``."""
    if tile == "?":
        return "face-down tile"
    return f"{species()[tile[0]]['name']} {tile[1]}"
