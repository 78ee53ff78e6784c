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


def played(events: int):
    """A standard Animals game played by the engine's own random players."""
    from engine.marram import new_game, step
    from engine.marram.selfplay import play

    _, record, _ = play("animals", "long", 2, 7)
    state = new_game(record.config)
    for event in record.events[:events]:
        step(state, event)
    return state


def drawn(tile: dict, table: dict) -> dict:
    """What a page makes of a board tile (ui/marram/static/marram/drawings.js)."""
    d = table[tile["drawing"]]
    out = {k: v for k, v in tile.items() if k != "drawing"}
    return {**out, "terrain": d["terrain"], "regions": d["regions"], "items": d["items"],
            "beasts": [{**d["beasts"][b["segment"]], "feature_type": b["feature_type"]}
                       for b in tile["beasts"]]}


def test_the_board_names_each_tiles_drawing_and_the_table_draws_it_in_full():
    from engine.marram.catalogue import standard
    from engine.marram.view import drawings, drawn_board, tile_view

    table = drawings(standard())
    for events in (1, 60, 150):
        state = played(events)
        view = player_view(state, 0)
        assert len(view["board"]) == len(state.board) > 0
        for tile in view["board"]:
            at = tuple(tile["at"])
            assert not {"terrain", "regions", "items"} & set(tile)
            assert drawn(tile, table) == tile_view(state, at, state.board[at])
    # a late board (96 tiles) is about half the size of its tiles drawn in full
    assert len(json.dumps(view["board"])) < 0.55 * len(json.dumps(drawn_board(state)))


def test_the_hands_name_each_faces_drawing_and_the_table_draws_it_as_printed():
    from engine.marram.catalogue import standard
    from engine.marram.view import drawings, face_view

    catalogue = standard()
    table = drawings(catalogue)
    state = played(40)
    view = player_view(state, 0)
    assert set(view["hand_tiles"]) == {t for hand in state.hands for t in hand}
    for tile_id, faces in view["hand_tiles"].items():
        for face, shown in faces.items():
            tile = catalogue[tile_id]
            assert shown == {"drawing": f"{tile_id}.{face}.0", "spade": tile.spade}
            # what the page draws (drawings.js drawnFace) is the face drawn in full
            full = face_view(tile, face)
            d = table[shown["drawing"]]
            assert {**d, "spade": shown["spade"]} == {
                k: full[k] for k in ("terrain", "regions", "items", "beasts", "spade")}


def test_the_table_holds_each_face_at_each_rotation_and_inverted_only_with_a_spade():
    from engine.marram.catalogue import standard
    from engine.marram.view import drawings

    catalogue = standard()
    table = drawings(catalogue)
    spades = sum(1 for t in catalogue.tiles.values() if t.spade)
    assert len(table) == 8 * len(catalogue.tiles) + 8 * spades
    some = next(t for t in catalogue.tiles.values() if t.spade)
    assert f"{some.id}.back.3.inverted" in table and f"{some.id}.front.0" in table
    plain = next(t for t in catalogue.tiles.values() if not t.spade)
    assert f"{plain.id}.front.1.inverted" not in table
    # a quarter turn moves every arc on by two
    turned = table[f"{plain.id}.front.1"]["terrain"]
    assert turned == table[f"{plain.id}.front.0"]["terrain"][-2:] + \
        table[f"{plain.id}.front.0"]["terrain"][:-2]


def test_a_custom_catalogues_tiles_come_drawn_in_full():
    state = replay(sand_circle()).state
    assert state.config.catalogue.name == "custom"
    view = player_view(state, 0)
    assert all("drawing" not in t and "terrain" in t for t in view["board"])
    faces = [f for tile in view["hand_tiles"].values() for f in tile.values()]
    assert faces and all("drawing" not in f and "terrain" in f for f in faces)
