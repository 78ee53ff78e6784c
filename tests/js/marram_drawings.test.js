// Unit tests of the tiles' drawings on Marram's pages (ui/marram/static/marram/drawings.js):
// a board tile names its drawing, and the page fills it in from the server's table.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  DRAWINGS_URL, drawnFace, drawnTile, drawnView, loadDrawings,
} from "../../ui/marram/static/marram/drawings.js";

const table = {
  "T9.back.0": {
    terrain: "GGSSGGGG",
    regions: [{ arcs: [2, 3], terrain: "S", items: [] }, { arcs: [0, 1, 4, 5, 6, 7], terrain: "G", items: [] }],
    items: [],
    beasts: [{ type: "worm", kind: "end", sides: [3] }],
  },
  "T9.front.0": { terrain: "GGGGGGGG", regions: [], items: [], beasts: [] },
  "T9.back.1": {
    terrain: "SSGGGGSS",
    regions: [{ arcs: [0, 1, 6, 7], terrain: "S", items: ["gold"] }, { arcs: [2, 3, 4, 5], terrain: "G", items: [] }],
    items: [{ arc: 0, kind: "gold" }],
    beasts: [{ type: "worm", kind: "end", sides: [0] }, { type: "blue", kind: "bend", sides: [1, 2] }],
  },
};

const laid = {
  tile: "T9", face: "back", rotation: 1, inverted: false, drawing: "T9.back.1", at: [2, -1],
  beasts: [{ segment: 1, feature_type: "blue" }], spade: false, flips_left: 0, token: null,
};

test("a tile is drawn from the table: its terrain, regions and items, and the beasts still on it", () => {
  const tile = drawnTile(laid, table);
  assert.equal(tile.terrain, "SSGGGGSS");
  assert.deepEqual(tile.regions, table["T9.back.1"].regions);
  assert.deepEqual(tile.items, [{ arc: 0, kind: "gold" }]);
  // the worm of segment 0 has left the board: only the blue snake's bend is drawn
  assert.deepEqual(tile.beasts, [{ type: "blue", kind: "bend", sides: [1, 2], feature_type: "blue" }]);
  assert.deepEqual(tile.at, [2, -1]);
  assert.equal(laid.terrain, undefined); // the view itself is left as it came
});

test("a tile that carries its own drawing is drawn as it is", () => {
  const own = { tile: "A", at: [0, 0], terrain: "GGGGGGGG", regions: [], items: [], beasts: [] };
  assert.equal(drawnTile(own, table), own);
});

test("a drawing the table lacks is an error, not a blank tile", () => {
  assert.throws(() => drawnTile({ ...laid, drawing: "T9.back.3" }, table), /no T9\.back\.3/);
});

test("a view's board is drawn tile by tile; a view without a board is left alone", () => {
  const view = { seq: 4, board: [laid], creatures: {} };
  const drawn = drawnView(view, table);
  assert.equal(drawn.seq, 4);
  assert.equal(drawn.board[0].terrain, "SSGGGGSS");
  assert.equal(drawnView(null, table), null);
  const waiting = { seq: 0, state: null };
  assert.equal(drawnView(waiting, table), waiting);
});

test("a hand's face is drawn from the table as printed, every beast on it", () => {
  const face = drawnFace({ drawing: "T9.back.0", spade: true }, table);
  assert.equal(face.terrain, "GGSSGGGG");
  assert.deepEqual(face.beasts, [{ type: "worm", kind: "end", sides: [3] }]);
  assert.equal(face.spade, true);
  const own = { terrain: "GGGGGGGG", regions: [], items: [], beasts: [], spade: false };
  assert.equal(drawnFace(own, table), own);
  assert.throws(() => drawnFace({ drawing: "T9.back.2", spade: false }, table), /no T9\.back\.2/);
});

test("a view's hands are drawn face by face beside its board", () => {
  const view = {
    board: [laid],
    hand_tiles: { T9: { front: { drawing: "T9.front.0", spade: false },
      back: { drawing: "T9.back.0", spade: false } } },
  };
  const drawn = drawnView(view, table);
  assert.equal(drawn.hand_tiles.T9.back.terrain, "GGSSGGGG");
  assert.equal(drawn.hand_tiles.T9.front.terrain, "GGGGGGGG");
  assert.equal(view.hand_tiles.T9.back.terrain, undefined); // the view itself is left as it came
});

test("the table is asked of the API, and a refusal says so", async () => {
  const asked = [];
  const ok = async (url) => { asked.push(url); return { ok: true, json: async () => table }; };
  assert.deepEqual(await loadDrawings(ok), table);
  assert.deepEqual(asked, [DRAWINGS_URL]);
  const refused = async () => ({ ok: false, status: 503 });
  await assert.rejects(loadDrawings(refused), /503/);
});
