// The home page's picture of Animals on Board (ui.GameUI's picture_module): a
// real position ({"players", "view"}, replayed by the server) as a spectator
// sees the table, drawn by the game page's renderer.
import { loadSpecies, renderBoard } from "./board.js";

export async function renderPicture(container, picture) {
  const species = await loadSpecies();
  const table = document.createElement("div");
  table.className = "aob-area aob-picture";
  renderBoard(table, picture.view, { species, names: picture.players });
  container.replaceChildren(table);
}
