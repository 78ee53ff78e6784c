// Unit tests of Marram's page helpers about moves (ui/marram/static/marram/moves.js):
// the moved tile is read from the server's move_previews, never computed here.
import assert from "node:assert/strict";
import { test } from "node:test";

import { movedTile, posText, samePos } from "../../ui/marram/static/marram/moves.js";

const view = (name, r) => ({ tile: name, rotation: r, terrain: `${name}${r}` });
const previews = {
  place: { T1: { front: [0, 1, 2, 3].map((r) => view("T1f", r)), back: [0, 1, 2, 3].map((r) => view("T1b", r)) } },
  flip: [{ at: [2, -1], rotations: [0, 1, 2, 3].map((r) => ({ ...view("T9", r), at: [2, -1] })) }],
};

test("places compare and print by their coordinates", () => {
  assert.ok(samePos([1, -2], [1, -2]));
  assert.ok(!samePos([1, -2], [-2, 1]));
  assert.ok(!samePos(null, [0, 0]));
  assert.equal(posText([3, -1]), "3,-1");
});

test("a tile laid from the hand lies as the server's view of that face and rotation", () => {
  const tile = movedTile(previews, { mode: "place", tile: "T1", face: "back", at: [4, 5] }, 3);
  assert.deepEqual(tile, { tile: "T1b", rotation: 3, terrain: "T1b3", at: [4, 5] });
});

test("a flipped tile lies as the server's view of it flipped to that rotation", () => {
  const tile = movedTile(previews, { mode: "flip", at: [2, -1] }, 2);
  assert.equal(tile.terrain, "T92");
  tile.token = { seat: 0 }; // a copy: the page may add the claim's token
  assert.equal(previews.flip[0].rotations[2].token, undefined);
});

test("nothing to draw before a place and a rotation are chosen, or for an unknown tile", () => {
  assert.equal(movedTile(previews, { mode: "place", tile: "T1", face: "front", at: null }, 0), null);
  assert.equal(movedTile(previews, { mode: "place", tile: "T1", face: "front", at: [0, 1] }, null), null);
  assert.equal(movedTile(previews, { mode: "place", tile: "T7", face: "front", at: [0, 1] }, 0), null);
  assert.equal(movedTile(previews, { mode: "flip", at: [0, 0] }, 0), null);
  assert.equal(movedTile(null, { mode: "flip", at: [2, -1] }, 0), null);
});
