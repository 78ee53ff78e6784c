// Unit tests of Make-a-snake's pure page helpers (ui/make_a_snake/static/make_a_snake/):
// the engine's parts turned into SVG paths and bounds, and the page's words.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  bounds, cm, labelSpots, partPath, partPoints, piecePath, snakeLabel, startNormal, svgPoint,
  tableBounds, thumbBox,
} from "../../ui/make_a_snake/static/make_a_snake/draw.js";
import { stackWords, takeWords } from "../../ui/make_a_snake/static/make_a_snake/words.js";

// red-4 up from the neck (engine view): a quarter circle round (6,0) from the
// neck to (6,-6); red-8 down's first part: a line 4 south
const QUARTER = { arc: { centre: [6, 0], radius: 6, from: 180, sweep: 90 },
  start: [0, 0], end: [6, -6] };
const LINE = { line: [[0, 0], [0, -4]], start: [0, 0], end: [0, -4] };

test("points are written with y flipped, as the screen's y runs south", () => {
  assert.equal(svgPoint([3, 4]), "3,-4");
  assert.equal(svgPoint([0.1234, -2]), "0.123,2");
  assert.equal(svgPoint([0, 0]), "0,0");
});

test("a line is a move and a line; an arc a counter-clockwise SVG arc", () => {
  assert.equal(partPath(LINE), "M0,0 L0,4");
  // from angle 180 (the neck) to 270 ((6,-6)), counter-clockwise: sweep flag 0
  assert.equal(partPath(QUARTER), "M0,0 A6,6 0 0 0 6,6");
  const half = { arc: { centre: [4, 0], radius: 4, from: 180, sweep: 180 } };
  assert.equal(partPath(half), "M0,0 A4,4 0 0 0 8,0");
  assert.equal(piecePath([LINE, QUARTER]), "M0,0 L0,4 M0,0 A6,6 0 0 0 6,6");
});

test("an arc's bounds take its extremes within the sweep, not its whole circle", () => {
  const half = { arc: { centre: [4, 0], radius: 4, from: 180, sweep: 180 } };
  const [x0, y0, x1, y1] = bounds(partPoints(half));
  assert.deepEqual([x0, x1, y1].map((v) => Math.round(v * 1000) / 1000), [0, 8, 0]);
  assert.equal(Math.round(y0 * 1000) / 1000, -4); // the bottom of the half circle
  assert.equal(partPoints(QUARTER).length, 2); // no extreme strictly inside 180..270
  assert.equal(bounds([]), null);
});

test("the joint across a tile's start is normal to its centre line", () => {
  assert.deepEqual(startNormal(LINE), [1, 0]);
  assert.deepEqual(startNormal(QUARTER), [-1, 0]); // along the radius at the neck
});

test("the table is at least 40 cm across, padded, and holds every piece", () => {
  const view = { drawing: [{ head: { parts: [{ line: [[0, 0], [0, 5]] }] }, tiles: [
    { parts: [LINE] }], tail: null }] };
  const [minX, minY, maxX, maxY] = tableBounds(view);
  assert.ok(maxX - minX >= 40 && maxY - minY >= 40);
  assert.ok(minY < -4 && maxY > 7);
});

test("words: distances, stacks, what may be taken", () => {
  assert.equal(cm(8.6), "8.60 cm");
  assert.equal(stackWords("blue", 1), "blue: 1 tile left");
  assert.equal(stackWords("red", 0), "red: empty");
  assert.equal(takeWords(["red", "blue"], ["red", "blue"]),
    "The die shows red and blue. Choose a stack to take from: red or blue.");
  assert.equal(takeWords(["red", "blue"], ["green", "blue", "yellow"]),
    "The die shows red and blue. A rolled stack is empty, so any stack will do. "
    + "Choose a stack to take from: green, blue or yellow.");
});

test("a snake in words for assistive readers", () => {
  const drawing = { colour: "red", tiles: [{ tile: "red-4", side: "up" }], tail: null,
    open_end: [6, -6, 0] };
  assert.equal(snakeLabel(drawing, "ann", null),
    "ann's snake, red head, 1 tile: red-4 up. Open end at 6, -6, heading 0 degrees.");
  assert.equal(snakeLabel({ ...drawing, tail: {} }, "ann", 12.5),
    "ann's snake, red head, 1 tile: red-4 up. It has its tail. Tongue to tail: 12.50 cm.");
});

test("the labels of up and down never cover each other", () => {
  // green-6 from the neck heading south: up turns east and back north, down west
  const half = [{ side: "up", allowed: true, end_point: [8, 0], open_end: [8, 0, 90] },
    { side: "down", allowed: true, end_point: [-8, 0], open_end: [-8, 0, 90] }];
  const [up, down] = labelSpots(half);
  assert.deepEqual([up.x, up.y, down.x, down.y], [8, 3.5, -8, 3.5]); // beyond each end
  // red-1 lies alike either way: one above the other, up on top, further on
  const line = [{ side: "up", allowed: true, end_point: [0, -8], open_end: [0, -8, 270] },
    { side: "down", allowed: false, end_point: [0, -8], open_end: [0, -8, 270] }];
  const [a, b] = labelSpots(line);
  assert.equal(a.x, b.x);
  assert.ok(a.y - b.y >= 1.7 * 3 && a.y < -8 && b.y < a.y, JSON.stringify([a, b]));
  assert.deepEqual([a.text, b.text], ["up", "down ✗"]);
});

test("one frame for both thumbnails, padded and at least 12 cm across", () => {
  const [minX, minY, maxX, maxY] = thumbBox([{ line: [[0, 0], [0, -8]] }]);
  assert.deepEqual([minX, maxX], [-9, 9]);
  assert.deepEqual([minY, maxY], [-13, 5]);
});
