// Pure helpers of Marram's game page (game.js) about places and moves, tested
// under node (tests/js/marram_moves.test.js). No rule is computed here: how a
// moved tile would lie comes from the server (ui/marram/pages.py's
// move_previews, engine.marram.view.move_previews).

export const samePos = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];
export const posText = (p) => `${p[0]},${p[1]}`;

/**
 * The moved tile as it would lie at rotation r, without a claim, or null:
 * `previews` is the page's move_previews ({place: {tile: {face: [view by
 * rotation]}}, flip: [{at, rotations: [view by rotation]}]}), `move` the move
 * chosen so far ({mode: "place" | "flip", tile, face, at}).
 */
export function movedTile(previews, move, r) {
  if (!previews || !move.at || r === null || r === undefined) return null;
  if (move.mode === "place") {
    const faces = (previews.place || {})[move.tile];
    const tv = faces && faces[move.face] && faces[move.face][r];
    return tv ? { ...tv, at: move.at } : null;
  }
  const flip = (previews.flip || []).find((f) => samePos(f.at, move.at));
  return flip && flip.rotations[r] ? { ...flip.rotations[r] } : null;
}
