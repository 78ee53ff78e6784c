"""The player view: what anyone may see of a game, and never the deck order."""
from __future__ import annotations

import json

from engine.marram import player_view, replay
from engine.marram.record import parse_record

from .test_cli import EXAMPLES, GOLDEN


def sand_circle():
    """The spec's example: a sand circle with a flower, completed by bob's tile D."""
    path = EXAMPLES / "sand-circle-classic.json"
    if not path.exists():
        path = GOLDEN / "spec-sand-circle-classic.json"
    return json.loads(path.read_text())["record"]


def test_the_view_never_shows_the_deck_order_or_undrawn_tiles():
    raw = sand_circle()
    raw["events"] = raw["events"][:1]  # after ann's first tile
    state = replay(raw).state
    view = json.dumps(player_view(state, 1))
    undrawn = parse_record(raw).config.deck[state.drawn:]
    assert undrawn and not any(f'"{t}"' in view for t in undrawn)
    assert '"deck"' not in view
    assert player_view(state, 1)["tiles_left"] == len(undrawn)


def test_features_on_request_name_every_region_and_are_complete_when_closed():
    state = replay(sand_circle()).state
    plain = player_view(state, 0)
    assert "features" not in plain and "feature" not in plain["board"][0]["regions"][0]
    view = player_view(state, 0, features=True)
    ids = {r["feature"] for t in view["board"] for r in t["regions"]}
    assert ids <= {int(k) for k in view["features"]}
    # the sand corners around grid point (1, 1) are one complete patch:
    # 1 bulge and B's flower; its boot went home when it scored
    corners = {(0, 0): 4, (1, 0): 6, (0, 1): 2, (1, 1): 0}
    tiles = {tuple(t["at"]): t for t in view["board"]}
    sand = {next(r["feature"] for r in tiles[p]["regions"] if arc in r["arcs"])
            for p, arc in corners.items()}
    assert len(sand) == 1
    feature = view["features"][str(sand.pop())]
    assert feature == {"kind": "sand patch", "complete": True, "size": 4, "tokens": [],
                       "bulges": 1, "gold": 0, "silver": 0, "flower": 1}
    # a grass patch still open somewhere is not complete
    assert any(not f["complete"] for f in view["features"].values())
