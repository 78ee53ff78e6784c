// Pieces the game page (game.js) and the replay viewer (replay.js) share: the
// players' panels, the score log, seat swatches and small tile pictures.
// A plain ES module, no build step.

import { PLAYER_COLOURS, renderTile, seatLabels } from "./board.js";

const SVGNS = "http://www.w3.org/2000/svg";

/** Make an element: h("button", {class: "x", onclick: f}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style" && typeof v === "object") Object.assign(node.style, v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function colourOf(seat) {
  return PLAYER_COLOURS[seat % PLAYER_COLOURS.length];
}

function luminance(hex) {
  const v = parseInt(String(hex).replace("#", ""), 16);
  const [r, g, b] = [(v >> 16) & 255, (v >> 8) & 255, v & 255].map((c) => c / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** A seat's colour with its letter on it: never colour alone. */
export function swatch(seat, players, extraClass = "") {
  const colour = colourOf(seat);
  const label = seatLabels(players)(seat);
  return h("span", {
    class: `swatch ${extraClass}`.trim(),
    style: { background: colour, color: luminance(colour) > 0.55 ? "#111" : "#fff" },
    "aria-hidden": "true",
  }, label);
}

/** A small <svg> showing one tile face (a face_view or tile_view-like object). */
export function tileSvg(faceView, { label = "", size = null, className = "" } = {}) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("class", `marram-tile ${className}`.trim());
  svg.setAttribute("viewBox", "-2 -2 104 104");
  svg.setAttribute("role", "img");
  if (label) svg.setAttribute("aria-label", label);
  if (size) {
    svg.style.width = `${size}px`;
    svg.style.height = `${size}px`;
  }
  const g = document.createElementNS(SVGNS, "g");
  svg.appendChild(g);
  renderTile(g, faceView || {});
  return svg;
}

/**
 * The players' panels. ``state`` is the API's (or a replay step's) state: scores,
 * supply, hands, hand_tiles, resigned, winners, awaiting, finished.
 * Options: you (seat or null), variant, clock ({text, seconds_left, days_per_move}),
 * showHands, hideHandOf (a seat whose
 * hand is shown elsewhere).
 */
export function renderPlayers(list, players, state, options = {}) {
  list.replaceChildren();
  const you = options.you ?? null;
  const waitingFor = state.finished ? null : state.awaiting?.player ?? null;
  const winners = new Set(state.winners || []);
  const resigned = new Set(state.resigned || []);
  const pitchforks = options.variant && options.variant !== "classic";
  players.forEach((name, seat) => {
    const supply = (state.supply || [])[seat] || {};
    const tags = [];
    if (seat === you) tags.push(h("span", { class: "tag tag-you" }, "you"));
    if (seat === waitingFor) {
      const what = state.awaiting.kind === "guess" ? "to guess" : "to move";
      tags.push(h("span", { class: "tag tag-turn" }, what));
    }
    if (state.finished && winners.has(seat)) tags.push(h("span", { class: "tag tag-win" }, "winner"));
    if (resigned.has(seat)) tags.push(h("span", { class: "tag tag-resigned" }, "resigned"));
    const stat = (label, value, key) => h("div", { class: "stat" },
      h("dt", {}, label), h("dd", { dataset: key ? { stat: key } : {} }, value));
    const stats = h("dl", { class: "stats" },
      stat("Score", (state.scores || [])[seat] ?? 0, "score"),
      stat("Boots", supply.boots ?? "–", "boots"),
      pitchforks ? stat("Pitchforks", supply.pitchforks ?? "–", "pitchforks") : null,
      stat("Spades", supply.spades ?? "–", "spades"));
    const item = h("li", {
      class: ["player", seat === waitingFor ? "to-move" : "", seat === you ? "is-you" : "",
        resigned.has(seat) ? "resigned" : ""].join(" ").trim(),
      dataset: { seat: String(seat) },
      "aria-current": seat === waitingFor ? "true" : null,
    },
    h("div", { class: "player-head" }, swatch(seat, players),
      h("span", { class: "player-name", dataset: { name: "" } }, name), ...tags),
    stats);
    if (seat === waitingFor && options.clock?.text) {
      // in words by the server, which knows the clock's rule (games.pages.reads.clock_text)
      item.append(h("p", { class: "clock" }, options.clock.text));
    }
    const hand = (state.hands || [])[seat] || [];
    const showHand = options.showHands !== false && seat !== options.hideHandOf;
    if (showHand && hand.length) {
      const tiles = h("ul", { class: "hand-mini", "aria-label": `${name}'s tiles in hand` });
      for (const id of hand) {
        const faces = (state.hand_tiles || {})[id];
        if (!faces) continue;
        tiles.append(h("li", { class: "hand-mini-tile", dataset: { tile: id } },
          tileSvg({ ...faces.front, tile: id, face: "front" }, { label: `${id} front`, size: 44 }),
          tileSvg({ ...faces.back, tile: id, face: "back" }, { label: `${id} back`, size: 44 }),
          h("span", { class: "tile-id" }, id)));
      }
      item.append(tiles);
    } else if (showHand && !state.finished) {
      item.append(h("p", { class: "muted small" }, "No tiles in hand"));
    }
    list.append(item);
  });
}

/** The score log, newest first: who scored what, for which feature. */
export function renderLog(list, log, players, { highlightEvent = null } = {}) {
  list.replaceChildren();
  const entries = [...(log || [])].reverse();
  if (!entries.length) {
    list.append(h("li", { class: "muted" }, "Nobody has scored yet."));
    return;
  }
  for (const entry of entries) {
    const name = players[entry.seat] ?? `Seat ${entry.seat + 1}`;
    list.append(h("li", {
      class: entry.event === highlightEvent ? "just-scored" : "",
      dataset: { event: String(entry.event) },
    },
    swatch(entry.seat, players, "small"), " ",
    h("strong", {}, name), " ",
    h("span", { class: "points" }, `+${entry.points}`), " ",
    h("span", { class: "feature" }, entry.feature),
    entry.unfinished ? h("span", { class: "muted" }, " (unfinished, at the end)") : null));
  }
}

/** The fly and the frog, in words. */
export function creatureLines(creatures, players) {
  const out = [];
  for (const [name, c] of Object.entries(creatures || {})) {
    if (!c) continue;
    let text;
    if (c.status === "waiting") continue;
    if (c.status === "on_board") text = `The ${name} is on the board at ${c.at[0]},${c.at[1]} after ${c.hops} hop${c.hops === 1 ? "" : "s"}`;
    else if (c.status === "eaten") text = `The ${name} was eaten after ${c.hops} hops`;
    else text = `The ${name} escaped`;
    const guesses = Object.entries(c.guesses || {})
      .map(([seat, g]) => `${players[Number(seat)] ?? seat}: ${g}`);
    if (guesses.length) text += ` — guesses: ${guesses.join(", ")}`;
    out.push(text);
  }
  return out;
}
