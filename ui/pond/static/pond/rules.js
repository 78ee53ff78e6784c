// The rules page's pictures of the pieces: each [data-piece="colour face"]
// element gets the piece as the board draws it (board.js), so that the page and
// the board cannot disagree.
import { pieceIcon } from "./board.js";

for (const spot of document.querySelectorAll("[data-piece]")) {
  const [colour, face] = spot.dataset.piece.split(" ");
  spot.prepend(pieceIcon(colour, face)); // the words beside it name it
}
