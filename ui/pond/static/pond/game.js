// Pond's game page: draws the pond from the page state (the API's view of the
// game and what happened since the player's last move: ui/pond/pages.py; at the
// end, the final standings the server drew), lets the player make a move by
// clicks, taps or the keyboard, and sends it through the generic client (games/client.js).
//
// A move: choose a highlighted empty position to place an egg from the spawn (or
// "Place an egg" first to see only those), or one of your highlighted pieces and
// then one of its highlighted destinations -> the page asks the server what the
// move would do (the "preview" query) and shows it on the board -> Confirm, or
// Cancel (Escape) to start over. Only the server's legal actions are offered.

import { createClient } from "../games/client.js";
import { showFinalStandings } from "../games/standings.js";
import {
  actionFor, destinations, eggSpots, h, movablePieces, pieceIcon, posKey, renderBoard, turnLines,
} from "./board.js";

const root = document.getElementById("game");
const els = {
  board: document.getElementById("pond-board"),
  status: document.getElementById("turn-status"),
  lastMove: document.getElementById("last-move"),
  moveHeading: document.getElementById("move-heading"),
  moveHint: document.getElementById("move-hint"),
  moveBody: document.getElementById("move-body"),
  moveError: document.getElementById("move-error"),
  sinceHeading: document.getElementById("since-heading"),
  sinceList: document.getElementById("since-list"),
  players: document.getElementById("players"),
};
const queryUrl = (name) => root.dataset.queryUrl.replace("NAME", name);
const csrf = document.querySelector('meta[name="csrf-token"]');

let page = JSON.parse(document.getElementById("game-state").textContent);
let ui = freshUi();
let previewAsked = 0;

function freshUi() {
  // mode: "idle" | "egg" (choosing where an egg goes) | "piece" (a piece chosen) | "confirm"
  return { mode: "idle", from: null, action: null, preview: null, previewError: "" };
}

const legal = () => page.legal_actions || [];
const view = () => page.state || {};
const players = () => page.players || [];
const colours = () => view().colours || ["light", "dark"];

// ---------------------------------------------------------------- choosing

function choices() {
  const map = new Map();
  if (!legal().length || ui.mode === "confirm") return map;
  if (ui.mode === "idle" || ui.mode === "egg") {
    for (const at of eggSpots(legal())) {
      map.set(posKey(at), { kind: "egg", label: `Place an egg at ${posKey(at)}` });
    }
  }
  if (ui.mode === "idle" || ui.mode === "piece") {
    for (const from of movablePieces(legal())) {
      map.set(posKey(from), { kind: "piece", label: `Move the piece at ${posKey(from)}` });
    }
  }
  if (ui.mode === "piece") {
    map.set(posKey(ui.from), { kind: "selected", label: `Chosen: the piece at ${posKey(ui.from)}; choose it again to put it back` });
    for (const to of destinations(legal(), ui.from)) {
      map.set(posKey(to), { kind: "dest", label: `Move it to ${posKey(to)}` });
    }
  }
  return map;
}

function choose(pos, choice) {
  if (client.isBusy()) return;
  els.moveError.textContent = "";
  if (choice.kind === "egg") {
    confirmStep(actionFor(legal(), pos));
  } else if (choice.kind === "dest") {
    confirmStep(actionFor(legal(), pos, ui.from));
  } else if (choice.kind === "selected") {
    ui = freshUi();
    render(posKey(pos));
  } else {
    ui = { ...freshUi(), mode: "piece", from: pos };
    render(posKey(pos));
  }
}

/** A click on a piece that cannot be chosen now: say why, rather than nothing. */
function notChoosable(pos, piece) {
  if (!legal().length || ui.mode === "confirm" || client.isBusy()) return;
  const mine = colours()[page.you];
  const choose = "Choose one of your highlighted pieces, or a highlighted empty position "
    + "for an egg.";
  if (piece.colour !== mine) {
    const owner = players()[colours().indexOf(piece.colour)] || "the other player";
    els.moveError.textContent = `That is ${owner}'s ${piece.face} (${piece.colour}): you play `
      + `${mine}. ${choose}`;
  } else if (ui.mode === "egg") {
    els.moveError.textContent = "You are placing an egg: choose a highlighted empty position, "
      + "or Place an egg again to choose a piece instead.";
  } else {
    els.moveError.textContent = `Your ${piece.face} at ${posKey(pos)} cannot move now: `
      + `${piece.face === "egg" ? "eggs never move" : "every position it could reach is taken"}`
      + `. ${choose}`;
  }
}

function startEgg() {
  ui = { ...freshUi(), mode: ui.mode === "egg" ? "idle" : "egg" };
  render("egg-button");
}

function cancelMove() {
  ui = freshUi();
  render();
}

async function confirmStep(action) {
  if (!action) return;
  ui = { ...freshUi(), mode: "confirm", action, from: action.from || null };
  render("confirm-button");
  const asked = ++previewAsked;
  try {
    const resp = await fetch(queryUrl("preview"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json",
        "X-CSRFToken": csrf ? csrf.content : "" },
      body: JSON.stringify({ args: { action } }),
    });
    const data = await resp.json().catch(() => ({}));
    if (asked !== previewAsked || ui.action !== action) return;
    if (resp.ok) ui.preview = data.answer;
    else ui.previewError = `The server could not work out what this move does: ${data.message || resp.status}`;
  } catch (e) {
    if (asked !== previewAsked) return;
    ui.previewError = "Could not ask the server what this move does: check your connection.";
  }
  render();
}

async function confirm() {
  if (!ui.action) return;
  await client.submit(ui.action);
}

// ---------------------------------------------------------------- drawing

function actionWords(action) {
  return action.type === "egg" ? `Place an egg at ${posKey(action.at)}`
    : `Move the piece at ${posKey(action.from)} to ${posKey(action.to)}`;
}

function previewBlock() {
  if (ui.previewError) return h("p", { class: "move-error" }, ui.previewError);
  if (!ui.preview) return h("p", { class: "muted" }, "Working out what it does…");
  const p = ui.preview;
  const lines = turnLines(p.last, { players: players(), you: page.you, gains: p.gains,
    colours: colours() });
  if (p.finished) {
    const won = (p.winners || []);
    lines.push(won.length > 1 ? "It ends the game in a draw."
      : `It ends the game: ${won[0] === page.you ? "you win" : `${players()[won[0]]} wins`}.`);
  }
  return h("ul", { id: "pond-preview", class: "pond-preview", dataset: { ready: "true" } },
    lines.map((line) => h("li", {}, line)));
}

function renderMovePanel() {
  const mine = legal().length > 0;
  const st = view();
  els.moveBody.replaceChildren();
  if (page.status === "finished" || st.finished) {
    els.moveHeading.textContent = "Game over";
    els.moveHint.textContent = "";
    return;
  }
  els.moveHeading.textContent = mine ? "Your move" : "Waiting";
  if (!mine) {
    els.moveHint.textContent = page.you === null || page.you === undefined
      ? "You are watching this game." : "It is not your turn: the page follows the other player's move by itself.";
    return;
  }
  const spawn = (st.spawn || [])[page.you] ?? 0;
  const colour = colours()[page.you];
  if (ui.mode === "confirm") {
    els.moveHint.textContent = "Check what the move does on the board, then confirm it.";
    els.moveBody.append(
      h("p", { class: "pond-chosen" }, h("strong", {}, actionWords(ui.action))),
      previewBlock(),
      h("div", { class: "move-buttons" },
        h("button", { type: "button", class: "button primary", id: "confirm-button",
          onclick: confirm }, "Confirm"),
        h("button", { type: "button", class: "button", id: "cancel-button",
          onclick: cancelMove }, "Cancel")));
    return;
  }
  const hints = {
    idle: "Choose a highlighted empty position to place an egg, or one of your highlighted pieces to move it.",
    egg: "Choose a highlighted empty position for the egg.",
    piece: "Choose where the piece goes (a highlighted position), or another of your pieces.",
  };
  els.moveHint.textContent = hints[ui.mode];
  const eggs = eggSpots(legal()).length;
  els.moveBody.append(h("div", { class: "pond-spawn" },
    pieceIcon(colour, "egg"),
    h("span", {}, `Your spawn: ${spawn} egg${spawn === 1 ? "" : "s"} (you play ${colour})`),
    eggs ? h("button", { type: "button", class: `button${ui.mode === "egg" ? " primary" : ""}`,
      id: "egg-button", "aria-pressed": ui.mode === "egg" ? "true" : "false",
      onclick: startEgg }, "Place an egg") : null));
  if (ui.mode !== "idle") {
    els.moveBody.append(h("button", { type: "button", class: "button", id: "cancel-button",
      onclick: cancelMove }, "Cancel"));
  }
}

function renderPlayers() {
  const st = view();
  const winners = new Set(st.winners || []);
  els.players.replaceChildren(...players().map((name, seat) => {
    const toMove = !st.finished && st.current_player === seat;
    const tags = [
      seat === page.you ? h("span", { class: "tag tag-you" }, "you") : null,
      toMove ? h("span", { class: "tag tag-turn" }, "to move") : null,
      st.finished && winners.has(seat) ? h("span", { class: "tag tag-win" }, "winner") : null,
      st.resigned === seat ? h("span", { class: "tag tag-resigned" }, "resigned") : null,
    ];
    const stat = (label, value, key) => h("div", { class: "stat" }, h("dt", {}, label),
      h("dd", { dataset: { stat: key } }, String(value)));
    return h("li", { class: `player${toMove ? " to-move" : ""}${seat === page.you ? " is-you" : ""}`,
      dataset: { seat: String(seat) }, "aria-current": toMove ? "true" : null },
    h("div", { class: "player-head" }, pieceIcon(colours()[seat], "frog"),
      h("span", { class: "player-name" }, name), ` (${colours()[seat]})`, ...tags),
    h("dl", { class: "stats" }, stat("Pile", (st.scores || [])[seat] ?? 0, "score"),
      stat("Spawn", (st.spawn || [])[seat] ?? 0, "spawn"),
      stat("Target", st.target ?? "", "target")));
  }));
}

function renderSince() {
  const since = page.since_last_move || { events: [] };
  els.sinceList.replaceChildren();
  if (!since.events.length) {
    els.sinceList.append(h("li", { class: "muted" }, "Nothing has happened since."));
    return;
  }
  if (since.more) els.sinceList.append(h("li", { class: "muted" }, "… earlier events are in the replay"));
  for (const event of since.events) {
    els.sinceList.append(h("li", { dataset: { seq: String(event.seq), type: event.type } },
      Number.isInteger(event.player) ? pieceIcon(colours()[event.player], "egg") : null, " ",
      h("span", { class: "since-text" }, event.text),
      event.detail ? h("span", { class: "since-detail" }, `: ${event.detail}`) : null));
  }
}

/** What has the focus in the parts render() draws again, to give it back after:
 * a button of the move panel (its id) or a position of the board ("x,y"). */
function focusedKey() {
  const active = document.activeElement;
  if (!active || active === document.body) return null;
  if (els.moveBody.contains(active) && active.id) return active.id;
  if (els.board.contains(active) && active.dataset && active.dataset.x !== undefined) {
    return `${active.dataset.x},${active.dataset.y}`;
  }
  return null;
}

function render(focusKey = null) {
  // the board and the move panel are drawn anew: the focus stays where it was
  const keep = focusKey || focusedKey();
  const st = view();
  if (els.status) els.status.textContent = page.status_text;
  if (els.status) els.status.classList.toggle("your-turn", legal().length > 0);
  if (els.lastMove) {
    const last = page.last_move;
    els.lastMove.textContent = last ? `Last move: ${last.words}.` : "";
  }
  const confirming = ui.mode === "confirm";
  const shown = confirming && ui.preview ? { board: ui.preview.board, last: ui.preview.last }
    : confirming ? { board: st.board, last: { at: ui.action.at || ui.action.to, developed: [], scored: [] } }
      : null;
  renderBoard(els.board, st, {
    choices: choices(),
    onChoose: choose,
    onOther: notChoosable,
    shown,
    lastClass: confirming ? "preview" : "last",
    label: confirming ? `The pond as it would be after: ${actionWords(ui.action)}` : null,
  });
  els.board.classList.toggle("previewing", confirming);
  renderMovePanel();
  renderPlayers();
  renderSince();
  showFinalStandings(page);
  if (els.sinceHeading) {
    els.sinceHeading.textContent = page.you === null || page.you === undefined || st.finished
      ? "Latest moves" : "Since your last move";
  }
  if (keep) {
    const target = document.getElementById(keep)
      || els.board.querySelector(`g.choice[data-x="${keep.split(",")[0]}"][data-y="${keep.split(",")[1]}"]`)
      || els.board.querySelector("g.choice");
    if (target) target.focus();
  }
}

const client = createClient({
  root,
  getPage: () => page,
  onState: (fresh, keep) => {
    page = fresh;
    // the game moved on under the player's choice: keep it only if still legal
    const still = keep && ui.action && legal().some((a) => JSON.stringify(a) === JSON.stringify(ui.action));
    const stillPiece = keep && ui.mode === "piece" && destinations(legal(), ui.from).length;
    if (still) {
      confirmStep(ui.action); // what it does may have changed: ask again
      return;
    }
    if (!stillPiece) ui = freshUi();
    render();
  },
  onError: (text) => {
    els.moveError.textContent = text;
  },
  onBusy: (busy) => {
    for (const button of els.moveBody.querySelectorAll("button")) button.disabled = busy;
  },
  onSent: () => {
    ui = freshUi();
    render();
  },
});

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && ui.mode !== "idle" && !client.isBusy()) cancelMove();
});

render();
client.startPolling();
root.dataset.ready = "true";
// for tests and the curious: the page's state as the client holds it
window.gamePage = { get page() { return page; }, get busy() { return client.isBusy(); } };
