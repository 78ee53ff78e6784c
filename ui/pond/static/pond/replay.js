// Pond in the replay viewer: renderReplayStep(container, step) draws one step of
// the generic replay (its "view" is Pond's view after that many events): the
// pond with the last turn outlined, both players' spawns and piles, and what the
// turn developed and scored, in words.
import { h, pieceIcon, renderBoard, turnLines } from "./board.js";

export function renderReplayStep(container, step) {
  const view = step.view || {};
  const players = view.players || [];
  const colours = view.colours || ["light", "dark"];
  const board = h("div", { class: "pond-board pond-replay-board" });
  renderBoard(board, view, { label: `The pond after ${step.at} events` });
  const seats = h("ul", { class: "pond-replay-seats" }, ...players.map((name, seat) => h("li",
    { dataset: { seat: String(seat) } }, pieceIcon(colours[seat], "egg"),
    ` ${name} (${colours[seat]}): pile ${(view.scores || [])[seat] ?? 0}, `
    + `spawn ${(view.spawn || [])[seat] ?? 0}`)));
  const lines = turnLines(view.last, { players, colours });
  container.replaceChildren(board, seats,
    lines.length ? h("p", { class: "pond-replay-turn" }, lines.join(". ")) : "");
}
