// The game page: draws the game from the page state (games/pages/reads.page_state,
// the API's view of the game plus tile faces, the clock, what happened since the
// player's last move and, at the end, the standings), lets
// the player make a move the way the rule book describes it, posts it to
// POST /api/games/{id}/actions/, and follows the game by polling
// GET /api/games/{id}/events/?since=seq.
//
// A move: choose a tile and a face from the hand -> every legal position for it is
// highlighted -> choose one -> choose among the legal rotations (drawn in place) ->
// claim a feature on the tile (roundels) or not -> confirm, or cancel to start over.
// A flip: choose a tile with a spade (on the board or from "Flip a tile") -> rotation
// -> claim -> confirm. Only the legal actions the server lists are ever offered, and
// before Confirm the page shows what the move would score, as the server works it
// out (GET /api/games/{id}/preview/).

import { renderBoard, tokenSpot, wireZoomButtons } from "./board.js";
import { createClient } from "../games/client.js";
import { showFinalStandings } from "../games/standings.js";
import { drawnView, loadDrawings } from "./drawings.js";
import { movedTile, posText, samePos } from "./moves.js";
import {
  creatureLines, h, renderLog, renderPlayers, renderSince, scorePreviewLines,
  tileSvg,
} from "./panels.js";

const root = document.getElementById("game");
const cfg = {
  // the game's "claims" query at its own address (/api/games/{id}/claims/)
  claimsUrl: root.dataset.namedQueryUrl.replace(/NAME\/$/, "claims/"),
  // how a guess of the fly's or the frog's hops pays (/api/games/{id}/guess_odds/)
  guessOddsUrl: root.dataset.namedQueryUrl.replace(/NAME\/$/, "guess_odds/"),
  previewUrl: root.dataset.previewUrl,
};
const svg = document.getElementById("board");
const els = {
  status: document.getElementById("turn-status"),
  lastMove: document.getElementById("last-move"),
  creatures: document.getElementById("creatures"),
  moveHeading: document.getElementById("move-heading"),
  moveBody: document.getElementById("move-body"),
  moveHint: document.getElementById("move-hint"),
  moveError: document.getElementById("move-error"),
  sinceHeading: document.getElementById("since-heading"),
  sinceList: document.getElementById("since-list"),
  players: document.getElementById("players"),
  log: document.getElementById("score-log"),
  tilesLeft: document.getElementById("tiles-left"),
};

const BEAST_NAMES = { blue: "blue snake", orange: "orange snake", worm: "worm", any: "Beastly beast" };

const drawings = await loadDrawings().catch((e) => {
  // without them no tile can be drawn: say so where the turn is told
  els.status.textContent = "Could not load the tiles' drawings: reload the page to try again.";
  throw e;
});
/** The page's state as the server sends it, with its board's tiles drawn. */
const drawnPage = (data) => ({ ...data, state: drawnView(data.state, drawings) });
let page = drawnPage(JSON.parse(document.getElementById("game-state").textContent));
let stateReadAt = Date.now();
let ui = freshUi();
let board = null;
let claimsRequest = 0;
let previewRequest = 0;
let guessRequest = 0;
/** The server's answer on how the guess being chosen pays, by its key. */
const guessOdds = { key: null, data: null, error: null };

function freshUi() {
  return {
    mode: "idle", // "place" | "flip"
    tile: null,
    face: null,
    at: null,
    rotation: null,
    claims: null, // null: not loaded; array once loaded
    claimsError: null,
    claim: null, // index into claims, or null for no claim
    preview: null, // what the move would score (the server's answer), once loaded
    previewError: null,
    busy: false,
  };
}

// ---------------------------------------------------------------------------
// what the state allows

const legal = () => page.legal_actions || [];
const st = () => page.state;
const players = () => page.players || [];

function placementsFor(tile, face) {
  return legal().filter((a) => a.type === "place" && a.tile === tile && a.face === face);
}

function flipsFor(at = null) {
  return legal().filter((a) => a.type === "flip" && (!at || samePos(a.at, at)));
}

function uniquePositions(actions) {
  const seen = new Map();
  for (const a of actions) seen.set(posText(a.at), a.at);
  return [...seen.values()];
}

function rotationsNow() {
  if (!ui.at) return [];
  const acts = ui.mode === "place" ? placementsFor(ui.tile, ui.face) : flipsFor();
  return [...new Set(acts.filter((a) => samePos(a.at, ui.at)).map((a) => a.rotation))]
    .sort((a, b) => a - b);
}

/** The token a claim takes (boot or pitchfork), as the variant's rules say (the view's). */
function tokenKind(claim) {
  return (st().claim_tokens || {})["arc" in claim ? "arc" : "side"] || "boot";
}

/** The tile as it would lie with the chosen rotation (and claim), or null. */
function previewTile(rotation = ui.rotation, withClaim = true) {
  const tv = movedTile(page.move_previews, ui, rotation);
  if (!tv) return null;
  const claim = withClaim && ui.claims && ui.claim !== null ? ui.claims[ui.claim] : null;
  if (claim) tv.token = { seat: page.you, kind: tokenKind(claim), ...claim };
  return tv;
}

const COMPASS = ["E", "SE", "S", "SW", "W", "NW", "N", "NE"];

/** Where on the tile a spot lies, in words: "NW", "S", "centre". */
function compass([x, y]) {
  const dx = x - 50;
  const dy = y - 50;
  if (Math.hypot(dx, dy) < 12) return "centre";
  const k = Math.round(Math.atan2(dy, dx) / (Math.PI / 4));
  return COMPASS[(k + 8) % 8];
}

function claimWords(claim, tv) {
  const token = tokenKind(claim) === "boot" ? "Welly boot" : "Pitchfork";
  const where = compass(tokenSpot(tv, claim));
  if ("arc" in claim) {
    const region = (tv.regions || []).find((g) => g.arcs.includes(claim.arc));
    const land = region && region.terrain === "S" ? "sand" : "grass";
    return `${token} on the ${land} patch (${where})`;
  }
  const beast = (tv.beasts || []).find((b) => b.sides.includes(claim.side));
  const type = beast ? beast.feature_type || beast.type : null;
  return `${token} on the ${BEAST_NAMES[type] || "beast"} (${where})`;
}

// ---------------------------------------------------------------------------
// the board

function boardView() {
  const s = st();
  let tiles = s.board || [];
  const preview = previewTile();
  if (preview) {
    tiles = tiles.filter((t) => !samePos(t.at, preview.at)).concat([preview]);
  }
  return { players: players(), board: tiles, creatures: s.creatures || {} };
}

function highlights() {
  if (ui.busy || ui.at) return [];
  if (ui.mode === "place") return uniquePositions(placementsFor(ui.tile, ui.face));
  if (ui.mode === "flip") return uniquePositions(flipsFor());
  return [];
}

function outOfView(cells) {
  const vb = board && board.panZoom ? board.panZoom.getViewBox() : null;
  if (!vb) return false;
  return cells.some(([x, y]) => x * 100 < vb.x || y * 100 < vb.y
    || x * 100 + 100 > vb.x + vb.w || y * 100 + 100 > vb.y + vb.h);
}

let userMoved = false; // the board is refitted to new tiles until the player pans or zooms
let shownSpots = "";

function drawBoard() {
  const first = board === null;
  const spots = highlights();
  const view = boardView();
  board = renderBoard(svg, view, {
    highlights: spots,
    lastMoves: (page.since_last_move || {}).tiles || [],
    onCellClick: (pos) => chooseCell(pos),
    onTileClick: (tv) => tileClicked(tv),
    fit: first,
  });
  // the places on offer must be in sight when they are first shown, and new tiles
  // too unless the player has moved the board (or is placing one: see zoomToCell)
  const key = spots.map(posText).join(" ");
  const fresh = key !== shownSpots;
  shownSpots = key;
  if (!first && ((fresh && outOfView(spots))
      || (!userMoved && !ui.at && outOfView(view.board.map((t) => t.at))))) {
    board.fit();
  }
  drawOverlay();
}

const SVGNS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, parent) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/** The outline of the tile being moved and the roundels of the claims it allows. */
function drawOverlay() {
  const content = svg.querySelector("g.marram-content");
  const tv = previewTile(ui.rotation, false);
  if (!content || !tv) return;
  const [x, y] = tv.at;
  const layer = svgEl("g", { class: "move-overlay", transform: `translate(${x * 100} ${y * 100})` },
    content);
  svgEl("rect", { class: "preview-outline", x: 1, y: 1, width: 98, height: 98, rx: 4,
    fill: "none", stroke: "#1a4fa0", "stroke-width": 4, "pointer-events": "none" }, layer);
  if (!ui.claims) return;
  ui.claims.forEach((claim, i) => {
    const [cx, cy] = tokenSpot(tv, claim);
    const chosen = ui.claim === i;
    const label = `Claim ${i + 1}: ${claimWords(claim, tv)}`;
    const g = svgEl("g", {
      class: `roundel${chosen ? " chosen" : ""}`, role: "button", tabindex: 0,
      "aria-label": label, "aria-pressed": chosen ? "true" : "false",
      "data-claim": i, transform: `translate(${cx} ${cy})`,
    }, layer);
    svgEl("title", {}, g).textContent = label;
    if (chosen) {
      // the token is drawn here: ring it, with its number beside it
      svgEl("circle", { r: 15.5, fill: "rgba(255,255,255,0.01)", stroke: "#1a4fa0",
        "stroke-width": 3 }, g);
      svgEl("circle", { cx: -12, cy: -12, r: 6.5, fill: "#1a4fa0", stroke: "#fff",
        "stroke-width": 1.5 }, g);
    } else {
      svgEl("circle", { r: 9.5, fill: "#111", stroke: "#fff", "stroke-width": 2.2,
        opacity: 0.85 }, g);
    }
    const t = svgEl("text", { x: chosen ? -12 : 0, y: chosen ? -12 : 0,
      "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": chosen ? 8 : 11, "font-weight": 700, fill: "#fff", "pointer-events": "none",
      "font-family": "system-ui, sans-serif" }, g);
    t.textContent = String(i + 1);
    const pick = (ev) => {
      ev.stopPropagation();
      chooseClaim(chosen ? null : i);
    };
    g.addEventListener("click", pick);
    g.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        pick(ev);
      }
    });
  });
}

// ---------------------------------------------------------------------------
// choosing a move

function clearError() {
  els.moveError.textContent = "";
}

function showError(text) {
  els.moveError.textContent = text;
}

function chooseFace(tile, face) {
  clearError();
  releaseHeight();
  if (ui.mode === "place" && ui.tile === tile && ui.face === face && !ui.at) {
    ui = freshUi(); // a second press puts it back
  } else {
    ui = { ...freshUi(), mode: "place", tile, face };
  }
  render({ focus: `face-${tile}-${face}` });
}

function startFlip(at = null) {
  clearError();
  releaseHeight();
  if (ui.mode === "flip" && !at && !ui.at) {
    ui = freshUi();
    render({ focus: "flip" });
    return;
  }
  ui = { ...freshUi(), mode: "flip" };
  if (at) chooseCell(at);
  else render({ focus: "flip" });
}

function chooseCell(pos) {
  if (ui.busy || (ui.mode !== "place" && ui.mode !== "flip")) return;
  clearError();
  ui.at = pos;
  const rotations = rotationsNow();
  if (!rotations.length) {
    ui.at = null;
    return;
  }
  ui.rotation = rotations[0];
  loadClaims();
  render({ focus: `rotation-${ui.rotation}` });
  zoomToCell(pos);
}

/** Bring the chosen place close enough to see its roundels (about 4 tiles across). */
function zoomToCell([x, y]) {
  if (!board || !board.panZoom) return;
  const vb = board.panZoom.getViewBox();
  const width = svg.getBoundingClientRect().width || 1;
  if ((100 * width) / vb.w >= 110) return; // already large enough
  board.panZoom.setViewBox({ x: x * 100 - 150, y: y * 100 - 150, w: 400, h: 400 });
}

function chooseRotation(r) {
  if (ui.rotation === r) return;
  clearError();
  ui.rotation = r;
  loadClaims();
  render({ focus: `rotation-${r}` });
}

function rotateNext() {
  const rotations = rotationsNow();
  if (rotations.length < 2) return;
  const next = rotations[(rotations.indexOf(ui.rotation) + 1) % rotations.length];
  chooseRotation(next);
}

function chooseClaim(i) {
  ui.claim = i;
  loadPreview();
  render({ focus: i === null ? "claim-none" : `claim-${i}` });
}

function tileClicked(tv) {
  if (ui.busy) return;
  if (ui.at && samePos(tv.at, ui.at)) {
    rotateNext(); // the rule book: click the tile in place to turn it
    return;
  }
  if (!ui.at && flipsFor(tv.at).length) startFlip(tv.at);
}

function currentAction(withClaim = true) {
  const base = ui.mode === "place"
    ? { type: "place", tile: ui.tile, face: ui.face, at: ui.at, rotation: ui.rotation }
    : { type: "flip", at: ui.at, rotation: ui.rotation };
  if (!withClaim) return base;
  return { ...base, claim: ui.claims && ui.claim !== null ? ui.claims[ui.claim] : null };
}

async function loadClaims() {
  const ticket = ++claimsRequest;
  ui.claims = null;
  ui.claim = null;
  ui.claimsError = null;
  previewRequest++; // the preview of another rotation no longer applies
  ui.preview = null;
  ui.previewError = null;
  const url = `${cfg.claimsUrl}?action=${encodeURIComponent(JSON.stringify(currentAction(false)))}`;
  try {
    const resp = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const data = await resp.json().catch(() => ({}));
    // a move cancelled or sent meanwhile: its claims no longer apply
    if (ticket !== claimsRequest || !ui.at) return;
    if (!resp.ok) {
      ui.claims = [];
      ui.claimsError = data.message || `the server answered ${resp.status}`;
    } else {
      ui.claims = data.claims || [];
    }
  } catch (e) {
    if (ticket !== claimsRequest || !ui.at) return;
    ui.claims = [];
    ui.claimsError = "could not reach the server to list the claims";
  }
  loadPreview();
  render();
}

/** What the move, with its claim, would score: asked of the server (the engine
 * plays it on a copy), never worked out here. */
async function loadPreview() {
  if (!ui.at) return; // no move chosen any more: nothing to preview
  const ticket = ++previewRequest;
  ui.preview = null;
  ui.previewError = null;
  if (!ui.at || ui.rotation === null) return; // no move to preview yet
  const url = `${cfg.previewUrl}?action=${encodeURIComponent(JSON.stringify(currentAction()))}`;
  try {
    const resp = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const data = await resp.json().catch(() => ({}));
    if (ticket !== previewRequest) return;
    if (resp.ok) ui.preview = data;
    else ui.previewError = data.message || `the server answered ${resp.status}`;
  } catch (e) {
    if (ticket !== previewRequest) return;
    ui.previewError = "could not reach the server";
  }
  render();
}

function cancelMove() {
  clearError();
  const focus = ui.mode === "place" ? `face-${ui.tile}-${ui.face}` : "flip";
  ui = freshUi();
  render({ focus });
  if (!userMoved) board.fit();
}

// ---------------------------------------------------------------------------
// sending it

// sent by the generic client (client.js): idempotency key, one retry, stale seq
const client = createClient({
  root,
  getPage: () => page,
  onState: (data, keepPlace) => applyState(data, keepPlace),
  onError: (text) => (text ? showError(text) : clearError()),
  onBusy: (busy) => {
    ui.busy = busy;
    render();
  },
  onSent: () => {
    if (!userMoved) board.fit();
  },
});

function submit(action) {
  if (ui.busy) return Promise.resolve(false);
  previewRequest++;
  reserveHeight();
  return client.submit(action);
}

// ---------------------------------------------------------------------------
// the state from the server

function applyState(data, keepPlace) {
  const keep = keepPlace && ui.mode === "place" ? { tile: ui.tile, face: ui.face } : null;
  // answers still on their way were asked of the old state: they no longer apply
  claimsRequest++;
  previewRequest++;
  page = drawnPage(data);
  stateReadAt = Date.now();
  ui = freshUi();
  // keep the player's place: the chosen tile, if it is still in hand and still fits
  if (keep && placementsFor(keep.tile, keep.face).length) {
    ui = { ...ui, mode: "place", ...keep };
  }
  render();
}

// ---------------------------------------------------------------------------
// drawing the page

// whose turn it is, or how the game ended, for this player: worded by the server
// (games/pages/reads.status_text) with every state it sends
const statusText = () => page.status_text;

/** "Since your last move", or since whose, for the list the server sends. */
function sinceHeading() {
  const since = page.since_last_move;
  if (!since || since.seat === null || since.seat === undefined) return "The latest turn";
  if (since.seat === page.you) return "Since your last move";
  return `Since ${players()[since.seat]}'s last move`;
}

function sinceSummary() {
  const since = page.since_last_move;
  if (!since || !since.events.length) return "";
  const n = since.tiles.length;
  const events = `${since.events.length} event${since.events.length === 1 ? "" : "s"}`;
  const tiles = n === 0 ? "" : n === 1 ? ", the tile laid or flipped outlined on the board"
    : `, the ${n} tiles laid or flipped outlined on the board`;
  return `${sinceHeading()}: ${events}${tiles}.`;
}

// After a confirmed move the panels get shorter (the steps of the move go); the page
// would then be shorter than the window's scroll position and jump. The page keeps
// its height until the player starts the next move.
const pageMain = document.getElementById("main");

function reserveHeight() {
  pageMain.style.minHeight = `${pageMain.offsetHeight}px`;
}

function releaseHeight() {
  pageMain.style.minHeight = "";
}

function setText(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

function renderStatus() {
  const text = statusText();
  setText(els.status, text);
  els.status.classList.toggle("your-turn", legal().length > 0);
  document.title = `${legal().length ? "Your turn · " : ""}Game ${page.game.id} · Marram`;
  setText(els.lastMove, sinceSummary());
  const lines = creatureLines(st().creatures, players());
  els.creatures.replaceChildren(...lines.map((t) => h("li", {}, t)));
  els.creatures.hidden = !lines.length;
  setText(els.tilesLeft, `${st().tiles_left} tile${st().tiles_left === 1 ? "" : "s"} left to draw · ${st().tiles_on_board} on the board`);
}

function hint() {
  if (ui.busy) return "Sending your move…";
  if (ui.mode === "idle") {
    const canLay = legal().some((a) => a.type === "place");
    const canFlip = flipsFor().length > 0;
    if (canLay && canFlip) return "Choose a tile and the face to lay, or flip a tile that has a spade.";
    if (canLay) return "Choose a tile and the face to lay.";
    if (canFlip) return "No tile of yours fits: flip a tile that has a spade, or pass.";
    return "No tile of yours fits: pass.";
  }
  if (!ui.at) {
    const n = highlights().length;
    if (ui.mode === "flip") return `Choose the tile to flip: ${n} highlighted on the board.`;
    return `Choose where to lay ${ui.tile} (${ui.face}): ${n} place${n === 1 ? "" : "s"} highlighted on the board.`;
  }
  if (ui.claims === null) return "Turn the tile, then choose a claim.";
  return "Turn the tile if you like, choose a claim or none, then confirm.";
}

function faceButton(tile, face, fv) {
  const n = uniquePositions(placementsFor(tile, face)).length;
  const selected = ui.mode === "place" && ui.tile === tile && ui.face === face;
  const label = n ? `${tile} ${face}: fits in ${n} place${n === 1 ? "" : "s"}`
    : `${tile} ${face}: fits nowhere`;
  return h("button", {
    type: "button", class: `face-button${selected ? " selected" : ""}`,
    "aria-pressed": selected ? "true" : "false", "aria-label": label,
    disabled: n === 0 || ui.busy, dataset: { tile, face, key: `face-${tile}-${face}` },
    onclick: () => chooseFace(tile, face),
  },
  tileSvg({ ...fv, tile, face }, { className: selected ? "selected" : "" }),
  h("span", { class: "face-caption", "aria-hidden": "true" }, face,
    h("span", { class: "muted fits" }, n ? `${n} place${n === 1 ? "" : "s"}` : "no fit")));
}

function handSection(interactive) {
  const me = page.you;
  const hand = (st().hands || [])[me] || [];
  const faces = st().hand_tiles || {};
  if (!hand.length) return h("p", { class: "muted" }, "You have no tiles in hand.");
  const list = h("ul", { class: "hand", "aria-label": "Your tiles" });
  for (const id of hand) {
    const f = faces[id];
    if (!f) continue;
    const item = h("li", { class: "hand-tile", dataset: { tile: id } },
      h("span", { class: "tile-id" }, id));
    if (interactive) {
      item.append(h("div", { class: "faces", role: "group", "aria-label": `Tile ${id}` },
        faceButton(id, "front", f.front), faceButton(id, "back", f.back)));
    } else {
      item.append(h("div", { class: "faces" },
        tileSvg({ ...f.front, tile: id, face: "front" }, { label: `${id} front` }),
        tileSvg({ ...f.back, tile: id, face: "back" }, { label: `${id} back` })));
    }
    list.append(item);
  }
  return list;
}

function positionButtons() {
  const spots = highlights();
  if (!spots.length) return null;
  const verb = ui.mode === "flip" ? "Flip the tile at" : "Lay at";
  return h("div", { class: "positions" },
    h("p", { class: "small muted", id: "positions-label" },
      ui.mode === "flip" ? "Tiles you may flip:" : "Places that fit:"),
    h("div", { class: "chips", role: "group", "aria-labelledby": "positions-label" },
      spots.map((p) => h("button", {
        type: "button", class: "chip", dataset: { key: `pos-${posText(p)}`, at: posText(p) },
        "aria-label": `${verb} ${posText(p)}`, onclick: () => chooseCell(p),
      }, posText(p)))));
}

function rotationStep() {
  const rotations = rotationsNow();
  const buttons = rotations.map((r) => {
    const tv = previewTile(r, false);
    const chosen = r === ui.rotation;
    return h("button", {
      type: "button", class: `rotation-button${chosen ? " selected" : ""}`,
      "aria-pressed": chosen ? "true" : "false", disabled: ui.busy,
      "aria-label": `Rotation ${r}: turned ${r * 90} degrees`,
      dataset: { rotation: String(r), key: `rotation-${r}` },
      onclick: () => chooseRotation(r),
    }, tileSvg(tv, { className: chosen ? "selected" : "" }),
    h("span", { class: "face-caption", "aria-hidden": "true" }, `${r * 90}°`));
  });
  const what = ui.mode === "flip" ? "the flipped tile" : ui.tile;
  return h("fieldset", { class: "step step-rotation" },
    h("legend", {}, rotations.length > 1
      ? `Turn ${what}: ${rotations.length} ways fit at ${posText(ui.at)}`
      : `${ui.mode === "flip" ? "The flipped tile" : ui.tile} fits one way at ${posText(ui.at)}`),
    h("div", { class: "rotations" }, buttons),
    rotations.length > 1 ? h("button", {
      type: "button", class: "secondary", dataset: { key: "rotate" }, disabled: ui.busy,
      onclick: rotateNext,
    }, "Rotate ⟳") : null);
}

function claimStep() {
  const fs = h("fieldset", { class: "step step-claim" }, h("legend", {}, "Claim a feature on this tile?"));
  if (ui.claims === null) {
    fs.append(h("p", { class: "muted" }, "Looking up what you may claim…"));
    return fs;
  }
  if (ui.claimsError) {
    fs.append(h("p", { class: "error-text" }, `Cannot list the claims: ${ui.claimsError}`));
  }
  const tv = previewTile(ui.rotation, false);
  const options = h("div", { class: "claims", role: "group", "aria-label": "Claims" });
  options.append(h("button", {
    type: "button", class: `claim-button${ui.claim === null ? " selected" : ""}`,
    "aria-pressed": ui.claim === null ? "true" : "false", disabled: ui.busy,
    dataset: { key: "claim-none", claim: "none" }, onclick: () => chooseClaim(null),
  }, "No claim"));
  ui.claims.forEach((claim, i) => {
    const chosen = ui.claim === i;
    options.append(h("button", {
      type: "button", class: `claim-button${chosen ? " selected" : ""}`,
      "aria-pressed": chosen ? "true" : "false", disabled: ui.busy,
      dataset: { key: `claim-${i}`, claim: String(i) }, onclick: () => chooseClaim(i),
    }, h("span", { class: "roundel-number", "aria-hidden": "true" }, String(i + 1)),
    claimWords(claim, tv)));
  });
  fs.append(options);
  const supply = (st().supply || [])[page.you] || {};
  const stock = tokenKind({ side: 0 }) === "boot"
    ? `${supply.boots} welly boot${supply.boots === 1 ? "" : "s"}`
    : `${supply.boots} boot${supply.boots === 1 ? "" : "s"}, ${supply.pitchforks} pitchfork${supply.pitchforks === 1 ? "" : "s"}`;
  fs.append(h("p", { class: "small muted" },
    ui.claims.length ? `The numbers match the roundels on the tile. You have ${stock} in stock.`
      : `Nothing on this tile can be claimed now (you have ${stock}).`));
  return fs;
}

function confirmRow() {
  const action = currentAction();
  const what = action.type === "place" ? `lay ${action.tile} at ${posText(action.at)}`
    : `flip the tile at ${posText(action.at)}`;
  const claim = action.claim ? " and claim" : "";
  let preview;
  if (ui.previewError) preview = [`Cannot work out the score: ${ui.previewError}`];
  else if (ui.preview) preview = scorePreviewLines(ui.preview, players(), page.you);
  else preview = ["Working out what this move scores…"];
  return h("div", { class: "confirm-step" },
    h("ul", { class: "score-preview", id: "score-preview", "aria-live": "polite",
      dataset: { ready: ui.preview || ui.previewError ? "true" : "false" } },
    preview.map((line) => h("li", {}, line))),
    h("div", { class: "confirm-row" },
    h("button", {
      type: "button", class: "primary", dataset: { key: "confirm", action: "confirm" },
      disabled: ui.busy || ui.claims === null, onclick: () => submit(currentAction()),
    }, ui.busy ? "Sending…" : `Confirm: ${what}${claim}`),
    h("button", {
      type: "button", class: "secondary", dataset: { key: "cancel", action: "cancel" },
      disabled: ui.busy, onclick: cancelMove,
    }, "Cancel")));
}

function percent(chance) {
  return `${(100 * chance).toFixed(chance > 0 && chance < 0.01 ? 2 : 1)}%`;
}

function guessLabel(guess) {
  return guess === "escape" ? "it escapes" : `${guess} hop${guess === 1 ? "" : "s"}`;
}

/** What the guess pays, as the server worked it out (the board's odds of each
 * fate and the rule that scores the guesses); nothing of it computed here. */
function fillGuessOdds(box, data) {
  const fate = data.fates.find((f) => f.fate === data.guess);
  const best = [...data.expected_by_guess].sort((a, b) => b.expected - a.expected).slice(0, 3);
  const shown = data.fates.filter((f) => f.chance > 0 || f.points > 0);
  box.replaceChildren(
    h("p", {}, `If you guess ${guessLabel(data.guess)}: ${data.expected} points expected. `,
      data.guess === "escape"
        ? `It escapes with a chance of ${percent(fate.chance)}; this guess then pays ${fate.points}.`
        : `It is eaten after exactly ${data.guess} hops with a chance of ${percent(fate.chance)}; `
          + `this guess then pays ${fate.points}.`),
    h("p", {}, "Most points expected: "
      + best.map((b) => `${guessLabel(b.guess)} (${b.expected})`).join(", ")
      + ". The odds are those of the board as it lies: tiles laid meanwhile may change them."),
    h("details", {},
      h("summary", {}, "Every fate: its chance, and what this guess pays"),
      h("table", { class: "guess-odds-table" },
        h("thead", {}, h("tr", {}, h("th", {}, "Fate"), h("th", {}, "Chance"), h("th", {}, "Pays"))),
        h("tbody", {}, ...shown.map((f) => h("tr", {},
          h("td", {}, f.fate === "escape" ? "escapes" : `eaten after ${f.fate}`),
          h("td", {}, percent(f.chance)), h("td", {}, String(f.points))))))));
}

async function loadGuessOdds(box, creature, guess) {
  const key = `${creature}:${guess}`;
  if (guessOdds.key === key && (guessOdds.data || guessOdds.error)) {
    if (guessOdds.data) fillGuessOdds(box, guessOdds.data);
    else box.replaceChildren(h("p", {}, `No odds: ${guessOdds.error}.`));
    return;
  }
  const ticket = ++guessRequest;
  box.replaceChildren(h("p", {}, "Working out how this guess pays…"));
  const action = { type: "guess", creature, hops: guess };
  const url = `${cfg.guessOddsUrl}?action=${encodeURIComponent(JSON.stringify(action))}`;
  let data = null;
  let error = null;
  try {
    const resp = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const body = await resp.json().catch(() => ({}));
    if (resp.ok) data = body.guess_odds;
    else error = body.message || `the server answered ${resp.status}`;
  } catch (e) {
    error = "could not reach the server";
  }
  if (ticket !== guessRequest) return;
  Object.assign(guessOdds, { key, data, error });
  if (data) fillGuessOdds(box, data);
  else box.replaceChildren(h("p", {}, `No odds: ${error}.`));
}

function guessForm(creature) {
  const form = h("form", { class: "guess-form", dataset: { creature } });
  const hopsId = `guess-hops-${creature}`;
  const oddsBox = h("div", { class: "guess-odds small", "aria-live": "polite" });
  form.append(h("fieldset", {},
    h("legend", {}, `How many hops will the ${creature} make before a blue snake eats it?`),
    h("p", { class: "small muted" },
      "The closest guess scores 12 points, 12 more if exact. Or bet that it escapes (survives 30 hops)."),
    h("div", { class: "guess-row" },
      h("label", {}, h("input", { type: "radio", name: "kind", value: "hops", checked: true }),
        " A number of hops"),
      h("label", { for: hopsId, class: "visually-hidden" }, "Hops, 1 to 30"),
      h("input", { id: hopsId, name: "hops", type: "number", min: 1, max: 30, value: 10,
        required: true, inputmode: "numeric" })),
    h("label", {}, h("input", { type: "radio", name: "kind", value: "escape" }),
      ` It escapes`)),
    oddsBox);
  form.append(h("button", { type: "submit", class: "primary", disabled: ui.busy,
    dataset: { key: "guess" } }, ui.busy ? "Sending…" : "Send my guess"));
  const chosen = () => {
    if (form.elements.kind.value === "escape") return "escape";
    const hops = Number(form.elements.hops.value);
    return Number.isInteger(hops) && hops >= 1 && hops <= 30 ? hops : null;
  };
  const showOdds = () => {
    const guess = chosen();
    if (guess === null) oddsBox.replaceChildren();
    else loadGuessOdds(oddsBox, creature, guess);
  };
  form.addEventListener("change", showOdds);
  showOdds();
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const escape = form.elements.kind.value === "escape";
    const hops = Number(form.elements.hops.value);
    if (!escape && !(Number.isInteger(hops) && hops >= 1 && hops <= 30)) {
      showError("A guess is a whole number of hops from 1 to 30, or “escapes”.");
      return;
    }
    submit({ type: "guess", creature, hops: escape ? "escape" : hops });
  });
  return form;
}

function renderMovePanel() {
  const s = st();
  const body = els.moveBody;
  const acts = legal();
  body.replaceChildren();
  if (page.you === null) {
    setText(els.moveHeading, s.finished ? "The game is over" : "Watching");
    setText(els.moveHint, "You are not playing in this game.");
    return;
  }
  if (s.finished) {
    setText(els.moveHeading, "The game is over");
    setText(els.moveHint, "");
    body.append(h("p", {}, statusText()));
    if (root.dataset.replayUrl) {
      body.append(h("p", { class: "actions" },
        h("a", { class: "button primary", href: root.dataset.replayUrl }, "Replay it move by move")));
    }
    return;
  }
  if (!acts.length) {
    setText(els.moveHeading, "Waiting");
    setText(els.moveHint, statusText());
    body.append(h("h3", { class: "small-heading" }, "Your tiles"), handSection(false));
    return;
  }
  if (acts[0].type === "guess") {
    setText(els.moveHeading, `Your guess: the ${acts[0].creature}`);
    setText(els.moveHint, "");
    body.append(guessForm(acts[0].creature));
    return;
  }
  setText(els.moveHeading, `Your move: ${s.awaiting.move} of 2`);
  setText(els.moveHint, hint());
  body.append(handSection(true));
  const tools = h("div", { class: "move-tools" });
  const flips = flipsFor();
  if (flips.length) {
    const spades = ((s.supply || [])[page.you] || {}).spades;
    tools.append(h("button", {
      type: "button", class: `secondary${ui.mode === "flip" ? " selected" : ""}`,
      "aria-pressed": ui.mode === "flip" ? "true" : "false", disabled: ui.busy,
      dataset: { key: "flip", action: "flip" }, onclick: () => startFlip(),
    }, `Flip a tile (${spades} spade card${spades === 1 ? "" : "s"} left)`));
  }
  const pass = acts.find((a) => a.type === "pass");
  if (pass) {
    tools.append(h("button", {
      type: "button", class: "secondary", disabled: ui.busy,
      dataset: { key: "pass", action: "pass" }, onclick: () => submit({ type: "pass" }),
    }, (s.hands[page.you] || []).length
      ? "Pass: none of your tiles fits (new tiles are dealt)"
      : "Pass: you have no tiles to lay"));
  }
  if (tools.childNodes.length) body.append(tools);
  if (ui.mode !== "idle" && !ui.at) body.append(positionButtons() || "");
  if (ui.at) body.append(rotationStep(), claimStep(), confirmRow());
  else if (ui.mode !== "idle") {
    body.append(h("div", { class: "confirm-row" }, h("button", {
      type: "button", class: "secondary", dataset: { key: "cancel", action: "cancel" },
      onclick: cancelMove,
    }, "Cancel")));
  }
}

function render({ focus = null } = {}) {
  const active = document.activeElement;
  const keep = focus || (active && els.moveBody.contains(active) ? active.dataset.key : null);
  const s = st();
  renderStatus();
  drawBoard();
  renderMovePanel();
  renderPlayers(els.players, players(), s, {
    you: page.you, clock: page.clock, clockAt: stateReadAt,
    hideHandOf: s.finished ? null : page.you, // the move panel shows it
  });
  renderLog(els.log, s.log, players());
  setText(els.sinceHeading, sinceHeading());
  renderSince(els.sinceList, page.since_last_move, players(), page.you);
  showFinalStandings(page);
  if (keep) {
    const target = els.moveBody.querySelector(`[data-key="${CSS.escape(keep)}"]`);
    if (target && !target.disabled) target.focus({ preventScroll: true });
  }
}

// ---------------------------------------------------------------------------
// zoom buttons (the board also takes the wheel, pinches, drags and + - 0 keys)

const moved = () => {
  userMoved = true;
};
svg.addEventListener("wheel", moved, { passive: true });
svg.addEventListener("pointerdown", (ev) => {
  // a click on a highlight or a tile is not a pan; a drag is caught by the move
  const start = { x: ev.clientX, y: ev.clientY };
  const onMove = (e) => {
    if (Math.hypot(e.clientX - start.x, e.clientY - start.y) > 5) moved();
  };
  svg.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", () => svg.removeEventListener("pointermove", onMove),
    { once: true });
});
svg.addEventListener("keydown", (ev) => {
  if (ev.target === svg && ["+", "-", "=", "_", "ArrowLeft", "ArrowRight", "ArrowUp",
    "ArrowDown"].includes(ev.key)) moved();
});
wireZoomButtons({ zoomIn: "zoom-in", zoomOut: "zoom-out", fit: "zoom-fit" }, () => board, {
  onZoom: moved,
  onFit: () => {
    userMoved = false;
  },
});
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && ui.mode !== "idle" && !ui.busy) cancelMove();
});

render();
client.startPolling();
root.dataset.ready = "true";
window.marramGame = { get page() { return page; }, get ui() { return ui; }, reload: () => client.reload(true) };
