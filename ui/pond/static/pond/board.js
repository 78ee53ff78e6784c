// Pond's board in SVG, shared by the game page (pond/game.js) and the replay
// viewer (pond/replay.js), and the pure helpers both use. Nothing here knows a
// rule: where an egg may go and where a piece may move come from the server's
// legal actions, and what a move would do from its "preview" query.
//
// The pure parts (pieceAt, eggSpots, movablePieces, destinations, actionFor,
// cellLabel, turnLines) are unit-tested in tests/js/pond.test.js.

const SVGNS = "http://www.w3.org/2000/svg";
const CELL = 100;
const RULER = 36;
const FACES = { e: "egg", t: "tadpole", f: "frog" };
const COLOURS = ["light", "dark"];

/** The piece at [x, y] of the view's rows (one string a row: "." empty, "etf" light, "ETF" dark). */
export function pieceAt(rows, x, y) {
  const letter = (rows[y] || "")[x];
  if (!letter || letter === ".") return null;
  const face = FACES[letter.toLowerCase()];
  if (!face) return null;
  return { colour: letter === letter.toLowerCase() ? "light" : "dark", face };
}

export const posKey = (pos) => `${pos[0]},${pos[1]}`;
const samePos = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

/** The positions where an egg may go, from the legal actions. */
export function eggSpots(legal) {
  return (legal || []).filter((a) => a.type === "egg").map((a) => a.at);
}

/** The positions of the pieces that may move, each once, from the legal actions. */
export function movablePieces(legal) {
  const seen = new Map();
  for (const a of legal || []) if (a.type === "move") seen.set(posKey(a.from), a.from);
  return [...seen.values()];
}

/** Where the piece at ``from`` may go, from the legal actions. */
export function destinations(legal, from) {
  return (legal || []).filter((a) => a.type === "move" && samePos(a.from, from)).map((a) => a.to);
}

/** The legal action that places an egg at ``at`` (no ``from``) or moves ``from`` to ``at``. */
export function actionFor(legal, at, from = null) {
  return (legal || []).find((a) => (from === null
    ? a.type === "egg" && samePos(a.at, at)
    : a.type === "move" && samePos(a.from, from) && samePos(a.to, at))) || null;
}

/** A position in words for a screen reader: "2,3: dark tadpole" or "2,3: empty". */
export function cellLabel(pos, piece) {
  return `${posKey(pos)}: ${piece ? `${piece.colour} ${piece.face}` : "empty"}`;
}

/** "0,0", "0,0 and 2,0", "0,0, 2,0 and 1,1": north first, then west first. */
export function positionsWords(positions) {
  const names = [...positions].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(posKey);
  return names.length < 2 ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

const nameOf = (players, seat) => (players && players[seat]) ?? (seat === 0 ? "light" : "dark");
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/**
 * What an egg or a move did (the view's "last") or would do (the preview's "last"
 * and "gains"), in words: what developed and who scores what.
 */
export function turnLines(last, { players = [], you = null, gains = null, colours = COLOURS } = {}) {
  if (!last) return [];
  const lines = [];
  const developed = last.developed || [];
  lines.push(developed.length
    ? `Develops ${plural(developed.length, "piece", "pieces")}: ${positionsWords(developed)}`
    : "Develops nothing");
  const scored = last.scored || [];
  if (!scored.length) {
    lines.push("Scores nothing");
  } else {
    const perSeat = gains || colours.map((c) => scored.filter((s) => s.colour === c).length);
    const parts = perSeat.map((n, seat) => (n ? `+${n} for ${seat === you ? "you" : nameOf(players, seat)} (${colours[seat]})` : null))
      .filter(Boolean);
    lines.push(`Scores ${plural(scored.length, "piece", "pieces")}: ${parts.join(", ")}`);
  }
  return lines;
}

/** Make an HTML element: h("button", {class: "x", onclick: f}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** One piece, drawn in a 100x100 cell centred on (50, 50). */
export function pieceShape(piece, extraClass = "") {
  const g = el("g", { class: `piece ${piece.colour} ${piece.face} ${extraClass}`.trim() });
  if (piece.face === "egg") {
    g.append(el("ellipse", { class: "body", cx: 50, cy: 50, rx: 22, ry: 29 }));
  } else if (piece.face === "tadpole") {
    g.append(el("path", { class: "body", d: "M48 60 L60 76 L52 90 L64 94 L68 78 L60 58 Z" }));
    g.append(el("ellipse", { class: "body", cx: 50, cy: 42, rx: 20, ry: 22 }));
    g.append(el("circle", { class: "mark", cx: 42, cy: 40, r: 4 }));
    g.append(el("circle", { class: "mark", cx: 58, cy: 40, r: 4 }));
  } else {
    g.append(el("path", { class: "leg", d: "M28 60 L12 80 L24 88 M72 60 L88 80 L76 88 M30 40 L14 24 M70 40 L86 24" }));
    g.append(el("ellipse", { class: "body", cx: 50, cy: 53, rx: 30, ry: 27 }));
    for (const ex of [36, 64]) {
      g.append(el("circle", { class: "body", cx: ex, cy: 23, r: 9 }));
      g.append(el("circle", { class: "mark", cx: ex, cy: 23, r: 4 }));
    }
  }
  return g;
}

/** A small SVG of one piece, for panels and buttons. */
export function pieceIcon(colour, face, label = "") {
  const svg = el("svg", { class: "pond-icon", viewBox: "0 0 100 100",
    role: label ? "img" : null, "aria-label": label || null, "aria-hidden": label ? null : "true" });
  svg.append(pieceShape({ colour, face }));
  return svg;
}

/**
 * Draw the pond into ``container`` (its children are replaced by one <svg>).
 * ``view``: {size, board (rows), last}. Options:
 * - ``choices``: Map of "x,y" -> {kind: "egg" | "piece" | "dest" | "selected", label}:
 *   highlighted, focusable positions; ``onChoose(pos, choice)`` is called on a
 *   click, Enter or Space; ``onOther(pos, piece)`` on a click on a piece that is
 *   not a choice (the page says why);
 * - ``shown``: {board, last} to draw instead of the view's (a preview);
 * - ``lastClass``: the class of the outline of the last turn ("last" or "preview");
 * - ``label``: the SVG's accessible name.
 * Returns the <svg>.
 */
export function renderBoard(container, view, options = {}) {
  const size = view.size || (view.board || []).length;
  const shown = options.shown || view;
  const rows = shown.board || [];
  const last = shown.last || null;
  const choices = options.choices || new Map();
  const extent = RULER + size * CELL;
  const svg = el("svg", { class: "pond-svg", viewBox: `0 0 ${extent + 4} ${extent + 4}`,
    role: "group", "aria-label": options.label || `The ${size}x${size} pond` });
  for (let i = 0; i < size; i++) {
    svg.append(el("text", { class: "ruler", x: RULER + i * CELL + CELL / 2, y: RULER / 2 + 2,
      "aria-hidden": "true" }, document.createTextNode(String(i))));
    svg.append(el("text", { class: "ruler", x: RULER / 2, y: RULER + i * CELL + CELL / 2 + 2,
      "aria-hidden": "true" }, document.createTextNode(String(i))));
  }
  svg.append(el("rect", { class: "water", x: RULER, y: RULER, width: size * CELL,
    height: size * CELL, rx: 8 }));
  const scoredAt = new Map((last?.scored || []).map((s) => [posKey(s.at), s]));
  const developed = new Set((last?.developed || []).map(posKey));
  const lastClass = options.lastClass || "last";
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const pos = [x, y];
      const key = posKey(pos);
      const piece = pieceAt(rows, x, y);
      const choice = choices.get(key);
      const classes = ["cell"];
      if (choice) classes.push("choice", `choice-${choice.kind}`);
      if (last && samePos(last.at, pos)) classes.push(`${lastClass}-at`);
      if (developed.has(key)) classes.push(`${lastClass}-developed`);
      if (scoredAt.has(key)) classes.push(`${lastClass}-scored`);
      const scored = scoredAt.get(key);
      let label = cellLabel(pos, piece);
      if (scored) label += `, a ${scored.colour} ${scored.face} scored here`;
      if (choice?.label) label = `${choice.label} (${label})`;
      const g = el("g", { class: classes.join(" "), "data-x": x, "data-y": y,
        transform: `translate(${RULER + x * CELL} ${RULER + y * CELL})`,
        role: choice ? "button" : "img", tabindex: choice ? 0 : null, "aria-label": label,
        "aria-pressed": choice?.kind === "selected" ? "true" : null });
      g.append(el("rect", { class: "square", x: 2, y: 2, width: CELL - 4, height: CELL - 4, rx: 6 }));
      if (piece) g.append(pieceShape(piece));
      else if (scored) g.append(pieceShape(scored, "ghost"));
      if (scored) g.append(el("text", { class: "scored-mark", x: 84, y: 22, "aria-hidden": "true" },
        document.createTextNode("★")));
      if (choice && !piece && choice.kind !== "selected") {
        g.append(el("circle", { class: "spot", cx: 50, cy: 50, r: 12 }));
      }
      if (!choice && piece && options.onOther) {
        g.addEventListener("click", () => options.onOther(pos, piece));
      }
      if (choice && options.onChoose) {
        g.addEventListener("click", () => options.onChoose(pos, choice));
        g.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault();
            options.onChoose(pos, choice);
          }
        });
      }
      svg.append(g);
    }
  }
  container.replaceChildren(svg);
  return svg;
}
