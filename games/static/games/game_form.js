// A form that starts a game (the lobby's "Start a game", the home page's "Play
// against the computer") offers only what fits the chosen game. The server
// marks each part of the form that belongs to some games only with those games
// (data-games: a game's options, a seat count, a computer player's seat); this
// script shows the parts of the chosen game and disables the others, so that
// they are not sent. It knows no rule of any game: without it the whole form
// shows, and the server refuses what does not fit, saying why.

/** The element to hide for a marked part: a radio button's label, or the part. */
function box(part) {
  return part.matches("input") ? part.closest("label") || part : part;
}

/** The inputs a marked part holds (a radio button is its own). */
function inputsOf(part) {
  return part.matches("input, select, textarea") ? [part]
    : [...part.querySelectorAll("input, select, textarea")];
}

/** Show the chosen game's parts of ``form``; a radio group left without a
 * checked choice it still offers gets its first one checked. */
export function offerChosenGame(form) {
  const game = form.elements.game && form.elements.game.value;
  if (!game) return;
  const groups = new Set();
  for (const part of form.querySelectorAll("[data-games]")) {
    const shown = part.dataset.games.split(" ").includes(game);
    box(part).hidden = !shown;
    for (const input of inputsOf(part)) {
      input.disabled = !shown;
      if (input.type === "radio") groups.add(input.name);
    }
  }
  for (const name of groups) {
    const radios = [...form.querySelectorAll(`input[type=radio][name="${name}"]`)];
    const offered = radios.filter((r) => !r.disabled);
    if (offered.length && !offered.some((r) => r.checked)) offered[0].checked = true;
  }
}

for (const form of document.querySelectorAll("form[data-game-form]")) {
  form.addEventListener("change", (event) => {
    if (event.target.name === "game") offerChosenGame(form);
  });
  offerChosenGame(form);
}
