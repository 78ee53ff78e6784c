// A picture of a real position (ui/marram/pictures.py), drawn by the board
// renderer: no panning or zooming; the whole position, or, when the picture
// outlines some tiles, the part of the board around them. The rules page's
// pictures (pictures.js) and the home page's (renderPicture, ui.GameUI's
// picture_module) are drawn by the same code.

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

/** Draw the position ``view`` (players, board, creatures, outline) into ``svg``. */
export function drawPicture(svg, view) {
  const outline = view.outline || [];
  const drawn = renderBoard(svg, view, { panZoom: false, lastMoves: outline });
  const box = outline.length ? closeUp(outline) : drawn.bounds;
  svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  svg.style.aspectRatio = `${box.w} / ${box.h}`;
  svg.removeAttribute("tabindex"); // a picture, not a board to move about
  svg.dataset.ready = "true";
}

/** The home page's picture: an svg of the position in ``container``. */
export function renderPicture(container, view) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "marram-board marram-picture");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `A game of Marram a few turns in: ${view.board.length} tiles `
    + "laid, with snakes, worms and welly boots");
  container.replaceChildren(svg);
  drawPicture(svg, view);
}
