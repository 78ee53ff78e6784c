// Animals on Board's game page on the generic client (games/client.js): the
// table (board.js), choosing a keep, the tiles of a split or a group to take,
// a Confirm step, the players, what happened since the player's last move and
// the final standings. Escape cancels a choice.
import { createClient } from "../games/client.js";
import { showFinalStandings } from "../games/standings.js";
import {
  chosenAction, indexActions, keptSelection, loadSpecies, renderBoard, renderPlayers, tileName,
} from "./board.js";

const root = document.getElementById("game");
const boardBox = document.getElementById("aob-board");
const hint = document.getElementById("move-hint");
const body = document.getElementById("move-body");
const error = document.getElementById("move-error");
const status = document.getElementById("turn-status");
const lastMove = document.getElementById("last-move");
const since = document.getElementById("since-list");
const players = document.getElementById("players");

const species = await loadSpecies();
let page = JSON.parse(document.getElementById("game-state").textContent);
let index = indexActions(page.legal_actions);
let selection = null;

function names() {
  return page.players || [];
}

function describe(action) {
  if (action.type === "keep") return `Keep ${tileName(species, action.tile)} (${action.tile}) on your ark, in secret.`;
  if (action.type === "take") {
    const price = page.state.prices[action.group];
    return `Take group ${action.group} onto your ark for ${price} crate${price === 1 ? "" : "s"}, and leave the round.`;
  }
  if (action.type === "split") {
    const tiles = action.part.map((t) => (t === "?" ? "the face-down tile" : t)).join(", ");
    return `Split ${tiles} off group ${action.group} and gain a food crate.`;
  }
  return "Pass and leave the round.";
}

function waitingWords() {
  const view = page.state;
  if (!view || view.finished) return "";
  const waiting = (page.tasks || []).map((t) => names()[t.seat]);
  return waiting.length ? `Waiting for ${waiting.join(" and ")}.` : "";
}

function hintText() {
  const view = page.state;
  if (!view) return "";
  if (view.finished) return "The game is over.";
  if (index.keeps.size) return "Choose the tile to keep on your ark, in secret; the other two go face up into the middle.";
  if (index.byKey.size === 1 && index.pass) return "You can neither split a group nor pay for one: pass.";
  if (index.byKey.size) {
    return "Choose tiles of a group to split them off (you gain a food crate), or take a group (a crate a tile).";
  }
  if (view.you !== null && (view.kept || []).includes(view.you)) {
    return `You have kept a tile. ${waitingWords()}`;
  }
  return waitingWords();
}

function renderMove() {
  const action = chosenAction(index, selection);
  const parts = [];
  if (selection && selection.kind === "split" && !action) {
    parts.push(Object.assign(document.createElement("p"), { className: "aob-choice",
      textContent: `Chosen from group ${selection.group}: ${selection.tiles.join(" ")}. A split leaves at least one tile in the group.` }));
  }
  if (action) {
    const said = Object.assign(document.createElement("p"), { className: "aob-choice",
      id: "aob-choice", textContent: describe(action) });
    const confirm = Object.assign(document.createElement("button"), { type: "button",
      className: "button primary", id: "aob-confirm", textContent: "Confirm" });
    confirm.addEventListener("click", () => send(action));
    parts.push(said, confirm);
  }
  if (selection) {
    const cancel = Object.assign(document.createElement("button"), { type: "button",
      className: "button", id: "aob-cancel", textContent: "Cancel" });
    cancel.addEventListener("click", () => choose(null));
    parts.push(cancel);
  }
  if (index.pass && !selection) {
    const pass = Object.assign(document.createElement("button"), { type: "button",
      className: "button", id: "aob-pass", textContent: "Pass" });
    pass.addEventListener("click", () => choose({ kind: "pass" }));
    parts.push(pass);
  }
  body.replaceChildren(...parts);
}

function renderSince() {
  const told = (page.since_last_move && page.since_last_move.events) || [];
  since.replaceChildren(...told.map((e) => {
    const item = document.createElement("li");
    item.textContent = e.own ? `Your move: ${e.text}` : e.text;
    for (const line of e.after || []) {
      const more = document.createElement("span");
      more.className = "aob-after muted small";
      more.textContent = ` (${line})`;
      item.append(more);
    }
    return item;
  }));
  if (!told.length) {
    const item = document.createElement("li");
    item.className = "muted";
    item.textContent = "Nothing yet.";
    since.append(item);
  }
}

function render() {
  const view = page.state;
  if (!view) return;
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.key : null;
  renderBoard(boardBox, view, { species, names: names(), index, selection, choose });
  if (focused) {
    const again = boardBox.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
  if (status) status.textContent = page.status_text;
  if (lastMove) {
    lastMove.textContent = page.last_move
      ? `Last move: ${page.last_move.words}.` : "";
  }
  hint.textContent = hintText();
  renderMove();
  renderSince();
  if (players) renderPlayers(players, view, names(), view.you);
  showFinalStandings(page);
}

function choose(next) {
  selection = next;
  error.textContent = "";
  render();
}

async function send(action) {
  const sent = await client.submit(action);
  if (sent) selection = null;
  render();
}

const client = createClient({
  root,
  getPage: () => page,
  onState: (fresh, keep) => {
    page = fresh;
    index = indexActions(page.legal_actions);
    // the game moved on under the player's choice: keep what still stands of it
    selection = keep && page.state ? keptSelection(selection, page.state, index) : null;
    render();
  },
  onError: (text) => {
    error.textContent = text;
  },
  onBusy: (busy) => {
    for (const button of root.querySelectorAll(".move-panel button, .aob-board button")) {
      button.disabled = busy;
    }
  },
});

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && selection) {
    e.preventDefault();
    choose(null);
  }
});

render();
client.startPolling();
root.dataset.ready = "true";
// for tests and the curious: the page's state as the client holds it
window.gamePage = { get page() { return page; }, get busy() { return client.isBusy(); } };
