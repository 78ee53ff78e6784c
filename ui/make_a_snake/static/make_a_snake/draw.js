// Make-a-snake's table in SVG, to scale, from the engine's own geometry: each
// part of a piece comes from the view (engine/make_a_snake/view.py) as a line
// between two points or an arc round a centre from an angle through a sweep;
// this module only turns those into SVG paths. Plane coordinates have y north,
// the screen's y runs south, so every point is written (x, -y).
//
// renderBoard(container, view, options) draws the table for the game page and
// the replay viewer alike; the pure helpers are exported for tests/js/.

const SVGNS = "http://www.w3.org/2000/svg";

/** The tiles' colours on screen (the pieces' colours, by name). */
export const COLOUR_HEX = {
  red: "#d33a3a", green: "#2f9e4f", blue: "#2f6fd1", yellow: "#e8b416",
};
const OUTLINE = "#1d2a22";
const WIDTH = 4; // a piece's body: the points closer than 2 to its centre line
const PAD = 6;

const fmt = (v) => String(Math.round(v * 1000) / 1000 + 0);

/** A point of the plane as SVG coordinates: "x,y" with y flipped. */
export function svgPoint([x, y]) {
  return `${fmt(x)},${fmt(-y)}`;
}

function polar(centre, radius, degrees) {
  const a = (degrees * Math.PI) / 180;
  return [centre[0] + radius * Math.cos(a), centre[1] + radius * Math.sin(a)];
}

/**
 * The SVG path of one part's centre line, from its start point as the snake
 * lays it. An arc runs counter-clockwise (in the plane) from angle ``from``
 * through ``sweep``; laid clockwise (a tile down), its start is the far end.
 */
export function partPath(part) {
  if (part.line) return `M${svgPoint(part.line[0])} L${svgPoint(part.line[1])}`;
  const { centre, radius, from, sweep } = part.arc;
  const first = polar(centre, radius, from);
  const last = polar(centre, radius, from + sweep);
  const large = sweep > 180 ? 1 : 0;
  // counter-clockwise in the plane is counter-clockwise on screen too once y is
  // flipped: SVG's sweep flag 0
  return `M${svgPoint(first)} A${fmt(radius)},${fmt(radius)} 0 ${large} 0 ${svgPoint(last)}`;
}

/** One path through every part of a piece. */
export function piecePath(parts) {
  return parts.map(partPath).join(" ");
}

/** The points that bound a part: its ends and an arc's extremes within its sweep. */
export function partPoints(part) {
  if (part.line) return [part.line[0], part.line[1]];
  const { centre, radius, from, sweep } = part.arc;
  const points = [polar(centre, radius, from), polar(centre, radius, from + sweep)];
  for (let a = Math.ceil(from / 90) * 90; a < from + sweep; a += 90) {
    if (a > from) points.push(polar(centre, radius, a));
  }
  return points;
}

/** [minX, minY, maxX, maxY] in the plane of the points, or null for none. */
export function bounds(points) {
  if (!points.length) return null;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** The unit normal of a part at its start (where a joint between tiles is drawn). */
export function startNormal(part) {
  if (part.line) {
    const [[x0, y0], [x1, y1]] = part.line;
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    return [-(y1 - y0) / len, (x1 - x0) / len];
  }
  const [cx, cy] = part.arc.centre;
  const [sx, sy] = part.start;
  const len = Math.hypot(sx - cx, sy - cy) || 1;
  return [(sx - cx) / len, (sy - cy) / len];
}

/** Every part a snake's drawing holds (head, tiles, tail), for its bounds. */
export function snakeParts(drawing) {
  const parts = [...drawing.head.parts];
  for (const tile of drawing.tiles) parts.push(...tile.parts);
  if (drawing.tail) parts.push(...drawing.tail.parts);
  return parts;
}

/** The distance in words: "12.34 cm". */
export function cm(value) {
  return `${Number(value).toFixed(2)} cm`;
}

/** The table's extent in the plane: every snake, preview and lollipop, padded. */
export function tableBounds(view, extraParts = []) {
  const points = [[0, 7]];
  for (const drawing of view.drawing || []) {
    for (const part of snakeParts(drawing)) points.push(...partPoints(part));
  }
  for (const part of extraParts) points.push(...partPoints(part));
  for (const pop of view.lollipops || []) {
    const [x, y] = pop.centre;
    points.push([x - pop.radius, y - pop.radius], [x + pop.radius, y + pop.radius]);
  }
  const [x0, y0, x1, y1] = bounds(points);
  // at least 40 cm across, so a short snake is not drawn huge
  const grow = (lo, hi) => {
    const missing = Math.max(0, 40 - (hi - lo)) / 2;
    return [lo - missing - PAD, hi + missing + PAD];
  };
  const [minX, maxX] = grow(x0, x1);
  const [minY, maxY] = grow(y0, y1);
  return [minX, minY, maxX, maxY];
}

// ---------------------------------------------------------------- SVG

function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function title(text) {
  const t = el("title");
  t.textContent = text;
  return t;
}

function text(x, y, words, attrs = {}) {
  const t = el("text", { x: fmt(x), y: fmt(-y), ...attrs });
  t.textContent = words;
  return t;
}

/** A piece: its body in its colour (to scale: 4 cm wide), a joint line at its
 * start, and its centre line. */
function pieceGroup(piece, { className = "", label = "", colour = null } = {}) {
  const fill = COLOUR_HEX[colour || piece.colour] || "#888";
  const d = piecePath(piece.parts);
  const g = el("g", { class: `snake-piece ${className}`.trim(), "data-tile": piece.tile,
    "data-side": piece.side });
  if (label) g.append(title(label));
  g.append(el("path", { d, class: "piece-edge", stroke: OUTLINE, "stroke-width": WIDTH + 0.5,
    fill: "none" }));
  g.append(el("path", { d, class: "piece-body", stroke: fill, "stroke-width": WIDTH,
    fill: "none" }));
  const first = piece.parts[0];
  const [nx, ny] = startNormal(first);
  const [sx, sy] = first.start;
  g.append(el("path", { class: "piece-joint", d: `M${svgPoint([sx + 2 * nx, sy + 2 * ny])} `
    + `L${svgPoint([sx - 2 * nx, sy - 2 * ny])}`, stroke: OUTLINE, "stroke-width": 0.35 }));
  g.append(el("path", { d, class: "piece-centre", stroke: "#fff", "stroke-width": 0.3,
    "stroke-dasharray": "1 1", fill: "none", opacity: 0.7 }));
  return g;
}

function headGroup(drawing, name) {
  const fill = COLOUR_HEX[drawing.colour];
  const [tx, ty] = drawing.head.tongue;
  const g = el("g", { class: "snake-head" }, title(`${name}: the ${drawing.colour} head, `
    + `neck at 0,0, tongue tip at ${tx},${ty}`));
  // the tongue: from the head's end (0,5) to its tip, forked
  g.append(el("path", { class: "tongue", d: `M${svgPoint([0, 4.6])} L${svgPoint([0, 6.3])} `
    + `L${svgPoint([-0.6, 7.2])} M${svgPoint([0, 6.3])} L${svgPoint([0.6, 7.2])}`,
  stroke: "#c2185b", "stroke-width": 0.45, fill: "none" }));
  g.append(el("ellipse", { cx: 0, cy: fmt(-2.6), rx: 2.6, ry: 3.1, fill, stroke: OUTLINE,
    "stroke-width": 0.4 }));
  for (const x of [-1.1, 1.1]) {
    g.append(el("circle", { cx: x, cy: fmt(-3.4), r: 0.55, fill: "#fff" }));
    g.append(el("circle", { cx: x, cy: fmt(-3.5), r: 0.28, fill: "#111" }));
  }
  g.append(el("circle", { class: "tongue-tip", cx: fmt(tx), cy: fmt(-ty), r: 0.35,
    fill: "#c2185b" }));
  return g;
}

function tailGroup(drawing) {
  const tail = drawing.tail;
  const part = tail.parts[0];
  const [nx, ny] = startNormal(part);
  const [sx, sy] = part.start;
  const [ex, ey] = part.end;
  const d = `M${svgPoint([sx + 2 * nx, sy + 2 * ny])} L${svgPoint([ex, ey])} `
    + `L${svgPoint([sx - 2 * nx, sy - 2 * ny])} Z`;
  return el("g", { class: "snake-tail" }, title(`the ${drawing.colour} tail, its tip at `
    + `${fmt(ex)},${fmt(ey)}`),
  el("path", { d, fill: COLOUR_HEX[drawing.colour], stroke: OUTLINE, "stroke-width": 0.4 }));
}

function ribbon(drawing, distance) {
  const tip = drawing.tail.parts[0].end;
  const [tx, ty] = drawing.head.tongue;
  const g = el("g", { class: "ribbon" }, title(`the ribbon from tongue tip to tail tip: `
    + `${cm(distance)}`));
  g.append(el("path", { d: `M${svgPoint([tx, ty])} L${svgPoint(tip)}`, stroke: "#6a1b9a",
    "stroke-width": 0.7, "stroke-dasharray": "2 1", fill: "none" }));
  const mid = [(tx + tip[0]) / 2, (ty + tip[1]) / 2];
  g.append(text(mid[0] + 1, mid[1] + 1, cm(distance), { class: "ribbon-label",
    "font-size": 3.2 }));
  return g;
}

function lollipopGroup(pop, index, touched) {
  const [x, y] = pop.centre;
  const g = el("g", { class: `lollipop${touched ? " touched" : ""}`, "data-lollipop": index },
    title(`lollipop ${index + 1}: ${touched ? "touched" : "not touched yet"}`));
  g.append(el("path", { d: `M${svgPoint([x, y])} L${svgPoint([x + 1.5, y - 4])}`,
    stroke: "#8d6e63", "stroke-width": 0.6 }));
  g.append(el("circle", { cx: fmt(x), cy: fmt(-y), r: pop.radius,
    fill: touched ? "#ec407a" : "#fff", stroke: "#ad1457", "stroke-width": 0.5 }));
  if (touched) g.append(text(x - 1, y - 1, "✓", { "font-size": 2.8, fill: "#fff" }));
  return g;
}

function grid([minX, minY, maxX, maxY]) {
  const g = el("g", { class: "table-grid", "aria-hidden": "true" });
  const step = 10;
  let d = "";
  for (let x = Math.ceil(minX / step) * step; x <= maxX; x += step) {
    d += `M${svgPoint([x, minY])} L${svgPoint([x, maxY])} `;
  }
  for (let y = Math.ceil(minY / step) * step; y <= maxY; y += step) {
    d += `M${svgPoint([minX, y])} L${svgPoint([maxX, y])} `;
  }
  g.append(el("path", { d, stroke: "#d8e3d0", "stroke-width": 0.2, fill: "none" }));
  // a scale bar of 10 cm in the bottom left corner
  const y = minY + 2;
  g.append(el("path", { d: `M${svgPoint([minX + 2, y])} L${svgPoint([minX + 12, y])}`,
    stroke: "#555", "stroke-width": 0.5 }));
  g.append(text(minX + 2, y + 1, "10 cm", { "font-size": 2.4, fill: "#555" }));
  return g;
}

function tileWords(tile, index) {
  return `tile ${index + 1}: ${tile.tile} ${tile.side}`;
}

/** The words an assistive reader hears for one snake. */
export function snakeLabel(drawing, name, distance) {
  const tiles = drawing.tiles.map((t) => `${t.tile} ${t.side}`).join(", ");
  const [x, y, heading] = drawing.open_end;
  let words = `${name}'s snake, ${drawing.colour} head, ${drawing.tiles.length} `
    + `tile${drawing.tiles.length === 1 ? "" : "s"}${tiles ? `: ${tiles}` : ""}.`;
  words += drawing.tail ? " It has its tail."
    : ` Open end at ${x}, ${y}, heading ${heading} degrees.`;
  if (distance !== null && distance !== undefined) {
    words += ` Tongue to tail: ${cm(distance)}.`;
  }
  return words;
}

/**
 * Draw the table into ``container``: one panel a snake, all to one scale.
 * ``view`` is the engine's view of the game (its ``drawing``, ``players``,
 * ``distances``, ``lollipops``/``touched``). Options: ``names`` (by seat),
 * ``snake`` (the index of the snake a preview belongs to), ``previews`` (the
 * connect_preview answer), ``chosen`` (the side previewed as chosen),
 * ``onPick(side)`` (a preview clicked), ``marked`` (tile indices to outline in
 * the current snake, e.g. the tiles laid since your last move).
 */
export function renderBoard(container, view, options = {}) {
  const previews = options.previews || [];
  const extra = [];
  for (const p of previews) {
    extra.push(...p.parts);
    for (const t of p.turned || []) extra.push(...t.parts);
  }
  const box = tableBounds(view, extra);
  const [minX, minY, maxX, maxY] = box;
  const names = options.names || view.players || [];
  const panels = (view.drawing || []).map((drawing, i) => {
    const name = view.mode === "lollipop" ? "everyone" : names[i] || `seat ${i + 1}`;
    const distance = (view.distances || [])[i];
    const svg = el("svg", {
      class: "snake-svg", xmlns: SVGNS, role: "img",
      viewBox: `${fmt(minX)} ${fmt(-maxY)} ${fmt(maxX - minX)} ${fmt(maxY - minY)}`,
      "aria-label": snakeLabel(drawing, name, distance),
    });
    svg.append(grid(box));
    const here = previews.length && options.snake === i;
    const turning = here ? Math.max(...previews.map((p) => p.turn || 0)) : 0;
    const marked = new Set(i === options.snake ? options.marked || [] : []);
    drawing.tiles.forEach((tile, j) => {
      const last = j >= drawing.tiles.length - turning;
      const overlapped = here && previews.some((p) => p.side === options.chosen
        && (p.overlaps || []).includes(j));
      // the tiles a refused side would overlap: why it is refused
      const blocking = here && previews.some((p) => !p.allowed && (p.overlaps || []).includes(j));
      svg.append(pieceGroup(tile, { label: tileWords(tile, j),
        className: [last ? "to-turn" : "", overlapped ? "overlapped" : "",
          blocking ? "blocking" : "",
          marked.has(j) ? "marked" : ""].join(" ").trim() }));
    });
    if (drawing.tail) svg.append(tailGroup(drawing));
    svg.append(headGroup(drawing, name));
    // the lollipops on top, so that a touched one shows where the snake covers it
    for (const [j, pop] of (view.lollipops || []).entries()) {
      svg.append(lollipopGroup(pop, j, (view.touched || []).includes(j)));
    }
    if (here) {
      const spots = labelSpots(previews);
      for (const p of previews) {
        const chosen = p.side === options.chosen;
        const g = el("g", { class: `preview preview-${p.side}${chosen ? " chosen" : ""}`
          + `${p.allowed ? "" : " refused"}`, "data-side": p.side });
        for (const t of p.turned || []) g.append(pieceGroup(t, { className: "turned" }));
        const tile = pieceGroup({ tile: view.taken, side: p.side, colour: view.taken
          ? view.taken.split("-")[0] : null, parts: p.parts },
        { label: `${view.taken} ${p.side}: ${p.why}` });
        g.append(tile);
        const spot = spots.find((s) => s.side === p.side);
        g.append(text(spot.x, spot.y, spot.text, { class: "preview-label",
          "font-size": LABEL_SIZE, "text-anchor": "middle", "dominant-baseline": "middle" }));
        if (options.onPick && p.allowed) {
          g.addEventListener("click", () => options.onPick(p.side));
        }
        svg.append(g);
      }
    }
    if (drawing.tail && distance !== null && distance !== undefined) {
      svg.append(ribbon(drawing, distance));
    }
    const figure = document.createElement("figure");
    figure.className = `snake-panel${view.current_player === i && !view.finished
      && view.mode !== "lollipop" ? " to-play" : ""}`;
    figure.dataset.snake = String(i);
    const caption = document.createElement("figcaption");
    caption.textContent = view.mode === "lollipop"
      ? `The snake (${drawing.tiles.length} tile${drawing.tiles.length === 1 ? "" : "s"}) · `
        + "lollipops touched: "
        + `${(view.touched || []).length} of 4`
      : `${name} · ${drawing.colour} · ${drawing.tiles.length} tile`
        + `${drawing.tiles.length === 1 ? "" : "s"}`
        + (distance !== null && distance !== undefined ? ` · tongue to tail ${cm(distance)}` : "");
    figure.append(svg, caption);
    return figure;
  });
  container.replaceChildren(...panels);
}

/** The unit vector of a heading in degrees (0 east, 90 north, as the plane's). */
function unit(heading) {
  const a = (heading * Math.PI) / 180;
  return [Math.cos(a), Math.sin(a)];
}

const LABEL_SIZE = 3; // the labels' font size, in cm of the table

/** A preview's label: its side, crossed out where it may not be chosen. */
export function labelText(preview) {
  return preview.allowed ? preview.side : `${preview.side} ✗`;
}

/**
 * Where the table writes each preview's label ("up", "down"), its centre: a
 * little beyond the tile's open end, along the heading the snake would go on
 * in. Two labels that would cover each other (a tile that lies the same either
 * way, or two ends close together) are set one above the other, "up" on top,
 * further on. ``previews``: the connect_preview answer ({side, allowed,
 * end_point, open_end}).
 */
export function labelSpots(previews) {
  const spots = previews.map((p) => {
    const [ex, ey] = p.end_point;
    const [dx, dy] = unit((p.open_end || [])[2] || 0);
    const text = labelText(p);
    return { side: p.side, text, x: ex + 3.5 * dx, y: ey + 3.5 * dy, dx, dy,
      width: 0.62 * LABEL_SIZE * [...text].length };
  });
  if (spots.length === 2) {
    const [a, b] = spots;
    const apartX = Math.abs(a.x - b.x) >= (a.width + b.width) / 2 + 0.5;
    // a line of text is 1.2 em high, and up to 1.6 with the ✗'s font
    const apartY = Math.abs(a.y - b.y) >= 1.7 * LABEL_SIZE;
    if (!apartX && !apartY) {
      const x = (a.x + b.x) / 2 + 1.5 * (a.dx + b.dx) / 2;
      const y = (a.y + b.y) / 2 + 1.5 * (a.dy + b.dy) / 2;
      for (const spot of spots) {
        spot.x = x;
        spot.y = y + (spot.side === "up" ? 1 : -1) * 0.85 * LABEL_SIZE;
      }
    }
  }
  return spots.map(({ side, text, x, y }) => ({ side, text, x, y }));
}

/** A box in the plane ([minX, minY, maxX, maxY]) round every part given, padded,
 * and at least ``least`` across: one frame for several thumbnails. */
export function thumbBox(parts, least = 12) {
  const [x0, y0, x1, y1] = bounds(parts.flatMap(partPoints));
  const grow = (lo, hi) => {
    const missing = Math.max(0, least - (hi - lo)) / 2;
    return [lo - missing - 3, hi + missing + 3];
  };
  const [minX, maxX] = grow(x0, x1);
  const [minY, maxY] = grow(y0, y1);
  return [minX, minY, maxX, maxY];
}

/**
 * A small picture of one placement of a tile (a preview's parts), for the move
 * panel: the tile where it would lie against the end of the snake (``before``:
 * the parts of the piece it joins, drawn grey), the joint marked, and an arrow
 * at its open end (``end``: [x, y, heading]) where the snake would go on.
 * ``box`` gives the placements one frame (thumbBox), so that Up and Down differ
 * where they differ on the table, even for a tile whose faces mirror each other.
 */
export function tileThumbnail(colour, parts, label, { before = [], end = null, box = null } = {}) {
  const [minX, minY, maxX, maxY] = box || thumbBox([...before, ...parts]);
  const svg = el("svg", { class: "tile-thumb", xmlns: SVGNS, role: "img", "aria-label": label,
    viewBox: `${fmt(minX)} ${fmt(-maxY)} ${fmt(maxX - minX)} ${fmt(maxY - minY)}` });
  if (before.length) {
    svg.append(pieceGroup({ tile: "", side: "", parts: before }, { className: "thumb-before" }));
  }
  svg.append(pieceGroup({ tile: "", side: "", colour, parts }, { className: "thumb-tile" }));
  const [jx, jy] = parts[0].start;
  svg.append(el("circle", { class: "thumb-joint", cx: fmt(jx), cy: fmt(-jy), r: 1.1,
    fill: "#fff", stroke: OUTLINE, "stroke-width": 0.4 }));
  if (end) {
    const [ex, ey, heading] = end;
    const [dx, dy] = unit(heading);
    const tip = [ex + 3 * dx, ey + 3 * dy];
    svg.append(el("path", { class: "thumb-arrow", d: `M${svgPoint([ex + 1.6 * dy, ey - 1.6 * dx])} `
      + `L${svgPoint(tip)} L${svgPoint([ex - 1.6 * dy, ey + 1.6 * dx])} Z`, fill: OUTLINE }));
  }
  return svg;
}
