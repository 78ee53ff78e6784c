// Animals on Board's table, drawn from a seat's view (the engine's view: the
// middle's groups with "?" for the face-down tile, the seat's own ark, everyone's
// crates and ark counts). renderBoard serves the game page and the replay step;
// the pure helpers (actionKey, indexActions, chosenAction, tileName) are exported
// for the unit tests (tests/js/animals_on_board.test.js). No rule is decided here:
// what may be chosen comes from the server's legal actions, prices from the view.

const SVG = "http://www.w3.org/2000/svg";
export const FACE_DOWN = "?";

/** The species table (species.json: a name, a colour and a drawing per letter). */
let table = null;
export async function loadSpecies() {
  if (table === null) {
    const resp = await fetch(new URL("./species.json", import.meta.url));
    table = await resp.json();
  }
  return table;
}

/** "C4" -> "Camel 4"; "?" -> "the face-down tile". */
export function tileName(species, tile) {
  if (tile === FACE_DOWN) return "the face-down tile";
  const kind = species && species[tile[0]];
  return `${kind ? kind.name : tile[0]} ${tile.slice(1)}`;
}

/** An action's identity, whatever the order of a split's part. */
export function actionKey(action) {
  const part = action.part ? [...action.part].sort().join(",") : "";
  return [action.type, action.group ?? "", action.tile ?? "", part].join("|");
}

/** The legal actions, indexed for the board: which keeps, takes and splits exist. */
export function indexActions(actions) {
  const index = { byKey: new Map(), keeps: new Map(), takes: new Map(),
    splitGroups: new Set(), pass: null };
  for (const action of actions || []) {
    index.byKey.set(actionKey(action), action);
    if (action.type === "keep") index.keeps.set(action.tile, action);
    else if (action.type === "take") index.takes.set(action.group, action);
    else if (action.type === "split") index.splitGroups.add(action.group);
    else if (action.type === "pass") index.pass = action;
  }
  return index;
}

/** The legal action the selection names, or null if it names none. */
export function chosenAction(index, selection) {
  if (!selection) return null;
  if (selection.kind === "keep") return index.keeps.get(selection.tile) || null;
  if (selection.kind === "take") return index.takes.get(selection.group) || null;
  if (selection.kind === "pass") return index.pass;
  if (selection.kind === "split") {
    return index.byKey.get(actionKey({ type: "split", group: selection.group,
      part: selection.tiles })) || null;
  }
  return null;
}

/** The selection after a tile of a group is chosen (or chosen again: unchosen). */
export function toggleTile(selection, group, tile) {
  if (!selection || selection.kind !== "split" || selection.group !== group) {
    return { kind: "split", group, tiles: [tile] };
  }
  const tiles = selection.tiles.includes(tile)
    ? selection.tiles.filter((t) => t !== tile) : [...selection.tiles, tile];
  return tiles.length ? { kind: "split", group, tiles } : null;
}

/**
 * The player's choice after the game moved on under it (a refresh): what still
 * stands of it. A take stands only if its group holds the same tiles (group
 * numbers shift when a group is taken); a split keeps its tiles still in the
 * group; a keep or a pass stands if it is still legal.
 */
export function keptSelection(selection, view, index) {
  if (!selection) return null;
  const group = view.middle[selection.group];
  if (selection.kind === "take") {
    const same = group && group.join(" ") === (selection.tiles || []).join(" ");
    return same && index.takes.has(selection.group) ? selection : null;
  }
  if (selection.kind === "split") {
    if (!group || !index.splitGroups.has(selection.group)) return null;
    const tiles = selection.tiles.filter((t) => group.includes(t));
    return tiles.length ? { ...selection, tiles } : null;
  }
  return chosenAction(index, selection) ? selection : null;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Where the colours of a drawing come from: the species', or ink and paper. */
function shapeColour(shape, colour) {
  if (shape.fill === "ink") return "#2b2b2b";
  if (shape.fill === "paper") return "#fff";
  return colour;
}

/**
 * An animal as species.json draws it, in a box 100 wide and 70 high facing
 * left: ellipses ("e": cx, cy, rx, ry), polygons ("p": x, y, ...) and strokes
 * ("l": x, y, ... with "w" its width), in the species' colour unless ink or
 * paper. board_picture.py draws the same shapes into the mail's picture.
 */
export function animalSvg(kind) {
  const g = svg("g", { class: "aob-animal" });
  for (const shape of kind.drawing || []) {
    const colour = shapeColour(shape, kind.color);
    if (shape.e) {
      const [cx, cy, rx, ry] = shape.e;
      g.append(svg("ellipse", { cx, cy, rx, ry, fill: colour }));
    } else if (shape.p) {
      g.append(svg("polygon", { points: shape.p.join(" "), fill: colour }));
    } else if (shape.l) {
      g.append(svg("polyline", { points: shape.l.join(" "), fill: "none", stroke: colour,
        "stroke-width": shape.w || 2, "stroke-linecap": "round", "stroke-linejoin": "round" }));
    }
  }
  return g;
}

const TILE_W = 64;
const TILE_H = 88;

/**
 * One tile drawn in SVG: its animal drawn on a band of the species' colour, the
 * animal's name, its number, and its code in the notation (C4) in small print.
 * Its size is the style sheet's: the tiles grow with the room the table has.
 */
export function tileSvg(species, tile) {
  const root = svg("svg", { viewBox: `0 0 ${TILE_W} ${TILE_H}`, width: TILE_W, height: TILE_H,
    class: "aob-tile-svg", "aria-hidden": "true", focusable: "false" });
  if (tile === FACE_DOWN) {
    root.append(svg("rect", { x: 1.5, y: 1.5, width: TILE_W - 3, height: TILE_H - 3, rx: 7,
      class: "aob-back", fill: "#30406b", stroke: "#222", "stroke-width": 2 }));
    const [w, h] = [TILE_W - 6, TILE_H - 6];
    for (let k = -h; k < w; k += 8) {  // the card back's stripes (y = x - k), clipped to the card
      const x1 = Math.max(k, 0);
      const x2 = Math.min(k + h, w);
      root.append(svg("line", { x1: x1 + 3, y1: x1 - k + 3, x2: x2 + 3, y2: x2 - k + 3,
        stroke: "#4a5c94", "stroke-width": 2 }));
    }
    const mark = svg("text", { x: TILE_W / 2, y: TILE_H / 2 + 8, "text-anchor": "middle",
      class: "aob-num", fill: "#fff" });
    mark.textContent = "?";
    root.append(mark);
    return root;
  }
  const kind = (species && species[tile[0]]) || { name: tile[0], color: "#555", drawing: [] };
  root.append(svg("rect", { x: 1.5, y: 1.5, width: TILE_W - 3, height: TILE_H - 3, rx: 7,
    fill: "#fff", stroke: kind.color, "stroke-width": 3 }));
  root.append(svg("rect", { x: 4, y: 4, width: TILE_W - 8, height: 44, rx: 5,
    fill: kind.color, "fill-opacity": 0.14 }));
  const animal = animalSvg(kind);
  animal.setAttribute("transform", "translate(5 7) scale(0.54)");
  root.append(animal);
  const name = svg("text", { x: TILE_W / 2, y: 59, "text-anchor": "middle", class: "aob-name",
    fill: "#222" });
  name.textContent = kind.name;
  const number = svg("text", { x: TILE_W / 2, y: 79, "text-anchor": "middle", class: "aob-num",
    fill: "#222" });
  number.textContent = tile.slice(1);
  const code = svg("text", { x: TILE_W - 5, y: 85, "text-anchor": "end", class: "aob-code",
    fill: "#666" });
  code.textContent = tile;
  root.append(name, number, code);
  return root;
}

/** A tile as a button (when it may be chosen) or as a labelled picture. */
function tileNode(species, tile, { onClick, pressed, key, faceDown } = {}) {
  const label = tile === FACE_DOWN ? "the face-down tile (?)"
    : `${tileName(species, tile)} (${tile})${faceDown ? ", lying face down" : ""}`;
  if (!onClick) {
    const node = el("span", { class: `aob-tile${faceDown ? " aob-face-down" : ""}`, role: "img",
      "aria-label": label, title: label });
    node.append(tileSvg(species, tile));
    return node;
  }
  const node = el("button", { type: "button", class: "aob-tile aob-choosable",
    "aria-label": label, title: label, "aria-pressed": pressed ? "true" : "false",
    "data-key": key, "data-tile": tile });
  node.append(tileSvg(species, tile));
  node.addEventListener("click", onClick);
  return node;
}

/** A count and its noun, singular for one: "1 crate", "3 tiles". */
export function counted(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function nameOf(names, seat) {
  return (names && names[seat]) || `Player ${seat + 1}`;
}

function tileRow(species, tiles, extra = {}) {
  const row = el("div", { class: "aob-tiles" });
  for (const tile of tiles) row.append(tileNode(species, tile, extra.tile ? extra.tile(tile) : {}));
  if (!tiles.length) row.append(el("span", { class: "muted small", text: "none" }));
  return row;
}

/** The line above the middle: the round, the stack, the flag, the last turn. */
export function roundLine(view, names) {
  const said = [`Round ${view.round}`, `${view.stack} tile${view.stack === 1 ? "" : "s"} in the stack`,
    `starting flag: ${nameOf(names, view.start_player)}`];
  if (view.final_turn && view.current_player !== null && view.current_player !== undefined) {
    said.push(`${nameOf(names, view.current_player)} makes the round's last turn`);
  }
  return said.join(" · ");
}

/**
 * Draw the table into ``container``: the round line, the middle's groups (each
 * with its number, size and price), the seat's three tiles at the setup, its ark,
 * and once the game is over every ark with its scoring. ``options``: ``species``
 * (the table), ``names``, and for the game page ``index`` (indexActions),
 * ``selection`` and ``choose(selection)``.
 */
export function renderBoard(container, view, options = {}) {
  const { species, names, index, selection } = options;
  const choose = options.choose || null;
  const board = el("div", { class: "aob-table" });
  board.append(el("p", { class: "aob-round", text: roundLine(view, names) }));

  const middle = el("section", { class: "aob-middle", "aria-labelledby": "aob-middle-heading" });
  middle.append(el("h3", { id: "aob-middle-heading", class: "aob-heading",
    text: "The middle" }));
  if (!view.middle.length) {
    middle.append(el("p", { class: "muted", text: view.finished ? "The middle is empty."
      : "The middle is empty until the players have kept their tiles." }));
  }
  view.middle.forEach((shownGroup, g) => {
    // once the game is over the view names the face-down tile: it is shown
    const shownAll = view.finished || view.revealed;
    const group = shownAll && view.face_down
      ? shownGroup.map((t) => (t === FACE_DOWN ? view.face_down : t)) : shownGroup;
    const splittable = !!(index && choose && index.splitGroups.has(g));
    const chosen = selection && (selection.group === g);
    const box = el("div", { class: `aob-group${chosen ? " aob-chosen" : ""}${splittable ? " aob-open" : ""}`,
      "data-group": g, role: "group", "aria-label": `Group ${g}` });
    const price = view.prices ? view.prices[g] : group.length;
    const head = el("div", { class: "aob-group-head" },
      el("strong", { text: `Group ${g}` }),
      el("span", { class: "aob-price", text: `${group.length} tile${group.length === 1 ? "" : "s"} · take for ${price} crate${price === 1 ? "" : "s"}` }));
    if (index && choose && index.takes.has(g)) {
      const take = el("button", { type: "button", class: "button aob-take", "data-key": `take:${g}`,
        "aria-pressed": selection && selection.kind === "take" && selection.group === g ? "true" : "false",
        text: `Take group ${g} (${price} crate${price === 1 ? "" : "s"})` });
      take.addEventListener("click", () => choose({ kind: "take", group: g, tiles: [...group] }));
      head.append(take);
    }
    box.append(head);
    box.append(tileRow(species, group, { tile: (tile) => (splittable ? {
      key: `g${g}:${tile}`,
      pressed: selection && selection.kind === "split" && selection.group === g
        && selection.tiles.includes(tile),
      onClick: () => choose(toggleTile(selection, g, tile)),
    } : { faceDown: shownAll && tile === view.face_down }) }));
    middle.append(box);
  });
  board.append(middle);

  const you = view.you;
  if (you !== null && you !== undefined && !view.finished) {
    if (view.drawn && view.drawn.length) {
      const drawn = el("section", { class: "aob-drawn", "aria-labelledby": "aob-drawn-heading" });
      drawn.append(el("h3", { id: "aob-drawn-heading", class: "aob-heading",
        text: "Your three tiles: keep one on your ark, in secret" }));
      drawn.append(tileRow(species, view.drawn, { tile: (tile) => (index && choose && index.keeps.has(tile) ? {
        key: `keep:${tile}`,
        pressed: selection && selection.kind === "keep" && selection.tile === tile,
        onClick: () => choose({ kind: "keep", tile }),
      } : {}) }));
      board.append(drawn);
    }
    const ark = el("section", { class: "aob-ark", "aria-labelledby": "aob-ark-heading" });
    const score = view.score ? ` · would score ${view.score.points} if the game ended now` : "";
    ark.append(el("h3", { id: "aob-ark-heading", class: "aob-heading",
      text: `Your ark: ${(view.ark || []).length} tile${(view.ark || []).length === 1 ? "" : "s"}, ${view.crates[you]} crate${view.crates[you] === 1 ? "" : "s"}${score}` }));
    ark.append(tileRow(species, view.ark || []));
    board.append(ark);
  }
  const faceUp = faceUpArks(view, names);
  if (faceUp.length) {
    const seen = el("section", { class: "aob-arks", "aria-labelledby": "aob-seen-heading" });
    seen.append(el("h3", { id: "aob-seen-heading", class: "aob-heading",
      text: you === null || you === undefined ? "The arks, as taken face up" : "The other arks, as taken face up" }));
    faceUp.forEach(({ heading, tiles }) => {
      seen.append(el("h4", { class: "aob-subheading", text: heading }));
      seen.append(tileRow(species, tiles));
    });
    board.append(seen);
  }
  if ((view.finished || view.revealed) && view.arks) {
    const arks = el("section", { class: "aob-arks", "aria-labelledby": "aob-arks-heading" });
    arks.append(el("h3", { id: "aob-arks-heading", class: "aob-heading", text: "The arks" }));
    view.arks.forEach((ark, s) => {
      arks.append(el("h4", { class: "aob-subheading", text: `${nameOf(names, s)}: ${counted(ark.length, "tile")}, ${counted(view.crates[s], "crate")}` }));
      arks.append(tileRow(species, ark));
    });
    board.append(arks);
  }
  container.replaceChildren(board);
}

/** While the game runs, each other ark (every ark for a spectator) as the
 * table saw it: the tiles taken face up (the view's ``face_up``) and how many
 * more it holds unseen. */
export function faceUpArks(view, names) {
  if (view.finished || view.revealed || !view.face_up) return [];
  return view.face_up.flatMap((tiles, s) => {
    if (s === view.you) return [];
    const unseen = view.ark_sizes[s] - tiles.length;
    return [{ seat: s, tiles,
      heading: `${nameOf(names, s)}: ${counted(tiles.length, "tile")} face up`
        + (unseen ? `, ${unseen} more unseen` : "") }];
  });
}

/** Each player: crates, ark count, in the round or not, the flag, the secret keep. */
export function playerFacts(view, seat) {
  const facts = [`${view.crates[seat]} crate${view.crates[seat] === 1 ? "" : "s"}`,
    `ark: ${view.ark_sizes[seat]} tile${view.ark_sizes[seat] === 1 ? "" : "s"}`];
  if ((view.resigned || []).includes(seat)) facts.push("resigned");
  else if ((view.kept || []).includes(seat)) {
    // a finished game's replay names the secret keep
    const kept = (view.kept_tiles || [])[seat];
    facts.push(kept ? `has kept ${kept}` : "has chosen a tile");
  } else if ((view.awaiting || []).includes(seat)) {
    const drawn = (view.drawn_by || [])[seat] || [];
    facts.push(drawn.length ? `is choosing among ${drawn.join(", ")}` : "is choosing a tile");
  } else if (!view.finished) {
    facts.push((view.in_round || []).includes(seat) ? "in the round" : "out of this round");
  }
  if (view.start_player === seat && !view.finished) facts.push("holds the starting flag");
  if (view.finished && view.scores) facts.push(counted(view.scores[seat], "point"));
  return facts;
}

export function renderPlayers(list, view, names, you) {
  list.replaceChildren(...names.map((name, seat) => {
    const item = el("li", { class: `player${view.current_player === seat ? " to-move" : ""}`,
      "data-seat": seat });
    const head = el("div", { class: "player-head" },
      el("span", { class: `swatch seat-${seat}`, "aria-hidden": "true", text: (name[0] || "?").toUpperCase() }),
      " ", el("span", { class: "player-name", text: name }),
      seat === you ? el("span", { class: "tag tag-you", text: "you" }) : null);
    item.append(head, el("p", { class: "aob-facts small", text: playerFacts(view, seat).join(" · ") }));
    return item;
  }));
}
