"""The board renderer (ui/marram/static/marram/board.js) in a real browser.

Debian's chromium is driven through the Python ``playwright`` package (never
``playwright install``) by the ``chromium`` fixture of tests/browser/conftest.py.
A throwaway folder holds board.js, board.css and a tiny page; a local HTTP
server on 127.0.0.1 serves it (ES modules do not load from file://). The views
are real: an Animals game played by the engine from a fixed seed, at its end and
in the middle. No database is used.
"""
from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "ui" / "marram" / "static" / "marram"
BEAST_NAMES = {"blue": "blue snake", "orange": "orange snake", "worm": "worm", "any": "Beastly"}

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Marram board test</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="board.css">
<style>
  body { margin: 0; padding: 12px; background: #f3f1ea; font-family: sans-serif; }
  svg.marram-board { width: 1100px; height: 800px; }
  #hand { margin-top: 8px; display: flex; gap: 14px; }
  #hand figure { margin: 0; text-align: center; font-size: 12px; }
</style>
</head>
<body>
<svg id="board" xmlns="http://www.w3.org/2000/svg"></svg>
<div id="hand"></div>
<script type="module">
  import * as B from "./board.js";
  window.B = B;
  window.clicked = [];
  window.tileClicks = [];
  window.boardReady = true;
</script>
</body>
</html>
"""


# ---------------------------------------------------------------------------
# views from the engine

def drawn_view(state: Any, seat: int | None = None) -> dict[str, Any]:
    """The player view with each tile drawn in full, as a page has it once
    drawings.js has filled in the drawings the board names."""
    from engine import marram as engine
    from engine.marram.view import drawn_board

    return {**engine.player_view(state, seat), "board": drawn_board(state)}


@pytest.fixture(scope="module")
def game() -> dict[str, Any]:
    from engine.marram.replays import replay_events
    from engine.marram.selfplay import play

    state, record, _ = play("animals", "long", 3, seed=5)
    mid = replay_events(record.config, record.events[:60]).state
    # a state where the fly (and maybe the frog) is on the board
    events = record.events
    critter = None
    for n in range(60, len(events), 5):
        s = replay_events(record.config, events[:n]).state
        if any(c.status == "on_board" for c in s.creatures.values()):
            critter = s
            if all(c.status != "waiting" for c in s.creatures.values()):
                break
    return {
        "final": drawn_view(state),
        "mid": drawn_view(mid, 0),
        "mid_frontier": sorted(mid.frontier),
        "critter": drawn_view(critter) if critter is not None else None,
        "mid_state": mid,
    }


def hand_faces(state: Any, seat: int) -> list[dict[str, Any]]:
    """tile_view-like objects for both faces of each tile in a hand (what a page passes)."""
    out = []
    catalogue = state.config.catalogue
    for tile_id in state.hands[seat]:
        tile = catalogue[tile_id]
        for face in ("front", "back"):
            o = tile.oriented(face, 0)
            items = [{"arc": i.arc, "kind": i.kind} for i in tile.face(face).items]
            out.append({
                "tile": tile_id, "face": face, "rotation": 0, "terrain": o.terrain,
                "regions": [{"arcs": list(r.arcs), "terrain": r.terrain, "items": []}
                            for r in o.regions],
                "items": items,
                "beasts": [{"type": s.type, "kind": s.kind, "sides": list(s.sides),
                            "feature_type": s.type} for s in o.segments],
                "spade": tile.spade,
                "flips_left": state.rules.flips_per_tile if tile.spade else 0,
                "token": None,
            })
    return out


# ---------------------------------------------------------------------------
# browser plumbing

@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("board-site")
    shutil.copy(STATIC / "board.js", root / "board.js")
    shutil.copy(STATIC / "board.css", root / "board.css")
    (root / "index.html").write_text(PAGE)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def end_headers(self) -> None:
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

    handler = functools.partial(Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def page(chromium: Any, site: str) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1140, "height": 1000},
                                  device_scale_factor=1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(site)
    pg.wait_for_function("window.boardReady === true")
    yield pg
    context.close()
    assert not errors, errors


RENDER = """([view, options]) => {
  const svg = document.getElementById('board');
  const opts = {...options,
    onCellClick: (pos) => window.clicked.push(pos),
    onTileClick: (tv) => window.tileClicks.push(tv.at)};
  window.board = window.B.renderBoard(svg, view, opts);
  return svg.querySelectorAll('g.tile').length;
}"""


def render(page: Any, view: dict[str, Any], **options: Any) -> int:
    return page.evaluate(RENDER, [view, options])


def tile_info(page: Any) -> dict[tuple[int, int], dict[str, Any]]:
    rows = page.eval_on_selector_all("svg#board g.tile", """els => els.map(e => ({
        x: +e.dataset.x, y: +e.dataset.y, tile: e.dataset.tile,
        title: e.querySelector(':scope > title').textContent,
        tokens: [...e.querySelectorAll('g.token')].map(t => [+t.dataset.seat, t.dataset.kind]),
        beasts: [...e.querySelectorAll('g.beast')].map(b => [b.dataset.type, b.dataset.kind]),
        items: [...e.querySelectorAll('g.item')].map(i => i.dataset.kind),
        spade: !!e.querySelector('g.spade'),
        ring: (e.querySelector('g.flip-ring') || {dataset: {}}).dataset.segments || null,
    }))""")
    return {(r["x"], r["y"]): r for r in rows}


def check_board(page: Any, view: dict[str, Any]) -> None:
    info = tile_info(page)
    assert len(info) == len(view["board"])
    names = [str(n) for n in view["players"]]
    for tv in view["board"]:
        got = info[tuple(tv["at"])]
        assert got["tile"] == tv["tile"]
        title = got["title"]
        assert title.startswith(f"{tv['tile']} ") and f"at {tv['at'][0]},{tv['at'][1]}" in title
        # beasts: one drawn group per segment, each named in the title
        assert sorted(got["beasts"]) == sorted([b["type"], b["kind"]] for b in tv["beasts"])
        for b in tv["beasts"]:
            word = "Beastly body" if b["type"] == "any" else f"{BEAST_NAMES[b['type']]} {b['kind']}"
            assert word in title, (word, title)
        assert sorted(got["items"]) == sorted(i["kind"] for i in tv["items"])
        # spade and its ring: one ring segment per flip left, none when it cannot flip
        assert got["spade"] == tv["spade"]
        if tv["spade"]:
            assert f"{tv['flips_left']} flip" in title or "cannot be flipped" in title
            assert got["ring"] == (str(tv["flips_left"]) if tv["flips_left"] else None)
        # tokens appear as glyphs with the owner's seat and kind, named in the title
        if tv["token"]:
            t = tv["token"]
            assert got["tokens"] == [[t["seat"], t["kind"]]]
            assert f"{names[t['seat']]}'s {t['kind']}" in title
        else:
            assert got["tokens"] == []
    tokens = page.eval_on_selector_all("svg#board g.tile g.token", "els => els.length")
    assert tokens == sum(1 for tv in view["board"] if tv["token"])


def view_box(page: Any) -> list[float]:
    return [float(v) for v in page.get_attribute("svg#board", "viewBox").split()]


# ---------------------------------------------------------------------------
# tests

def test_final_board(page: Any, game: dict[str, Any], artifacts_dir: Path) -> None:
    view = game["final"]
    assert render(page, view) == len(view["board"])
    check_board(page, view)
    # beasts of every kind the engine left on the board are drawn with their end marks
    kinds = {(b["type"], b["kind"]) for tv in view["board"] for b in tv["beasts"]}
    assert {("blue", "head"), ("blue", "tail"), ("worm", "saddle")} <= kinds  # seed 5's
    assert page.locator("g.beast-blue.kind-head path.head").count() >= 1
    assert page.locator("g.beast-blue.kind-tail path.tail").count() >= 1
    assert page.locator("g.beast-worm.kind-saddle path.saddle").count() >= 1
    # the whole board fits: every tile lies inside the viewBox
    x, y, w, h = view_box(page)
    for tv in view["board"]:
        tx, ty = tv["at"]
        assert x <= tx * 100 and tx * 100 + 100 <= x + w
        assert y <= ty * 100 and ty * 100 + 100 <= y + h
    page.locator("svg#board").screenshot(path=str(artifacts_dir / "final-board.png"))


def test_mid_game_highlights_and_last_move(page: Any, game: dict[str, Any],
                                           artifacts_dir: Path) -> None:
    view = game["mid"]
    targets = [list(p) for p in game["mid_frontier"][:6]]
    last = view["board"][-1]["at"]
    assert render(page, view, highlights=targets, lastMove=last) == len(view["board"])
    check_board(page, view)
    assert page.locator("g.highlight").count() == len(targets)
    assert page.locator(f'g.last-move[data-x="{last[0]}"][data-y="{last[1]}"]').count() == 1
    page.locator("svg#board").screenshot(path=str(artifacts_dir / "mid-game.png"))

    # clicking a highlight calls onCellClick with its position
    x, y = targets[0]
    page.click(f'g.highlight[data-x="{x}"][data-y="{y}"]')
    assert page.evaluate("window.clicked") == [[x, y]]
    # and so does Enter on a focused highlight (keyboard users)
    x2, y2 = targets[-1]
    page.focus(f'g.highlight[data-x="{x2}"][data-y="{y2}"]')
    page.keyboard.press("Enter")
    assert page.evaluate("window.clicked") == [[x, y], [x2, y2]]
    # a laid tile calls onTileClick
    tx, ty = view["board"][0]["at"]
    page.click(f'g.tile[data-x="{tx}"][data-y="{ty}"]', position={"x": 8, "y": 8})
    assert page.evaluate("window.tileClicks") == [[tx, ty]]


def test_pan_and_zoom(page: Any, game: dict[str, Any], artifacts_dir: Path) -> None:
    view = game["mid"]
    targets = [list(p) for p in game["mid_frontier"][:3]]
    render(page, view, highlights=targets)
    fitted = view_box(page)

    # keyboard zoom when the svg has focus
    page.focus("svg#board")
    page.keyboard.press("+")
    page.keyboard.press("+")
    zoomed = view_box(page)
    assert zoomed[2] < fitted[2] * 0.7
    page.keyboard.press("ArrowRight")
    assert view_box(page)[0] > zoomed[0]
    page.locator("svg#board").screenshot(path=str(artifacts_dir / "zoomed.png"))
    page.keyboard.press("0")
    assert view_box(page) == pytest.approx(fitted)

    # wheel zoom around the pointer
    box = page.locator("svg#board").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"document.getElementById('board').viewBox.baseVal.width < {fitted[2]}")

    # dragging pans and is not a click (from a highlight, so fit to have it on screen)
    page.evaluate("window.board.fit()")
    before = view_box(page)
    hx, hy = targets[0]
    target = page.locator(f'g.highlight[data-x="{hx}"][data-y="{hy}"] rect').bounding_box()
    sx, sy = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + 60, sy + 30, steps=6)
    page.mouse.up()
    after = view_box(page)
    assert after[0] < before[0] and after[1] < before[1]
    assert page.evaluate("window.clicked") == []

    # two pointers moving apart pinch-zoom in
    page.evaluate("window.board.fit()")
    pinch = page.evaluate("""() => {
      const svg = document.getElementById('board');
      const r = svg.getBoundingClientRect();
      const y = r.top + r.height / 2;
      const fire = (type, id, x) => svg.dispatchEvent(new PointerEvent(type, {
        pointerId: id, pointerType: 'touch', clientX: x, clientY: y, bubbles: true,
        isPrimary: id === 1}));
      const before = svg.viewBox.baseVal.width;
      fire('pointerdown', 1, r.left + 400);
      fire('pointerdown', 2, r.left + 600);
      fire('pointermove', 2, r.left + 650);
      fire('pointermove', 2, r.left + 700);
      fire('pointerup', 1, r.left + 400);
      fire('pointerup', 2, r.left + 700);
      return [before, svg.viewBox.baseVal.width];
    }""")
    assert pinch[1] == pytest.approx(pinch[0] * 200 / 300, rel=0.02)

    # fit() from the render result
    page.evaluate("window.board.fit()")
    assert view_box(page) == pytest.approx(fitted)

    # a re-render (next move) keeps the player's view; fit: true refits
    page.keyboard.press("+")
    kept = view_box(page)
    render(page, view)
    assert view_box(page) == pytest.approx(kept)


def test_creatures(page: Any, game: dict[str, Any], artifacts_dir: Path) -> None:
    view = game["critter"]
    assert view is not None, "with seed 5 the fly reaches the board"
    render(page, view)
    check_board(page, view)
    for name, c in view["creatures"].items():
        glyph = page.locator(f"g.creature-{name}")
        if c["status"] == "on_board":
            assert glyph.count() == 1
            x, y = c["at"]
            title = page.locator(f'g.tile[data-x="{x}"][data-y="{y}"] > title').text_content()
            assert f"the {name} is here" in title
            assert glyph.locator("text").text_content() == name.capitalize()
        elif c["status"] == "eaten":
            # shown faded where the snake caught it
            assert glyph.locator("text").text_content() == f"{name.capitalize()} (eaten)"
        else:
            assert glyph.count() == 0
    page.locator("svg#board").screenshot(path=str(artifacts_dir / "creatures.png"))
    on_board = [c for c in view["creatures"].values() if c["status"] == "on_board"]
    x, y = on_board[0]["at"]
    page.evaluate("([x, y]) => window.board.panZoom.setViewBox({x, y, w: 400, h: 300})",
                  [x * 100 - 150, y * 100 - 100])
    page.locator("svg#board").screenshot(path=str(artifacts_dir / "creatures-zoomed.png"))


def test_hand_tiles(page: Any, game: dict[str, Any], artifacts_dir: Path) -> None:
    state = game["mid_state"]
    faces = hand_faces(state, state.current)
    assert faces
    count = page.evaluate("""(faces) => {
      const hand = document.getElementById('hand');
      for (const tv of faces) {
        const fig = document.createElement('figure');
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        svg.setAttribute('class', 'marram-tile');
        svg.setAttribute('viewBox', '-2 -2 104 104');
        const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
        svg.appendChild(g);
        fig.appendChild(svg);
        const cap = document.createElement('figcaption');
        cap.textContent = tv.tile + ' ' + tv.face;
        fig.appendChild(cap);
        hand.appendChild(fig);
        window.B.renderTile(g, tv);
      }
      return hand.querySelectorAll('svg.marram-tile > g > title').length;
    }""", faces)
    assert count == len(faces)
    titles = page.eval_on_selector_all("#hand svg > g > title",
                                       "els => els.map(e => e.textContent)")
    for tv, title in zip(faces, titles, strict=True):
        assert title.startswith(f"{tv['tile']} ({tv['face']})")
        for b in tv["beasts"]:
            if b["type"] != "any":
                assert f"{BEAST_NAMES[b['type']]} {b['kind']}" in title
    page.locator("#hand").screenshot(path=str(artifacts_dir / "hand.png"))
    # a re-render (turning a tile in hand) redraws in place and keeps the patterns
    ok = page.evaluate("""(tv) => {
      const g = document.querySelector('#hand svg > g');
      window.B.renderTile(g, tv);
      window.B.renderTile(g, {...tv, rotation: 1});
      const fills = [...g.querySelectorAll('.patch')].map(p => p.getAttribute('fill'));
      return g.querySelectorAll(':scope > title').length === 1
        && fills.every(f => document.querySelector(f.slice(4, -1)) !== null);
    }""", faces[0])
    assert ok


def test_every_symbol(page: Any, artifacts_dir: Path) -> None:
    """A made-up board showing every beast kind, item, ring and token (a visual key)."""
    def tv(at, terrain, beasts=(), items=(), spade=False, flips=0, token=None, links=()):
        return {"at": list(at), "tile": f"X{at[0]}{at[1]}", "face": "front", "rotation": 0,
                "terrain": terrain, "links": [list(link) for link in links],
                "items": [{"arc": a, "kind": k} for a, k in items],
                "beasts": [{"type": t, "kind": k, "sides": list(s), "feature_type": t}
                           for t, k, s in beasts],
                "spade": spade, "flips_left": flips, "token": token}

    board = [
        tv((0, 0), "GGSSGGSS", [("blue", "head", [1]), ("blue", "body", [3, 0])],
           token={"seat": 0, "kind": "pitchfork", "side": 1}),
        tv((1, 0), "GGGSSSGG", [("blue", "body", [3, 1])], items=[(0, "gold"), (2, "silver")]),
        tv((2, 0), "SGGGSSSS", [("blue", "tail", [3])], items=[(6, "flower")],
           token={"seat": 1, "kind": "boot", "arc": 2}),
        tv((0, 1), "GSGSGSGS", [("orange", "end", [0]), ("orange", "body", [1, 2])],
           links=[(0, 4)]),
        tv((1, 1), "SSSSSSSS", [("orange", "end", [3])], spade=True, flips=3),
        tv((2, 1), "GGGGGGGG", spade=True, flips=2, items=[(5, "gold")],
           token={"seat": 2, "kind": "boot", "arc": 0}),
        tv((0, 2), "SSGGGSSS", [("worm", "end", [0]), ("worm", "saddle", [2, 1])]),
        tv((1, 2), "GGSSSSGG", [("worm", "body", [3, 1])], spade=True, flips=1),
        tv((3, 0), "GGGGSSSS", [("blue", "head", [0]), ("blue", "body", [3, 1])],
           token={"seat": 0, "kind": "pitchfork", "side": 0}),
        tv((2, 2), "GSSSGGGS", [("worm", "end", [3]), ("any", "body", [0, 2])], spade=True,
           flips=0, token={"seat": 3, "kind": "pitchfork", "side": 0}),
    ]
    view = {"players": ["Ann", "Bob", "Cy", "Dee"], "board": board,
            "creatures": {"fly": {"status": "on_board", "at": [1, 1], "hops": 3},
                          "frog": {"status": "on_board", "at": [1, 1], "hops": 1}}}
    assert render(page, view, lastMove=[2, 2], highlights=[[3, 1]]) == len(board)
    check_board(page, view)
    title = page.locator('g.tile[data-x="0"][data-y="1"] > title').text_content()
    assert "grass linked across the centre" in title
    assert page.locator("g.link").count() == 1
    assert page.locator("g.tile g.token-pitchfork").count() == 3
    assert page.locator("g.tile g.token-boot").count() == 2
    # tokens wear their seat's colour (playerColours) and letter
    render(page, view, playerColours=["#123456", "#654321", "#abcdef", "#fedcba"])
    badge = page.locator('g.tile[data-x="2"][data-y="0"] g.token > circle').first
    assert badge.get_attribute("fill") == "#654321"
    assert page.locator('g.tile[data-x="2"][data-y="0"] g.token-label text').text_content() == "B"
    render(page, view, lastMove=[2, 2], highlights=[[3, 1]])
    page.locator("svg#board").screenshot(path=str(artifacts_dir / "symbols.png"))
    page.evaluate("window.board.panZoom.setViewBox({x: -5, y: -5, w: 210, h: 160})")
    page.locator("svg#board").screenshot(path=str(artifacts_dir / "symbols-zoomed.png"))
