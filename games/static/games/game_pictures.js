// The home page's pictures of the games: each [data-picture-module] element is
// drawn by that game's own module (ui.GameUI's picture_module, exporting
// renderPicture(container, picture)) from the JSON in the <script> its
// data-picture names. The platform draws nothing itself; a game whose module
// fails leaves its card without a picture, the others still drawn.

async function draw(element) {
  const source = document.getElementById(element.dataset.picture);
  if (!source) return;
  const { renderPicture } = await import(element.dataset.pictureModule);
  await renderPicture(element, JSON.parse(source.textContent));
  element.dataset.ready = "true";
}

for (const element of document.querySelectorAll("[data-picture-module]")) {
  draw(element).catch((error) => console.error(`the picture of ${element.dataset.game}`
    + ` could not be drawn: ${error}`));
}
