// Make-a-snake's game page (make_a_snake/board.html in games/game.html), on the
// generic client (games/client.js): the table (draw.js), the die and the four
// stacks, taking a tile and connecting it up or down with both placements
// previewed by the server (the game's connect_preview query: where it would lie,
// whether it may and why), a Confirm step, what happened since the player's
// last move, and the words of the end (the final standings are the server's).
// No rule is worked out here: what may be done comes from the server's legal
// actions and its preview.
import { createClient } from "../games/client.js";
import { showFinalStandings } from "../games/standings.js";
import { h } from "../games/pieces.js";
import { COLOUR_HEX, cm, renderBoard, thumbBox, tileThumbnail } from "./draw.js";
import { stackWords, takeWords } from "./words.js";

const root = document.getElementById("game");
const els = {
  table: document.getElementById("snake-table"),
  die: document.getElementById("die"),
  stacks: document.getElementById("stacks"),
  hint: document.getElementById("move-hint"),
  heading: document.getElementById("move-heading"),
  sides: document.getElementById("sides"),
  confirmRow: document.getElementById("move-confirm"),
  confirm: document.getElementById("confirm-move"),
  cancel: document.getElementById("cancel-move"),
  error: document.getElementById("move-error"),
  status: document.getElementById("turn-status"),
  lastMove: document.getElementById("last-move"),
  since: document.getElementById("since-list"),
  players: document.getElementById("players"),
};
let page = JSON.parse(document.getElementById("game-state").textContent);
// the player's choice before Confirm: {type: "take", colour} or {type: "connect", side}
let chosen = null;
// the server's preview of the connect awaited: {seq, previews} (or {seq, error})
let preview = null;
let busy = false;
// the focus across drawings: the control to give it back to (a selector), and
// whether the side buttons are to have it once drawn (after a take went in)
let heldFocus = null;
let focusSides = false;

const view = () => page.state || {};
const legal = () => page.legal_actions || [];
const names = () => page.players || view().players || [];

function actionFor(choice) {
  if (!choice) return null;
  if (choice.type === "take") {
    return legal().find((a) => a.type === "take" && a.colour === choice.colour) || null;
  }
  return legal().find((a) => a.type === "connect" && a.side === choice.side) || null;
}

// ---------------------------------------------------------------- the preview

async function loadPreview() {
  const seq = page.seq;
  if (preview && preview.seq === seq) return;
  preview = { seq, previews: null };
  try {
    const csrf = document.querySelector('meta[name="csrf-token"]');
    const resp = await fetch(root.dataset.queryUrl.replace("NAME", "connect_preview"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json",
        "X-CSRFToken": csrf ? csrf.content : "" },
      body: JSON.stringify({ args: {} }),
    });
    const data = await resp.json().catch(() => ({}));
    if (page.seq !== seq) return;
    if (!resp.ok) {
      preview = { seq, error: data.message || data.detail || `error ${resp.status}` };
      if (resp.status === 409) client.reload(false);
    } else {
      preview = { seq, previews: data.answer };
      // the only side that may be chosen is chosen already
      const allowed = data.answer.filter((p) => p.allowed);
      if (allowed.length === 1 && !chosen) chosen = { type: "connect", side: allowed[0].side };
    }
  } catch (e) {
    preview = { seq, error: "could not reach the server" };
  }
  render();
}

// ---------------------------------------------------------------- drawing

function renderTable() {
  const v = view();
  const mine = connecting() && preview && preview.seq === page.seq && preview.previews;
  const current = v.mode === "lollipop" ? 0 : v.current_player;
  renderBoard(els.table, v, {
    names: names(),
    snake: current,
    previews: mine ? preview.previews : [],
    chosen: chosen && chosen.type === "connect" ? chosen.side : null,
    onPick: (side) => choose({ type: "connect", side }),
    marked: markedTiles(),
  });
}

/** The tiles laid since the player's last move (the since panel's connects), outlined. */
function markedTiles() {
  const since = page.since_last_move;
  return since ? since.tiles || [] : [];
}

function dieFace(colour) {
  return h("span", { class: `die-face colour-${colour}`, style: { background: COLOUR_HEX[colour] } },
    colour);
}

function renderDieAndStacks() {
  const v = view();
  els.die.replaceChildren();
  if (v.die) {
    els.die.append(h("span", { class: "die-label" }, "The die: "), dieFace(v.die[0]), " ",
      dieFace(v.die[1]));
  } else if (!v.finished) {
    els.die.append(h("span", { class: "muted" }, v.awaiting === "roll"
      ? "The die is being rolled…" : "The die has not been rolled yet."));
  }
  const takes = legal().filter((a) => a.type === "take");
  const stacks = v.stacks || {};
  els.stacks.replaceChildren(...Object.keys(COLOUR_HEX).map((colour) => {
    const left = stacks[colour] ?? 0;
    const canTake = takes.some((a) => a.colour === colour);
    const selected = chosen && chosen.type === "take" && chosen.colour === colour;
    const pile = h("span", { class: "stack-pile", style: { background: COLOUR_HEX[colour] },
      "aria-hidden": "true" }, String(left));
    const words = stackWords(colour, left);
    const body = canTake
      ? h("button", { type: "button", class: `stack-button${selected ? " selected" : ""}`,
        "aria-pressed": selected ? "true" : "false", disabled: busy,
        dataset: { colour }, onclick: () => choose({ type: "take", colour }) },
      pile, h("span", { class: "stack-words" }, words))
      : h("span", { class: `stack-still${left ? "" : " empty"}`, dataset: { colour } },
        pile, h("span", { class: "stack-words" }, words));
    return h("li", { class: "stack" }, body);
  }));
}

function connecting() {
  return legal().some((a) => a.type === "connect");
}

function renderSides() {
  els.sides.replaceChildren();
  const v = view();
  if (!v.taken) return;
  const colour = v.taken.split("-")[0];
  if (!connecting()) {
    const who = names()[v.current_player] || "?";
    els.sides.append(h("p", {}, `${who} took ${v.taken} and is connecting it.`));
    return;
  }
  if (!preview || preview.seq !== page.seq || (!preview.previews && !preview.error)) {
    els.sides.append(h("p", { class: "muted" }, `Working out where ${v.taken} would lie…`));
    return;
  }
  if (preview.error) {
    els.sides.append(h("p", { class: "move-error" }, `No preview: ${preview.error}`));
    return;
  }
  els.sides.append(h("p", {}, `You took ${v.taken}. Connect it up or down: both are `
    + "shown on your snake."));
  // each placement drawn against the end of the snake it joins, in one frame for
  // both: where Up and Down differ shows, as on the table
  const drawing = (v.drawing || [])[v.mode === "lollipop" ? 0 : v.current_player];
  const joins = (p) => {
    const turned = p.turned || [];
    if (turned.length) return turned[turned.length - 1].parts;
    if (!drawing) return [];
    return drawing.tiles.length ? drawing.tiles[drawing.tiles.length - 1].parts
      : drawing.head.parts;
  };
  const box = thumbBox(preview.previews.flatMap((p) => [...joins(p), ...p.parts]));
  const [first, second] = preview.previews;
  const alike = second && JSON.stringify(first.parts) === JSON.stringify(second.parts);
  const list = h("ul", { class: "side-list" });
  for (const p of preview.previews) {
    const selected = chosen && chosen.type === "connect" && chosen.side === p.side;
    const label = `${v.taken} ${p.side}`;
    const facts = [p.why];
    if (p.overlap_tiles && p.overlap_tiles.length) {
      facts.push(`Overlaps ${p.overlap_tiles.join(", ")}.`);
    }
    if (p.touched) facts.push(`Lollipops touched then: ${p.touched.length} of 4.`);
    if (alike) facts.push("This tile lies the same way up or down.");
    const content = [tileThumbnail(colour, p.parts, label,
      { before: joins(p), end: p.open_end, box }),
      h("span", { class: "side-name" }, p.side === "up" ? "Up" : "Down",
        p.turn ? ` (after turning ${p.turn} tile${p.turn === 1 ? "" : "s"} over)` : ""),
      h("span", { class: "side-why small" }, facts.join(" "))];
    list.append(h("li", { class: `side-option${p.allowed ? "" : " refused"}` },
      p.allowed
        ? h("button", { type: "button", class: `side-button${selected ? " selected" : ""}`,
          "aria-pressed": selected ? "true" : "false", disabled: busy,
          dataset: { side: p.side }, onclick: () => choose({ type: "connect", side: p.side }) },
        content)
        : h("div", { class: "side-button", "aria-disabled": "true", dataset: { side: p.side } },
          content, h("span", { class: "tag" }, "not allowed"))));
  }
  els.sides.append(list);
}

function renderMovePanel() {
  const v = view();
  const acts = legal();
  const action = actionFor(chosen);
  if (page.you === null || page.you === undefined) {
    els.heading.textContent = v.finished ? "The game is over" : "Watching";
    els.hint.textContent = "You are not playing in this game.";
  } else if (v.finished) {
    els.heading.textContent = "The game is over";
    els.hint.textContent = finalWords();
  } else if (!acts.length) {
    els.heading.textContent = "Waiting";
    els.hint.textContent = page.status_text || "";
  } else if (acts[0].type === "take") {
    els.heading.textContent = "Your move: take a tile";
    els.hint.textContent = action
      ? `Take the top ${chosen.colour} tile? Confirm, or choose another stack.`
      : takeWords(v.die, acts.map((a) => a.colour));
  } else {
    els.heading.textContent = `Your move: connect ${v.taken}`;
    els.hint.textContent = action
      ? `Connect ${v.taken} ${chosen.side}${action.turn ? ` after turning the last `
        + `${action.turn} tile${action.turn === 1 ? "" : "s"} over` : ""}? Confirm, or `
        + "choose the other side."
      : "Choose a side: click it here or on the table.";
  }
  renderSides();
  els.confirmRow.hidden = !action;
  els.confirm.disabled = busy;
  els.cancel.disabled = busy;
  els.confirm.textContent = busy ? "Sending…" : "Confirm";
}

function swatch(seat) {
  const colour = (view().colours || [])[seat] || "red";
  return h("span", { class: "swatch small snake-swatch", style: { background: COLOUR_HEX[colour] },
    "aria-hidden": "true" }, (names()[seat] || "?").slice(0, 1).toUpperCase());
}

function renderPlayers() {
  const v = view();
  const winners = new Set(v.winners || []);
  const resigned = new Set(v.resigned || []);
  els.players.replaceChildren(...names().map((name, seat) => {
    const snake = v.mode === "lollipop" ? (v.drawing || [])[0] : (v.drawing || [])[seat];
    const tags = [];
    if (seat === page.you) tags.push(h("span", { class: "tag tag-you" }, "you"));
    if (!v.finished && v.current_player === seat) {
      tags.push(h("span", { class: "tag tag-turn" }, "to play"));
    }
    if (v.finished && winners.has(seat)) tags.push(h("span", { class: "tag tag-win" }, "winner"));
    if (resigned.has(seat)) tags.push(h("span", { class: "tag tag-resigned" }, "resigned"));
    const distance = (v.distances || [])[seat];
    const stats = h("dl", { class: "stats" },
      h("div", { class: "stat" }, h("dt", {}, "Tiles"),
        h("dd", { dataset: { stat: "tiles" } }, snake ? String(snake.tiles.length) : "–")),
      v.mode === "lollipop" ? null : h("div", { class: "stat" }, h("dt", {}, "Tongue to tail"),
        h("dd", { dataset: { stat: "distance" } },
          distance === null || distance === undefined ? "–" : cm(distance))));
    const item = h("li", { class: `player${!v.finished && v.current_player === seat
      ? " to-move" : ""}`, dataset: { seat: String(seat) } },
    h("div", { class: "player-head" }, swatch(seat), " ",
      h("span", { class: "player-name" }, name), " ", ...tags), stats);
    if (!v.finished && v.current_player === seat && page.clock && page.clock.text) {
      item.append(h("p", { class: "clock" }, page.clock.text));
    }
    return item;
  }));
}

function renderSince() {
  const since = page.since_last_move;
  const events = (since && since.events) || [];
  els.since.replaceChildren();
  if (!events.length) {
    els.since.append(h("li", { class: "muted" }, "Nothing has happened since."));
    return;
  }
  if (since.more) els.since.append(h("li", { class: "muted" }, "… earlier events are in the replay"));
  for (const event of events) {
    els.since.append(h("li", { dataset: { seq: String(event.seq), type: event.type } },
      Number.isInteger(event.player) ? swatch(event.player) : null, " ",
      h("span", { class: "since-text" }, event.text)));
  }
}

function finalWords() {
  const s = page.standings;
  return s ? s.text : "";
}

/** The stack or side button that has the focus, as a selector to find it again
 * once render() has drawn them anew. */
function focusedControl() {
  const active = document.activeElement;
  if (!active || !active.dataset) return null;
  if (els.stacks.contains(active) && active.dataset.colour) {
    return `#stacks button[data-colour="${active.dataset.colour}"]`;
  }
  if (els.sides.contains(active) && active.dataset.side) {
    return `#sides button[data-side="${active.dataset.side}"]`;
  }
  return null;
}

/** Give the focus back after a drawing: to the side buttons once a take went
 * in, else to the control that had it (once it may take it again). */
function restoreFocus(keep) {
  if (focusSides) {
    const side = els.sides.querySelector("button.side-button.selected:not([disabled])")
      || els.sides.querySelector("button.side-button:not([disabled])");
    if (side) {
      focusSides = false;
      side.focus();
    }
    return;
  }
  if (!keep) return;
  const target = document.querySelector(keep);
  if (target && !target.disabled) {
    heldFocus = null;
    if (document.activeElement !== target) target.focus();
  } else {
    heldFocus = keep; // disabled while a move is sent: it gets the focus back after
  }
}

function render() {
  const lost = !document.activeElement || document.activeElement === document.body;
  const keep = focusedControl() || (lost ? heldFocus : null);
  const v = view();
  if (els.status) {
    els.status.textContent = v.finished && page.standings ? page.standings.text : page.status_text;
    els.status.classList.toggle("your-turn", legal().length > 0);
  }
  if (els.lastMove) {
    els.lastMove.textContent = page.last_move ? `Last move: ${page.last_move.words}.` : "";
  }
  renderTable();
  renderDieAndStacks();
  renderMovePanel();
  renderPlayers();
  renderSince();
  showFinalStandings(page);
  restoreFocus(keep);
  if (connecting() && (!preview || preview.seq !== page.seq)) loadPreview();
}

// ---------------------------------------------------------------- choosing

function choose(choice) {
  if (busy || !actionFor(choice)) return;
  chosen = choice;
  els.error.textContent = "";
  render();
  if (!els.confirmRow.hidden) els.confirm.focus();
}

function cancel() {
  if (busy) return;
  chosen = null;
  render();
}

els.confirm.addEventListener("click", async () => {
  const action = actionFor(chosen);
  if (!action) return;
  if (action.type === "take") focusSides = true; // up or down is what comes next
  if (!await client.submit(action)) focusSides = false;
  render();
});
els.cancel.addEventListener("click", cancel);
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && chosen) cancel();
});

const client = createClient({
  root,
  getPage: () => page,
  onState: (fresh, keep) => {
    const moved = fresh.seq !== page.seq;
    page = fresh;
    // the game moved on: a choice is kept only while it is still a legal action
    if (moved && !(keep && actionFor(chosen))) chosen = null;
    render();
  },
  onError: (words) => {
    els.error.textContent = words;
  },
  onBusy: (value) => {
    busy = value;
    render();
  },
  onSent: () => {
    chosen = null;
    render();
  },
});

render();
client.startPolling();
root.dataset.ready = "true";
// for tests and the curious: the page's state as the client holds it
window.gamePage = { get page() { return page; }, get busy() { return client.isBusy(); },
  get preview() { return preview; } };
