// Unit tests of the pure parts of the pages' shared pieces (games/static/games/pieces.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { colourOf, isLight, seatLetters } from "../../games/static/games/pieces.js";

test("a seat's letter is the player's initial when the initials differ", () => {
  const letter = seatLetters(["ann", "bob"]);
  assert.deepEqual([letter(0), letter(1)], ["A", "B"]);
});

test("seats are numbered from 1 when two players share an initial", () => {
  const letter = seatLetters(["ann", "Abe", "cyd"]);
  assert.deepEqual([letter(0), letter(1), letter(2)], ["1", "2", "3"]);
});

test("the seat colours go round, and the light ones get dark letters", () => {
  assert.equal(colourOf(4), colourOf(0));
  assert.ok(isLight(colourOf(1)) && isLight(colourOf(3)));
  assert.ok(!isLight(colourOf(0)) && !isLight(colourOf(2)));
});
