// Unit tests of the pure parts of Animals on Board's table
// (ui/animals_on_board/static/animals_on_board/board.js): what the player's
// choices name among the server's legal actions, and the words of the table.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  actionKey, chosenAction, counted, faceUpArks, indexActions, keptSelection, playerFacts,
  roundLine, tileName, toggleTile,
} from "../../ui/animals_on_board/static/animals_on_board/board.js";

const species = JSON.parse(readFileSync(
  new URL("../../ui/animals_on_board/static/animals_on_board/species.json", import.meta.url)));

const legal = [
  { type: "take", player: 1, group: 1 },
  { type: "split", player: 1, group: 0, part: ["A1"] },
  { type: "split", player: 1, group: 0, part: ["?"] },
  { type: "split", player: 1, group: 0, part: ["A1", "?"] },
];

test("a split is found whatever order its tiles were chosen in", () => {
  const index = indexActions(legal);
  assert.equal(actionKey({ type: "split", group: 0, part: ["?", "A1"] }),
    actionKey(legal[3]));
  const chosen = chosenAction(index, { kind: "split", group: 0, tiles: ["?", "A1"] });
  assert.equal(chosen, legal[3]);  // the server's own action, sent as it is
});

test("a choice that names no legal action confirms nothing", () => {
  const index = indexActions(legal);
  // the whole group, a group that cannot be split, a group that cannot be paid for
  assert.equal(chosenAction(index, { kind: "split", group: 0, tiles: ["A1", "?", "B2"] }), null);
  assert.equal(chosenAction(index, { kind: "split", group: 1, tiles: ["C3"] }), null);
  assert.equal(chosenAction(index, { kind: "take", group: 0 }), null);
  assert.equal(chosenAction(index, { kind: "take", group: 1 }), legal[0]);
  assert.equal(chosenAction(index, null), null);
  assert.deepEqual([...index.splitGroups], [0]);
  assert.deepEqual([...index.takes.keys()], [1]);
  assert.equal(index.pass, null);
});

test("choosing a tile again unchooses it; a tile of another group starts over", () => {
  let selection = toggleTile(null, 0, "A1");
  selection = toggleTile(selection, 0, "?");
  assert.deepEqual(selection, { kind: "split", group: 0, tiles: ["A1", "?"] });
  assert.deepEqual(toggleTile(selection, 0, "A1"), { kind: "split", group: 0, tiles: ["?"] });
  assert.deepEqual(toggleTile(selection, 2, "C3"), { kind: "split", group: 2, tiles: ["C3"] });
  assert.equal(toggleTile({ kind: "split", group: 0, tiles: ["A1"] }, 0, "A1"), null);
  assert.deepEqual(toggleTile({ kind: "take", group: 0 }, 0, "A1"),
    { kind: "split", group: 0, tiles: ["A1"] });
});

test("the keeps and the pass are indexed as the server lists them", () => {
  const index = indexActions([{ type: "keep", player: 0, tile: "C4" },
    { type: "keep", player: 0, tile: "D1" }]);
  assert.deepEqual(chosenAction(index, { kind: "keep", tile: "D1" }),
    { type: "keep", player: 0, tile: "D1" });
  assert.equal(chosenAction(index, { kind: "keep", tile: "E5" }), null);
  const stuck = indexActions([{ type: "pass", player: 2 }]);
  assert.deepEqual(chosenAction(stuck, { kind: "pass" }), { type: "pass", player: 2 });
});

test("tiles, the round and the players in words", () => {
  assert.equal(tileName(species, "C4"), "Camel 4");
  assert.equal(tileName(species, "?"), "the face-down tile");
  const view = { round: 3, stack: 1, start_player: 1, final_turn: true, current_player: 2,
    crates: [1, 5, 0], ark_sizes: [4, 10, 0], in_round: [2], resigned: [], kept: [],
    awaiting: [], finished: false };
  assert.equal(roundLine(view, ["ann", "bob", "cyd"]),
    "Round 3 · 1 tile in the stack · starting flag: bob · cyd makes the round's last turn");
  assert.deepEqual(playerFacts(view, 1),
    ["5 crates", "ark: 10 tiles", "out of this round", "holds the starting flag"]);
  assert.deepEqual(playerFacts(view, 2), ["0 crates", "ark: 0 tiles", "in the round"]);
  const setup = { ...view, kept: [0], awaiting: [1, 2] };
  assert.deepEqual(playerFacts(setup, 0), ["1 crate", "ark: 4 tiles", "has chosen a tile"]);
  assert.deepEqual(playerFacts(setup, 2), ["0 crates", "ark: 0 tiles", "is choosing a tile"]);
});

test("the other arks show the tiles taken face up, and how many more are unseen", () => {
  const view = { you: 0, finished: false, ark_sizes: [3, 4, 1],
    face_up: [["A1", "B2"], ["C3", "C4", "D5"], []] };
  assert.deepEqual(faceUpArks(view, ["ann", "bob", "cyd"]), [
    { seat: 1, tiles: ["C3", "C4", "D5"], heading: "bob: 3 tiles face up, 1 more unseen" },
    { seat: 2, tiles: [], heading: "cyd: 0 tiles face up, 1 more unseen" },
  ]);
  assert.equal(faceUpArks({ ...view, you: null }, ["ann", "bob", "cyd"])[0].heading,
    "ann: 2 tiles face up, 1 more unseen");
  assert.deepEqual(faceUpArks({ ...view, finished: true }, ["ann", "bob", "cyd"]), []);
});

test("a count of one is singular: 1 crate, 1 tile, 1 point", () => {
  assert.deepEqual([counted(1, "crate"), counted(0, "crate"), counted(3, "tile")],
    ["1 crate", "0 crates", "3 tiles"]);
  const over = { crates: [1, 2], ark_sizes: [1, 2], finished: true, scores: [1, 7] };
  assert.deepEqual(playerFacts(over, 0), ["1 crate", "ark: 1 tile", "1 point"]);
  assert.deepEqual(playerFacts(over, 1), ["2 crates", "ark: 2 tiles", "7 points"]);
});

test("every species has a name, a colour of its own and a drawing of its own", () => {
  assert.equal(Object.keys(species).join(""), "ABCDEFGHIJKL");
  const kinds = Object.values(species);
  for (const kind of kinds) {
    assert.match(kind.color, /^#[0-9a-f]{6}$/);
    assert.ok(kind.name && kind.drawing.length >= 5, kind.name);
    for (const shape of kind.drawing) {  // ellipses, polygons and strokes, in the box
      const numbers = shape.e || shape.p || shape.l;
      assert.ok(numbers && numbers.every(Number.isFinite), JSON.stringify(shape));
      const xs = shape.e ? [numbers[0]] : numbers.filter((_, i) => i % 2 === 0);
      const ys = shape.e ? [numbers[1]] : numbers.filter((_, i) => i % 2 === 1);
      assert.ok(xs.every((x) => x >= -4 && x <= 104) && ys.every((y) => y >= -4 && y <= 74),
        `${kind.name}: ${JSON.stringify(shape)}`);
      assert.ok([undefined, "ink", "paper"].includes(shape.fill));
    }
  }
  assert.equal(new Set(kinds.map((k) => k.color)).size, kinds.length);
  assert.equal(new Set(kinds.map((k) => JSON.stringify(k.drawing))).size, kinds.length);
  assert.equal(new Set(kinds.map((k) => k.name)).size, kinds.length);
});

test("after a refresh a choice keeps only what still stands", () => {
  const index = indexActions([{ type: "take", player: 0, group: 1 },
    { type: "split", player: 0, group: 0, part: ["B2"] },
    { type: "split", player: 0, group: 0, part: ["?"] },
    { type: "split", player: 0, group: 0, part: ["B2", "?"] }]);
  const view = { middle: [["B2", "C3", "?"], ["D4"]] };
  // the same group under the same number: the take stands
  const take = { kind: "take", group: 1, tiles: ["D4"] };
  assert.equal(keptSelection(take, view, index), take);
  // group 1 is now another group (one before it was taken): the take is dropped
  assert.equal(keptSelection({ kind: "take", group: 1, tiles: ["E5"] }, view, index), null);
  // a split keeps the chosen tiles still in its group
  assert.deepEqual(keptSelection({ kind: "split", group: 0, tiles: ["A1", "?"] }, view, index),
    { kind: "split", group: 0, tiles: ["?"] });
  assert.equal(keptSelection({ kind: "split", group: 0, tiles: ["A1"] }, view, index), null);
  assert.equal(keptSelection({ kind: "split", group: 1, tiles: ["D4"] }, view, index), null);
  assert.equal(keptSelection({ kind: "keep", tile: "C4" }, view, index), null);
  assert.equal(keptSelection(null, view, index), null);
});
