// Animals on Board's step of the generic replay viewer: the table after N events
// as the step's view gives it (a player's replay of a running game: what that
// player knew; a finished game's: everything, its view revealed: every ark, the
// face-down tile, the setup's tiles and keeps, the stack's order; the admin's of
// a running game: every ark too, from the step's summary).
import { loadSpecies, renderBoard, renderPlayers } from "./board.js";

function namesOf(step) {
  const view = step.view || {};
  const names = step.players || view.players || (step.summary && step.summary.players);
  if (Array.isArray(names) && names.length) return names;
  return (view.crates || []).map((_, seat) => `Player ${seat + 1}`);
}

/** Draw one step of the replay into ``container`` (an empty element). */
export async function renderReplayStep(container, step) {
  const species = await loadSpecies();
  const view = step.view;
  const names = namesOf(step);
  const table = document.createElement("div");
  table.className = "aob-area";
  renderBoard(table, view, { species, names });
  const players = document.createElement("ol");
  players.className = "players aob-replay-players";
  renderPlayers(players, view, names, view.you);
  const parts = [table, players];
  if (Array.isArray(view.stack_order)) {
    const stack = document.createElement("p");
    stack.className = "aob-stack-order small";
    stack.textContent = view.stack_order.length
      ? `The stack, next tile first: ${view.stack_order.join(", ")}.` : "The stack is empty.";
    parts.push(stack);
  }
  const summary = step.summary;
  if (summary && Array.isArray(summary.arks) && !view.arks) {
    // the admin's replay: every ark, which no player's view shows before the end
    const arks = document.createElement("div");
    renderBoard(arks, { ...view, middle: [], finished: true, arks: summary.arks, you: null },
      { species, names });
    const heading = arks.querySelector("#aob-arks-heading");
    if (heading) heading.textContent = "Every ark (the admin's view)";
    const middle = arks.querySelector(".aob-middle");
    if (middle) middle.remove();
    const round = arks.querySelector(".aob-round");
    if (round) round.remove();
    parts.push(arks);
  }
  container.replaceChildren(...parts);
}
