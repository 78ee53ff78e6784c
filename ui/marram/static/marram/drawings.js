// The tiles' drawings. The player view's board and hands name each tile's drawing
// (its terrain, regions, items and beasts as it lies: engine.marram.view.board_tile,
// hand_face) instead of repeating it; the table of every drawing comes from the API once a
// page and is kept by the browser, which asks again only whether it changed.

export const DRAWINGS_URL = "/api/games/kinds/marram/tables/drawings/";

/** The table of drawings, by key. */
export async function loadDrawings(fetcher = (...args) => fetch(...args)) {
  const resp = await fetcher(DRAWINGS_URL, { headers: { Accept: "application/json" } });
  if (!resp.ok) throw new Error(`the tiles' drawings: the server answered ${resp.status}`);
  return resp.json();
}

function drawing(key, drawings) {
  const d = drawings[key];
  if (!d) throw new Error(`the tiles' drawings have no ${key}`);
  return d;
}

/**
 * A board tile with its drawing filled in, each of its beasts the drawing's beast
 * (by ``segment``) with what the view says of it. A tile that carries its own
 * drawing (no ``drawing`` key: a custom catalogue's) is drawn as it is.
 */
export function drawnTile(tile, drawings) {
  if (!tile.drawing) return tile;
  const d = drawing(tile.drawing, drawings);
  return {
    ...tile,
    terrain: d.terrain,
    regions: d.regions,
    items: d.items,
    beasts: (tile.beasts || []).map(({ segment, ...seen }) => ({ ...d.beasts[segment], ...seen })),
  };
}

/**
 * A face of a tile in a hand with its drawing filled in (engine.marram.view.hand_face:
 * the face as printed, every beast on it). A face that carries its own drawing is
 * drawn as it is.
 */
export function drawnFace(face, drawings) {
  if (!face.drawing) return face;
  const d = drawing(face.drawing, drawings);
  return { ...face, terrain: d.terrain, regions: d.regions, items: d.items, beasts: d.beasts };
}

/** The view with every tile of its board (drawnTile) and of its hands (drawnFace) drawn. */
export function drawnView(view, drawings) {
  if (!view || !Array.isArray(view.board)) return view;
  const drawn = { ...view, board: view.board.map((tile) => drawnTile(tile, drawings)) };
  if (view.hand_tiles) {
    drawn.hand_tiles = Object.fromEntries(Object.entries(view.hand_tiles).map(
      ([id, faces]) => [id, { front: drawnFace(faces.front, drawings),
        back: drawnFace(faces.back, drawings) }]));
  }
  return drawn;
}
