// The final standings, the same table for every game: the server draws them
// (games/templates/games/final_standings.html) into the page and, once the game
// is over, into the page's state, so that a page open at the end shows them as
// they arrive. A game's module calls showFinalStandings with each state it draws.

/** Show the state's final standings, if it has them, in #final-standings. */
export function showFinalStandings(page, doc = document) {
  const section = doc.getElementById("final-standings");
  const body = doc.getElementById("standings-body");
  const final = page && page.final_standings;
  if (!section || !body || !final) return;
  if (body.dataset.drawn !== final.html) {
    const drawn = new DOMParser().parseFromString(final.html, "text/html");
    body.replaceChildren(...[...drawn.body.childNodes].map((n) => doc.importNode(n, true)));
    body.dataset.drawn = final.html;
  }
  section.hidden = false;
}
