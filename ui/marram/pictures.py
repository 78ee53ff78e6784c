"""Pictures of real positions for the home page and the rules page: game records
of the standard tiles (ui/marram/data/pictures/, written by tools/make_pictures.py)
replayed through the engine, so that a picture can only show what the rules
allow; each names the tiles it outlines ("outline"). The pages draw them with
the board renderer (ui/marram/static/marram/pictures.js).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from engine import marram as engine
from engine.marram.view import drawn_board

FOLDER = Path(__file__).resolve().parent / "data" / "pictures"


def record_of(name: str) -> dict[str, Any]:
    record = json.loads((FOLDER / f"{name}.json").read_text())
    if not isinstance(record, dict):
        raise ValueError(f"the picture record {name!r} is not a JSON object")
    return record


@functools.cache
def picture(name: str) -> dict[str, Any]:
    """The position after the named record, as a spectator sees it (the board, the
    players, the fly and the frog), with the tiles to outline."""
    record = record_of(name)
    replay = engine.replay(record)
    if not replay.ok:
        raise RuntimeError(f"picture {name!r} does not replay: event {replay.error_index} "
                           f"is refused ({replay.error})")
    seen = engine.player_view(replay.state, None)
    # each tile drawn in full: a picture is drawn once, where it stands in the page
    return {"players": seen["players"], "board": drawn_board(replay.state),
            "creatures": seen["creatures"], "outline": record.get("outline", [])}
