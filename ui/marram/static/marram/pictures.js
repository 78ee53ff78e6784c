// The rules page's pictures of real positions (ui/marram/pictures.py): each
// <svg data-picture="ID"> is drawn by picture.js from the JSON in the
// <script id="ID"> beside it.

import { drawPicture } from "./picture.js";

for (const svg of document.querySelectorAll("svg[data-picture]")) {
  const source = document.getElementById(svg.dataset.picture);
  if (source) drawPicture(svg, JSON.parse(source.textContent));
}
