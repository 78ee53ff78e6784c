// The home page's picture of Make-a-snake (ui.GameUI's picture_module): a real
// position ({"players", "view"}, replayed by the server), each player's snake
// drawn by the game page's renderer.
import { renderBoard } from "./draw.js";

export function renderPicture(container, picture) {
  const table = document.createElement("div");
  table.className = "snake-table snake-picture";
  renderBoard(table, picture.view, { names: picture.players });
  container.replaceChildren(table);
}
