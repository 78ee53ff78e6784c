// Unit tests of the score helpers the replay viewer charts with
// (games/static/games/scores.js), run by node's own runner from the pytest suite.
import assert from "node:assert/strict";
import { test } from "node:test";

import { scoreRange, scoreText } from "../../games/static/games/scores.js";

test("a missing score reads as a dash, any other as itself", () => {
  assert.equal(scoreText(null), "–");
  assert.equal(scoreText(undefined), "–");
  assert.equal(scoreText(0), "0");
  assert.equal(scoreText(2.5), "2.5");
});

test("the chart spans from 0 to at least 10, and further for the scores there are", () => {
  assert.deepEqual(scoreRange([{ scores: [0, 0] }, { scores: [3, 4] }]), { low: 0, top: 10 });
  assert.deepEqual(scoreRange([{ scores: [0, 0] }, { scores: [31, 12] }]), { low: 0, top: 31 });
});

test("negative scores lower the chart's floor; missing ones are left out", () => {
  assert.deepEqual(scoreRange([{ scores: [null, -4] }, { scores: [null, 2] }]), { low: -4, top: 10 });
  assert.deepEqual(scoreRange([{ scores: [null, null] }]), { low: 0, top: 10 });
});
