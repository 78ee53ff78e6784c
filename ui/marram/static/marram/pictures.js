// Pictures of real positions (ui/marram/pictures.py): each <svg data-picture="ID">
// is drawn by the board renderer from the JSON in the <script id="ID"> beside it.
// No panning or zooming: the whole position, or, when the picture outlines some
// tiles, the part of the board around them.

import { TILE, renderBoard } from "./board.js";

const AROUND = { w: 5, h: 4 }; // the least a close-up shows, in tiles

/** The viewBox around the outlined tiles: at least AROUND, with a tile to spare. */
function closeUp(outline) {
  const xs = outline.map(([x]) => x);
  const ys = outline.map(([, y]) => y);
  const w = Math.max(AROUND.w, Math.max(...xs) - Math.min(...xs) + 3);
  const h = Math.max(AROUND.h, Math.max(...ys) - Math.min(...ys) + 3);
  const cx = (Math.min(...xs) + Math.max(...xs) + 1) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys) + 1) / 2;
  return { x: (cx - w / 2) * TILE, y: (cy - h / 2) * TILE, w: w * TILE, h: h * TILE };
}

for (const svg of document.querySelectorAll("svg[data-picture]")) {
  const source = document.getElementById(svg.dataset.picture);
  if (!source) continue;
  const view = JSON.parse(source.textContent);
  const outline = view.outline || [];
  const drawn = renderBoard(svg, view, { panZoom: false, lastMoves: outline });
  const box = outline.length ? closeUp(outline) : drawn.bounds;
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  svg.style.aspectRatio = `${box.w} / ${box.h}`;
  svg.removeAttribute("tabindex"); // a picture, not a board to move about
  svg.dataset.ready = "true";
}
