// Pieces Marram's game page (game.js) and its replay (marram/replay.js) share:
// the players' panels, the score log and small tile pictures.
// A plain ES module, no build step.

import { renderTile } from "./board.js";
import { colourOf, h, swatch } from "../games/pieces.js";

export { colourOf, h, swatch }; // for game.js, which takes them from here

const SVGNS = "http://www.w3.org/2000/svg";

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
 * supply, hands, hand_tiles, resigned, winners, awaiting, finished, claim_tokens.
 * Options: you (seat or null), clock ({text, seconds_left, days_per_move}),
 * showHands, hideHandOf (a seat whose
 * hand is shown elsewhere).
 */
export function renderPlayers(list, players, state, options = {}) {
  list.replaceChildren();
  const you = options.you ?? null;
  const waitingFor = state.finished ? null : state.awaiting?.player ?? null;
  const winners = new Set(state.winners || []);
  const resigned = new Set(state.resigned || []);
  // pitchforks are in play where a beast is claimed with one (the view says)
  const pitchforks = (state.claim_tokens || {}).side === "pitchfork";
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

const nameOf = (players, seat) => players[seat] ?? `Seat ${seat + 1}`;
const forWhom = (players, seat, you) => (seat === you ? "you" : nameOf(players, seat));

/** "+5 for ann (sand patch with 1 bulge)", for each award an event made. */
function awardWords(awards, players, you) {
  return (awards || []).map((a) => `+${a.points} for ${forWhom(players, a.seat, you)}`
    + ` (${a.feature})`).join(", ");
}

/**
 * What happened since the player's last move (games/pages/reads.since_last_move):
 * each event in the server's words, with the points it scored.
 */
export function renderSince(list, since, players, you) {
  list.replaceChildren();
  const events = (since && since.events) || [];
  if (!events.length) {
    list.append(h("li", { class: "muted" }, "Nothing has happened since."));
    return;
  }
  if (since.more) list.append(h("li", { class: "muted" }, "… earlier events are in the replay"));
  for (const event of events) {
    const seat = event.player;
    const scored = awardWords(event.points, players, you);
    list.append(h("li", { dataset: { seq: String(event.seq), type: event.type || "" } },
      Number.isInteger(seat) ? swatch(seat, players, "small") : null, " ",
      h("span", { class: "since-text" }, event.text),
      scored ? h("span", { class: "points" }, ` ${scored}`) : null));
  }
}

const KIND_WORDS = {
  grass: ["grass patch", "grass patches"], sand: ["sand patch", "sand patches"],
  blue: ["blue snake", "blue snakes"], orange: ["orange snake", "orange snakes"],
  worm: ["worm", "worms"], freak: ["freak beast", "freak beasts"],
};

/**
 * What a move would score, in words, from the server's preview (engine.preview:
 * awards, completed, ends_game): "Completes the sand patch with 1 bulge: +5 for you".
 */
export function scorePreviewLines(preview, players, you) {
  const lines = (preview.awards || []).map((a) => `Completes the ${a.feature}: +${a.points} `
    + `for ${forWhom(players, a.seat, you)}`);
  // completed features that nobody held score nothing: say so (tied holders each
  // have an award for the one feature: count the features, not the awards)
  for (const [kind, n] of Object.entries(preview.completed || {})) {
    const scored = new Set((preview.awards || []).filter((a) => a.kind === kind)
      .map((a) => a.feature)).size;
    const bare = n - Math.min(n, scored);
    const [one, many] = KIND_WORDS[kind] || [kind, kind];
    if (bare === 1) lines.push(`Completes a ${one} that nobody holds: no points`);
    else if (bare > 1) lines.push(`Completes ${bare} ${many} that nobody holds: no points`);
  }
  if (!lines.length) lines.push("This move scores nothing now.");
  if (preview.ends_game) lines.push("It ends the game.");
  return lines;
}
