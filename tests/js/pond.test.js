// Unit tests of the pure parts of Pond's board (ui/pond/static/pond/board.js),
// run by node's own runner from the pytest suite (tests/scripts/test_javascript.py).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  actionFor, cellLabel, destinations, eggSpots, movablePieces, pieceAt, positionsWords, turnLines,
} from "../../ui/pond/static/pond/board.js";

// ann (seat 0) may place an egg at 0,0 or 3,3, or move her tadpole at 1,1 to
// 1,0 or 2,1, or her frog at 2,2 to 2,3 (as the server lists them)
const LEGAL = [
  { type: "egg", player: 0, at: [0, 0] },
  { type: "egg", player: 0, at: [3, 3] },
  { type: "move", player: 0, from: [1, 1], to: [1, 0] },
  { type: "move", player: 0, from: [1, 1], to: [2, 1] },
  { type: "move", player: 0, from: [2, 2], to: [2, 3] },
];

test("the view's letters are light (lower case) and dark (upper case) eggs, tadpoles, frogs", () => {
  const rows = ["e..F", ".t..", "..f.", "E..T"];
  assert.deepEqual(pieceAt(rows, 0, 0), { colour: "light", face: "egg" });
  assert.deepEqual(pieceAt(rows, 3, 0), { colour: "dark", face: "frog" });
  assert.deepEqual(pieceAt(rows, 1, 1), { colour: "light", face: "tadpole" });
  assert.deepEqual(pieceAt(rows, 3, 3), { colour: "dark", face: "tadpole" });
  assert.equal(pieceAt(rows, 1, 0), null);
  assert.equal(pieceAt(rows, 9, 9), null); // off the pond
  assert.equal(cellLabel([3, 0], pieceAt(rows, 3, 0)), "3,0: dark frog");
  assert.equal(cellLabel([1, 0], null), "1,0: empty");
});

test("what may be chosen comes from the legal actions only", () => {
  assert.deepEqual(eggSpots(LEGAL), [[0, 0], [3, 3]]);
  assert.deepEqual(movablePieces(LEGAL), [[1, 1], [2, 2]]);
  assert.deepEqual(destinations(LEGAL, [1, 1]), [[1, 0], [2, 1]]);
  assert.deepEqual(destinations(LEGAL, [0, 0]), []);
  assert.deepEqual(actionFor(LEGAL, [3, 3]), LEGAL[1]);
  assert.deepEqual(actionFor(LEGAL, [2, 1], [1, 1]), LEGAL[3]);
  assert.equal(actionFor(LEGAL, [2, 3], [1, 1]), null); // the tadpole cannot go there
  assert.equal(actionFor(LEGAL, [1, 0]), null); // no egg listed there
  assert.deepEqual(eggSpots([]), []);
  assert.deepEqual(movablePieces(undefined), []);
});

test("positions are listed north first, then west first", () => {
  assert.equal(positionsWords([[2, 0], [0, 0]]), "0,0 and 2,0");
  assert.equal(positionsWords([[1, 2], [3, 1], [0, 1]]), "0,1, 3,1 and 1,2");
  assert.equal(positionsWords([[1, 1]]), "1,1");
});

test("what a turn develops and scores, in words, for the player and the other", () => {
  const last = {
    player: 0, at: [3, 2], developed: [[3, 1]],
    scored: [{ at: [3, 0], colour: "light", face: "egg" }, { at: [3, 1], colour: "dark", face: "egg" },
      { at: [3, 2], colour: "light", face: "egg" }],
  };
  assert.deepEqual(turnLines(last, { players: ["ann", "bob"], you: 0, gains: [2, 1] }), [
    "Develops 1 piece: 3,1", "Scores 3 pieces: +2 for you (light), +1 for bob (dark)"]);
  // without the gains (a replay step), counted by colour; a spectator sees names
  assert.deepEqual(turnLines(last, { players: ["ann", "bob"] })[1],
    "Scores 3 pieces: +2 for ann (light), +1 for bob (dark)");
  assert.deepEqual(turnLines({ player: 1, at: [0, 0], developed: [], scored: [] }),
    ["Develops nothing", "Scores nothing"]);
  assert.deepEqual(turnLines(null), []);
});
