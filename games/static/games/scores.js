// Scores as the pages show them, for any game: a seat's score may be points, a
// distance (lower is better), fractional, or missing (null: none yet).
// Pure functions, unit-tested under node (tests/js/scores.test.js).

/** A score in words: "–" for none. */
export function scoreText(score) {
  return score === null || score === undefined ? "–" : String(score);
}

/** The range a chart of these steps' scores covers ({low, top}): from 0 (or the
 * lowest score, if negative) to at least 10; missing scores are left out. */
export function scoreRange(steps) {
  const all = steps.flatMap((s) => s.scores || []).filter((v) => typeof v === "number");
  return { low: Math.min(0, ...all), top: Math.max(10, ...all) };
}
