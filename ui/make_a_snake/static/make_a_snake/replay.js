// Make-a-snake's step of the generic replay viewer (GameUI.replay_module): the
// table as it lay after the step's event, drawn by the game page's own renderer
// (draw.js), with the die, the stacks and what the event was in words; in a
// finished game's replay, the tiles each stack held (the view's stack_tiles).
import { COLOUR_HEX, renderBoard } from "./draw.js";
import { stackWords } from "./words.js";

/** Draw one step of a replay into ``container`` (an empty element). */
export function renderReplayStep(container, step) {
  const view = step.view || {};
  const table = document.createElement("div");
  table.className = "snake-table replay-table";
  renderBoard(table, view, { names: view.players || [] });
  const facts = document.createElement("ul");
  facts.className = "replay-facts";
  const say = (words) => {
    const item = document.createElement("li");
    item.textContent = words;
    facts.append(item);
  };
  if (view.die) say(`The die shows ${view.die[0]} and ${view.die[1]}.`);
  if (view.taken) say(`Tile taken, to be connected: ${view.taken}.`);
  say(`Stacks: ${Object.keys(COLOUR_HEX).map((c) => stackWords(c, (view.stacks || {})[c] ?? 0))
    .join("; ")}.`);
  if (view.stack_tiles) { // a finished game's replay: what lay in each stack
    say(`The stacks, top tile first: ${Object.keys(COLOUR_HEX).map((c) => {
      const tiles = view.stack_tiles[c] || [];
      return `${c}: ${tiles.length ? tiles.join(", ") : "empty"}`;
    }).join("; ")}.`);
  }
  if (view.lollipops) say(`Lollipops touched: ${(view.touched || []).length} of 4.`);
  container.replaceChildren(table, facts);
}
