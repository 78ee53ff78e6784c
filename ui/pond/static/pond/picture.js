// The home page's picture of Pond (ui.GameUI's picture_module): a real position
// ({"players", "view"}, replayed by the server) drawn by the game page's board
// renderer, with nothing to choose.
import { renderBoard } from "./board.js";

export function renderPicture(container, picture) {
  const board = document.createElement("div");
  board.className = "pond-board pond-picture";
  renderBoard(board, picture.view, {
    label: `A game of Pond a few turns in, on a ${picture.view.size}x${picture.view.size} pond` });
  container.replaceChildren(board);
}
