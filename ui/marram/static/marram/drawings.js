// The tiles' drawings. The player view's board names each tile's drawing (its
// terrain, regions, items and beasts as it lies: engine.marram.view.board_tile)
// instead of repeating it; the table of every drawing comes from the API once a
// page and is kept by the browser, which asks again only whether it changed.

export const DRAWINGS_URL = "/api/games/kinds/marram/tables/drawings/";

/** The table of drawings, by key. */
export async function loadDrawings(fetcher = (...args) => fetch(...args)) {
  const resp = await fetcher(DRAWINGS_URL, { headers: { Accept: "application/json" } });
  if (!resp.ok) throw new Error(`the tiles' drawings: the server answered ${resp.status}`);
  return resp.json();
}

/**
 * A board tile with its drawing filled in, each of its beasts the drawing's beast
 * (by ``segment``) with what the view says of it. A tile that carries its own
 * drawing (no ``drawing`` key: a custom catalogue's) is drawn as it is.
 */
export function drawnTile(tile, drawings) {
  if (!tile.drawing) return tile;
  const d = drawings[tile.drawing];
  if (!d) throw new Error(`the tiles' drawings have no ${tile.drawing}`);
  return {
    ...tile,
    terrain: d.terrain,
    regions: d.regions,
    items: d.items,
    beasts: (tile.beasts || []).map(({ segment, ...seen }) => ({ ...d.beasts[segment], ...seen })),
  };
}

/** The view with every tile of its board drawn (drawnTile). */
export function drawnView(view, drawings) {
  if (!view || !Array.isArray(view.board)) return view;
  return { ...view, board: view.board.map((tile) => drawnTile(tile, drawings)) };
}
