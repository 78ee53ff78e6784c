// Marram board renderer: draws engine.player_view() JSON as SVG.
//
// A plain ES module with no dependencies and no build step.
//
//   import { renderBoard, renderTile, attachPanZoom } from "./board.js";
//   const board = renderBoard(svg, view, {highlights, lastMove, lastMoves, onCellClick,
//                                         onTileClick, playerColours});
//   board.fit();
//
// Geometry (docs: shared/spec/marram-model.md). Each tile is a 100-unit square whose
// top-left corner lies at (100 x, 100 y). Its edge is cut into 8 arcs numbered clockwise
// from the NW corner (0 NW, 1 N, 2 NE, 3 E, 4 SE, 5 S, 6 SW, 7 W); a corner arc covers
// the outer third of both sides meeting there. The terrain is drawn as wedges from the
// centre to the arcs (one polygon per run of same-terrain arcs), a region linking
// non-adjacent runs as a band through the centre, beasts as thick paths from side
// midpoints towards the centre. Colours are always paired with a pattern, shape or text
// so that colour-blind players can tell everything apart.

const SVGNS = "http://www.w3.org/2000/svg";
export const TILE = 100;
const T3 = 100 / 3;
const C = 50;
const SIDE_MID = [[50, 0], [100, 50], [50, 100], [0, 50]];
const SIDE_NAMES = ["N", "E", "S", "W"];
const ARC_NAMES = ["NW", "N", "NE", "E", "SE", "S", "SW", "W"];

export const COLOURS = {
  grass: "#74b04f",
  grassDark: "#4c8a34",
  sand: "#efd99b",
  sandDark: "#b8964f",
  shore: "rgba(70, 55, 20, 0.45)",
  outline: "#1d1d1b",
  blue: "#1f5fbf",
  blueLight: "#8fb8f5",
  orange: "#e0801a",
  orangeDark: "#8f4306",
  worm: "#c27a6a",
  wormDark: "#6e3a2f",
  saddle: "#ff5fa8",
  flips: { 3: "#d62828", 2: "#f4a300", 1: "#2e9e44" },
};

/** Default seat colours (seat 0..3); each token also carries a letter and a shape. */
export const PLAYER_COLOURS = ["#d7263d", "#f5c518", "#7b3fbf", "#f4f4f4"];

const BEAST_NAMES = { blue: "blue snake", orange: "orange snake", worm: "worm", any: "Beastly" };
const BEAST_W = { blue: 13, orange: 13, worm: 12, any: 13 };

// ---------------------------------------------------------------------------
// small SVG helpers

function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, str, attrs = {}) {
  const t = el("text", {
    x, y, "text-anchor": "middle", "dominant-baseline": "central",
    "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    "font-weight": "700", ...attrs,
  }, parent);
  t.textContent = str;
  return t;
}

function fmt(n) {
  return Math.round(n * 100) / 100;
}

function pts(list) {
  return list.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(" ");
}

function luminance(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(String(hex).trim());
  if (!m) return 0.5;
  const v = parseInt(m[1], 16);
  const [r, g, b] = [(v >> 16) & 255, (v >> 8) & 255, v & 255].map((c) => c / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// ---------------------------------------------------------------------------
// patterns (grass tufts, sand dots), one set per <svg>

let defsCounter = 0;

function ensureDefs(node) {
  const root = node.ownerSVGElement || (node.tagName && node.tagName.toLowerCase() === "svg"
    ? node : null) || node;
  // reuse this svg's patterns unless the page has since emptied it
  if (root.__marramDefs && root.contains(root.__marramDefs.node)) return root.__marramDefs;
  const prefix = `marram${++defsCounter}`;
  const defs = el("defs", { class: "marram-defs" });
  root.insertBefore(defs, root.firstChild);

  const grass = el("pattern", {
    id: `${prefix}-grass`, width: 12, height: 12, patternUnits: "userSpaceOnUse",
  }, defs);
  el("rect", { width: 12, height: 12, fill: COLOURS.grass }, grass);
  el("path", {
    d: "M2 8.5 l1 -3 M3.6 8.5 l0 -3.6 M5.2 8.5 l-1 -3 M8 3.5 l0.8 -2.6 M9.3 3.5 l0 -3 M10.6 3.5 l-0.8 -2.6",
    stroke: COLOURS.grassDark, "stroke-width": 0.8, "stroke-linecap": "round", fill: "none",
    opacity: 0.8,
  }, grass);

  const sand = el("pattern", {
    id: `${prefix}-sand`, width: 8, height: 8, patternUnits: "userSpaceOnUse",
  }, defs);
  el("rect", { width: 8, height: 8, fill: COLOURS.sand }, sand);
  el("circle", { cx: 2, cy: 2, r: 0.95, fill: COLOURS.sandDark }, sand);
  el("circle", { cx: 6, cy: 6, r: 0.95, fill: COLOURS.sandDark }, sand);
  el("circle", { cx: 6, cy: 2.2, r: 0.45, fill: COLOURS.sandDark, opacity: 0.7 }, sand);
  el("circle", { cx: 2.2, cy: 6, r: 0.45, fill: COLOURS.sandDark, opacity: 0.7 }, sand);

  const grid = el("pattern", {
    id: `${prefix}-grid`, width: TILE, height: TILE, patternUnits: "userSpaceOnUse",
  }, defs);
  el("path", {
    d: `M ${TILE} 0 L 0 0 0 ${TILE}`, fill: "none", stroke: "rgba(40,60,50,0.18)",
    "stroke-width": 1, "stroke-dasharray": "4 4",
  }, grid);

  root.__marramDefs = {
    node: defs,
    prefix,
    fill: { G: `url(#${prefix}-grass)`, S: `url(#${prefix}-sand)` },
    grid: `url(#${prefix}-grid)`,
  };
  return root.__marramDefs;
}

// ---------------------------------------------------------------------------
// tile geometry

/** The point at perimeter distance p, measured clockwise from the NW corner. */
function perimPoint(p) {
  const q = ((p % 400) + 400) % 400;
  if (q <= 100) return [q, 0];
  if (q <= 200) return [100, q - 100];
  if (q <= 300) return [300 - q, 100];
  return [0, 400 - q];
}

function arcSpan(k) {
  const h = k % 2 === 0 ? T3 : 50 - T3;
  return [k * 50 - h, k * 50 + h];
}

function spanPoints(a, b) {
  const out = [perimPoint(a)];
  for (let c = Math.floor(a / 100) * 100 + 100; c < b; c += 100) {
    if (c > a) out.push(perimPoint(c));
  }
  out.push(perimPoint(b));
  return out;
}

/** Circular runs of arcs: [{arcs, start, end, full}], start/end as perimeter distances. */
function runsOf(arcs) {
  const set = new Set(arcs);
  if (set.size >= 8) return [{ arcs: [0, 1, 2, 3, 4, 5, 6, 7], start: -T3, end: 400 - T3, full: true }];
  const runs = [];
  for (const k of [...set].sort((a, b) => a - b)) {
    if (set.has((k + 7) % 8)) continue;
    const run = [k];
    let len = arcSpan(k)[1] - arcSpan(k)[0];
    let j = (k + 1) % 8;
    while (set.has(j) && j !== k) {
      run.push(j);
      len += arcSpan(j)[1] - arcSpan(j)[0];
      j = (j + 1) % 8;
    }
    const start = arcSpan(k)[0];
    runs.push({ arcs: run, start, end: start + len, full: false });
  }
  return runs;
}

/** Regions of a tile view; computed from terrain (+ links) when the view has none. */
function regionsOf(tv) {
  if (Array.isArray(tv.regions) && tv.regions.length) return tv.regions;
  const terrain = tv.terrain || "GGGGGGGG";
  const parent = [0, 1, 2, 3, 4, 5, 6, 7];
  const find = (a) => (parent[a] === a ? a : (parent[a] = find(parent[a])));
  for (let p = 0; p < 8; p++) {
    if (terrain[p] === terrain[(p + 1) % 8]) parent[find(p)] = find((p + 1) % 8);
  }
  for (const [a, b] of tv.links || []) parent[find(a)] = find(b);
  const groups = new Map();
  for (let p = 0; p < 8; p++) {
    const r = find(p);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r).push(p);
  }
  return [...groups.values()].map((a) => ({ arcs: a, terrain: terrain[a[0]], items: [] }));
}

function unit(dx, dy) {
  const l = Math.hypot(dx, dy) || 1;
  return [dx / l, dy / l];
}

function lerp(a, b, f) {
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
}

function arcAnchor(k) {
  const s = arcSpan(k);
  return perimPoint((s[0] + s[1]) / 2);
}

// ---------------------------------------------------------------------------
// terrain

function drawTerrain(g, tv, defs) {
  const layer = el("g", { class: "terrain" }, g);
  const regions = regionsOf(tv);
  for (const region of regions) {
    const t = region.terrain === "S" ? "S" : "G";
    for (const run of runsOf(region.arcs)) {
      const attrs = {
        class: `patch patch-${t === "G" ? "grass" : "sand"}`, fill: defs.fill[t],
        stroke: COLOURS.shore, "stroke-width": 0.8, "stroke-linejoin": "round",
        "data-arcs": run.arcs.join(" "),
      };
      if (run.full) el("rect", { x: 0, y: 0, width: 100, height: 100, ...attrs }, layer);
      else el("polygon", { points: pts([[C, C], ...spanPoints(run.start, run.end)]), ...attrs }, layer);
    }
  }
  // links: a band through the centre joining the runs of one region
  for (const region of regions) {
    const runs = runsOf(region.arcs);
    if (runs.length < 2) continue;
    const t = region.terrain === "S" ? "S" : "G";
    const w = 13;
    // separate pieces (a disc and one quad per run): one path would cancel where
    // subpaths of opposite winding overlap
    const pieces = [`M ${C - w} ${C} a ${w} ${w} 0 1 0 ${2 * w} 0 a ${w} ${w} 0 1 0 ${-2 * w} 0 Z`];
    for (const run of runs) {
      const mid = perimPoint((run.start + run.end) / 2);
      const [ux, uy] = unit(mid[0] - C, mid[1] - C);
      let px = -uy;
      let py = ux;
      const a = perimPoint(run.start);
      const b = perimPoint(run.end);
      if ((b[0] - C) * px + (b[1] - C) * py < 0) {
        px = -px;
        py = -py;
      }
      const quad = [[C - w * px, C - w * py], a, ...spanPoints(run.start, run.end).slice(1, -1), b,
        [C + w * px, C + w * py]];
      pieces.push(`M ${pts(quad).replace(/ /g, " L ")} Z`);
    }
    const band = el("g", { class: `link link-${t === "G" ? "grass" : "sand"}`,
      "data-arcs": region.arcs.join(" ") }, layer);
    for (const d of pieces) {
      el("path", { d, fill: "none", stroke: COLOURS.shore, "stroke-width": 1.6,
        "stroke-linejoin": "round" }, band);
    }
    for (const d of pieces) el("path", { d, fill: defs.fill[t], stroke: "none" }, band);
  }
}

// ---------------------------------------------------------------------------
// beasts

function beastBase(g, d, type, opts = {}) {
  const w = BEAST_W[type] || 13;
  const cap = opts.cap || "butt";
  el("path", { d, class: "beast-outline", fill: "none", stroke: COLOURS.outline,
    "stroke-width": w + 3, "stroke-linecap": cap, opacity: 0.85 }, g);
  if (type === "blue") {
    el("path", { d, fill: "none", stroke: COLOURS.blue, "stroke-width": w, "stroke-linecap": cap }, g);
    // scales: a dotted light spine
    el("path", { d, class: "beast-pattern", fill: "none", stroke: COLOURS.blueLight,
      "stroke-width": 3.2, "stroke-dasharray": "2.6 4", "stroke-linecap": "butt" }, g);
  } else if (type === "orange") {
    el("path", { d, fill: "none", stroke: COLOURS.orange, "stroke-width": w, "stroke-linecap": cap }, g);
    // broad dark bands
    el("path", { d, class: "beast-pattern", fill: "none", stroke: COLOURS.orangeDark,
      "stroke-width": w, "stroke-dasharray": "4 7", "stroke-dashoffset": 2, opacity: 0.75 }, g);
  } else if (type === "worm") {
    el("path", { d, fill: "none", stroke: COLOURS.worm, "stroke-width": w, "stroke-linecap": cap }, g);
    // thin close rings
    el("path", { d, class: "beast-pattern", fill: "none", stroke: COLOURS.wormDark,
      "stroke-width": w, "stroke-dasharray": "1.1 3.6", opacity: 0.8 }, g);
    el("path", { d, fill: "none", stroke: "#e7a99a", "stroke-width": 2.4, opacity: 0.7 }, g);
  } else {
    // Beastly: stripes in the three beast colours
    el("path", { d, fill: "none", stroke: COLOURS.worm, "stroke-width": w, "stroke-linecap": cap }, g);
    el("path", { d, class: "beast-pattern", fill: "none", stroke: COLOURS.blue,
      "stroke-width": w, "stroke-dasharray": "5 10" }, g);
    el("path", { d, class: "beast-pattern", fill: "none", stroke: COLOURS.orange,
      "stroke-width": w, "stroke-dasharray": "5 10", "stroke-dashoffset": -5 }, g);
  }
}

function beastFill(type) {
  return { blue: COLOURS.blue, orange: COLOURS.orange, worm: COLOURS.worm }[type] || COLOURS.worm;
}

function drawSegment(layer, seg, reach) {
  const type = seg.type;
  const kind = seg.kind;
  const g = el("g", {
    class: `beast beast-${type} kind-${kind}`, "data-type": type, "data-kind": kind,
    "data-sides": seg.sides.join(" "),
    "data-feature-type": seg.feature_type || type,
  }, layer);
  const w = BEAST_W[type] || 13;
  if (seg.sides.length >= 2) {
    const [s1, s2] = seg.sides;
    const a = SIDE_MID[s1];
    const b = SIDE_MID[s2];
    let d;
    let len;
    if ((s2 - s1 + 4) % 4 === 2) {
      d = `M ${a[0]} ${a[1]} L ${b[0]} ${b[1]}`;
      len = 100;
    } else {
      const k = [a[0] + b[0] - C, a[1] + b[1] - C];
      const cross = (a[0] - k[0]) * (b[1] - k[1]) - (a[1] - k[1]) * (b[0] - k[0]);
      d = `M ${a[0]} ${a[1]} A 50 50 0 0 ${cross > 0 ? 1 : 0} ${b[0]} ${b[1]}`;
      len = 25 * Math.PI;
    }
    beastBase(g, d, type);
    if (kind === "saddle") {
      const band = 15;
      const dash = { fill: "none", "stroke-dasharray": `${band} ${len + 50}`,
        "stroke-dashoffset": fmt(-(len / 2 - band / 2)) };
      el("path", { d, class: "saddle", stroke: COLOURS.outline, "stroke-width": w + 8, ...dash }, g);
      el("path", { d, stroke: COLOURS.saddle, "stroke-width": w + 5, ...dash }, g);
      el("path", { d, stroke: "#ffc2df", "stroke-width": 2, ...dash }, g);
    }
    return g;
  }
  // one side: from the side midpoint towards the centre, drawn for side N and turned
  const side = seg.sides[0];
  const inner = el("g", { transform: `rotate(${90 * side} 50 50)` }, g);
  const fill = beastFill(type);
  if (type === "blue" && kind === "head") {
    const n = reach - 17;
    beastBase(inner, `M 50 0 L 50 ${n + 1}`, type);
    const head = `M 43.5 ${n - 1} C 37.5 ${n + 3} 37.5 ${n + 10} 44 ${reach - 3} `
      + `Q 50 ${reach + 1} 56 ${reach - 3} C 62.5 ${n + 10} 62.5 ${n + 3} 56.5 ${n - 1} Z`;
    el("path", { d: `M 50 ${reach - 1} l 0 4.5 l -2.2 2.6 M 50 ${reach + 3.5} l 2.2 2.6`,
      stroke: "#d1202f", "stroke-width": 1.3, fill: "none", "stroke-linecap": "round",
      class: "tongue" }, inner);
    el("path", { d: head, class: "head", fill, stroke: "none" }, inner);
    el("path", { d: head.replace(/ Z$/, ""), fill: "none", stroke: COLOURS.outline,
      "stroke-width": 1.5 }, inner);
    for (const ex of [45.4, 54.6]) {
      el("circle", { cx: ex, cy: n + 8, r: 2.4, fill: "#fff", stroke: COLOURS.outline,
        "stroke-width": 0.5 }, inner);
      el("circle", { cx: ex, cy: n + 8.7, r: 1.1, fill: "#111" }, inner);
    }
  } else if (type === "blue" && kind === "tail") {
    const n = reach - 20;
    beastBase(inner, `M 50 0 L 50 ${n + 0.5}`, type);
    const tail = `M 43.5 ${n} Q 45.5 ${reach - 7} 50 ${reach} Q 54.5 ${reach - 7} 56.5 ${n}`;
    el("path", { d: `${tail} Z`, class: "tail", fill, stroke: "none" }, inner);
    el("path", { d: tail, fill: "none", stroke: COLOURS.outline, "stroke-width": 1.5,
      "stroke-linejoin": "round" }, inner);
  } else if (type === "worm") {
    const n = reach - 4;
    beastBase(inner, `M 50 0 L 50 ${n}`, type);
    el("rect", { x: 50 - w / 2 - 0.5, y: n - 2, width: w + 1, height: 6, rx: 2.5,
      class: "end blunt", fill: COLOURS.wormDark, stroke: COLOURS.outline, "stroke-width": 1.2 },
    inner);
  } else {
    // orange end (head and tail alike) and anything else: a round cap
    beastBase(inner, `M 50 0 L 50 ${reach - w / 2}`, type, { cap: "round" });
  }
  return g;
}

function drawBeasts(g, tv) {
  const beasts = tv.beasts || [];
  if (!beasts.length) return;
  const layer = el("g", { class: "beasts" }, g);
  // bodies first so that heads and tails lie on top of them
  const order = [...beasts].sort((a, b) => b.sides.length - a.sides.length);
  const reaches = reachesOf(beasts);
  for (const seg of order) drawSegment(layer, seg, reaches.get(seg));
}

// ---------------------------------------------------------------------------
// layout: keep symbols off the beasts and off each other

function segmentPoints(seg, reach) {
  const out = [];
  if (seg.sides.length >= 2) {
    const [s1, s2] = seg.sides;
    const a = SIDE_MID[s1];
    const b = SIDE_MID[s2];
    if ((s2 - s1 + 4) % 4 === 2) {
      for (let i = 0; i <= 10; i++) out.push(lerp(a, b, i / 10));
    } else {
      const k = [a[0] + b[0] - C, a[1] + b[1] - C];
      const a0 = Math.atan2(a[1] - k[1], a[0] - k[0]);
      let a1 = Math.atan2(b[1] - k[1], b[0] - k[0]);
      if (a1 - a0 > Math.PI) a1 -= 2 * Math.PI;
      if (a0 - a1 > Math.PI) a1 += 2 * Math.PI;
      for (let i = 0; i <= 10; i++) {
        const t = a0 + (a1 - a0) * (i / 10);
        out.push([k[0] + 50 * Math.cos(t), k[1] + 50 * Math.sin(t)]);
      }
    }
  } else {
    const m = SIDE_MID[seg.sides[0]];
    for (let i = 0; i <= 6; i++) out.push(lerp(m, [C, C], (reach / 50) * (i / 6)));
  }
  return out;
}

/** How far in each one-side segment reaches: as far as it can without touching others. */
function reachesOf(beasts) {
  const reaches = new Map();
  const fixed = beasts.filter((b) => b.sides.length >= 2).flatMap((b) => segmentPoints(b, 0));
  const ends = beasts.filter((b) => b.sides.length < 2);
  for (let i = 0; i < ends.length; i++) {
    const seg = ends[i];
    const m = SIDE_MID[seg.sides[0]];
    // the other ends, as far as they have been given (earlier ones) or at least 34
    const others = ends.filter((_, j) => j !== i)
      .flatMap((b) => segmentPoints(b, reaches.get(b) ?? 34));
    let reach = 30;
    for (const r of [47, 44, 41, 38, 35, 32]) {
      const tip = lerp(m, [C, C], r / 50);
      const room = Math.min(Infinity, ...fixed.concat(others)
        .map((q) => Math.hypot(tip[0] - q[0], tip[1] - q[1])));
      if (room >= 15) {
        reach = r;
        break;
      }
    }
    reaches.set(seg, reach);
  }
  return reaches;
}

function clearance(p, taken) {
  let best = Infinity;
  for (const [q, r] of taken) best = Math.min(best, Math.hypot(p[0] - q[0], p[1] - q[1]) - r);
  // stay inside the tile
  best = Math.min(best, p[0] - 1, p[1] - 1, 99 - p[0], 99 - p[1]);
  return best;
}

/** The candidate with the most room around it (ties: the first). */
function bestSpot(candidates, taken, radius) {
  let best = candidates[0];
  let score = -Infinity;
  for (const c of candidates) {
    const s = Math.min(clearance(c, taken) - radius, 12);
    if (s > score + 0.01) {
      best = c;
      score = s;
    }
  }
  return best;
}

function itemPositions(tv) {
  const beastSides = new Set((tv.beasts || []).flatMap((b) => b.sides));
  const used = new Map();
  return (tv.items || []).map((item) => {
    const k = item.arc;
    let p;
    if (k % 2 === 0) {
      p = lerp([C, C], perimPoint(k * 50), 0.66);
    } else {
      p = lerp([C, C], arcAnchor(k), 0.74);
      const side = (k - 1) / 2;
      if (beastSides.has(side)) {
        // shift along the side, off the beast crossing it
        const along = [[1, 0], [0, 1], [-1, 0], [0, -1]][side];
        p = [p[0] + 10 * along[0], p[1] + 10 * along[1]];
      }
    }
    const n = used.get(k) || 0;
    used.set(k, n + 1);
    if (n) {
      const [ux, uy] = unit(p[0] - C, p[1] - C);
      p = [p[0] - uy * 10 * n, p[1] + ux * 10 * n];
    }
    return { item, p };
  });
}

const QUADRANTS = [[27, 27], [73, 27], [73, 73], [27, 73], [50, 24], [76, 50], [50, 76], [24, 50]];

/** Where everything on a tile goes: items, spade, token; and what is taken. */
function layoutTile(tv) {
  const beastR = 8.5;
  const beasts = tv.beasts || [];
  const reaches = reachesOf(beasts);
  const taken = beasts.flatMap((seg) => segmentPoints(seg, reaches.get(seg) ?? 47)
    .map((p) => [p, beastR, seg]));
  const items = itemPositions(tv);
  for (const { p } of items) taken.push([p, 6.5]);
  let spade = null;
  if (tv.spade) {
    spade = taken.length ? bestSpot([[C, C], ...QUADRANTS], taken, 13) : [C, C];
    if ((tv.beasts || []).length === 0) spade = [C, C];
    taken.push([spade, 15]);
  }
  let token = null;
  if (tv.token) {
    const t = tv.token;
    if (t.side !== undefined && t.side !== null) {
      // on its segment, in from the edge; beside it when a head or tail is in the way
      const m = SIDE_MID[t.side];
      const seg = beasts.find((b) => b.sides.includes(t.side));
      const others = taken.filter(([, , owner]) => owner !== seg);
      if (seg && seg.sides.length < 2) {
        others.push([lerp(m, [C, C], (reaches.get(seg) - 8) / 50), 10]);
      }
      const [ux, uy] = unit(C - m[0], C - m[1]);
      const candidates = [0.3, 0.24, 0.36, 0.5].map((f) => lerp(m, [C, C], f));
      for (const f of [0.24, 0.32]) {
        const q = lerp(m, [C, C], f);
        candidates.push([q[0] - uy * 14, q[1] + ux * 14], [q[0] + uy * 14, q[1] - ux * 14]);
      }
      token = bestSpot(candidates, others, 12);
    } else {
      const region = regionsOf(tv).find((r) => r.arcs.includes(t.arc ?? 0));
      const arcs = region ? region.arcs : [t.arc ?? 0];
      const candidates = [];
      for (const run of runsOf(arcs)) {
        if (run.full) candidates.push([C, C], ...QUADRANTS);
        else {
          for (const f of [0.5, 0.65, 0.35]) {
            candidates.push(lerp([C, C], perimPoint((run.start + run.end) / 2), f));
          }
          for (const k of run.arcs) candidates.push(lerp([C, C], arcAnchor(k), 0.6));
        }
      }
      token = bestSpot(candidates, taken, 12);
    }
    taken.push([token, 13]);
  }
  return { items, spade, token, taken };
}

// ---------------------------------------------------------------------------
// items, spade, tokens, creatures

function drawItem(parent, kind, x, y) {
  const g = el("g", { class: `item item-${kind}`, "data-kind": kind,
    transform: `translate(${fmt(x)} ${fmt(y)})` }, parent);
  if (kind === "gold") {
    el("circle", { r: 6, fill: "#f4c430", stroke: "#6b5000", "stroke-width": 1.1 }, g);
    el("circle", { r: 4.4, fill: "none", stroke: "#b88a00", "stroke-width": 0.6 }, g);
    text(g, 0, 0.3, "G", { "font-size": 6.2, fill: "#4a3700" });
  } else if (kind === "silver") {
    el("circle", { r: 6, fill: "#e6e9ee", stroke: "#4d5560", "stroke-width": 1.1 }, g);
    el("circle", { r: 4.4, fill: "none", stroke: "#9aa3ad", "stroke-width": 0.6 }, g);
    text(g, 0, 0.3, "S", { "font-size": 6.2, fill: "#2f363e" });
  } else {
    for (let i = 0; i < 5; i++) {
      const a = (i * 72 - 90) * Math.PI / 180;
      el("circle", { cx: fmt(3.4 * Math.cos(a)), cy: fmt(3.4 * Math.sin(a)), r: 2.7,
        fill: "#f0609e", stroke: "#7d1747", "stroke-width": 0.6 }, g);
    }
    el("circle", { r: 2.1, fill: "#ffd23f", stroke: "#7d5a00", "stroke-width": 0.5 }, g);
  }
  return g;
}

function drawItems(g, placed) {
  if (!placed.length) return;
  const layer = el("g", { class: "items" }, g);
  for (const { item, p } of placed) {
    const node = drawItem(layer, item.kind, p[0], p[1]);
    node.setAttribute("data-arc", item.arc);
  }
}

function spadePath(parent) {
  el("path", { d: "M -3.6 -8 L 3.6 -8 M 0 -8 L 0 -1.5", stroke: "#2b2b2b", "stroke-width": 1.7,
    "stroke-linecap": "round", fill: "none" }, parent);
  el("path", { d: "M -3.8 -1.5 L 3.8 -1.5 L 3.8 3.8 Q 3.8 7.6 0 9 Q -3.8 7.6 -3.8 3.8 Z",
    fill: "#5a5a5a", stroke: "#2b2b2b", "stroke-width": 0.9, "stroke-linejoin": "round" }, parent);
}

function drawSpade(g, tv, at) {
  const flips = Number.isFinite(tv.flips_left) ? tv.flips_left : null;
  const s = el("g", { class: `spade flips-${flips ?? "unknown"}`, "data-flips-left": flips ?? "",
    transform: `translate(${fmt(at[0])} ${fmt(at[1])})` }, g);
  el("circle", { r: 10.5, fill: "#fbfaf4", stroke: COLOURS.outline, "stroke-width": 1 }, s);
  if (flips && flips > 0) {
    const colour = COLOURS.flips[Math.min(flips, 3)] || COLOURS.flips[3];
    const r = 13;
    const ring = el("g", { class: "flip-ring", "data-segments": flips }, s);
    if (flips === 1) {
      el("circle", { r, fill: "none", stroke: COLOURS.outline, "stroke-width": 5.4 }, ring);
      el("circle", { r, fill: "none", stroke: colour, "stroke-width": 3.4 }, ring);
    } else {
      // one ring segment per flip left, so the count reads without colour
      const gap = 26;
      const each = 360 / flips;
      for (let i = 0; i < flips; i++) {
        const a0 = (-90 + i * each + gap / 2) * Math.PI / 180;
        const a1 = (-90 + (i + 1) * each - gap / 2) * Math.PI / 180;
        const d = `M ${fmt(r * Math.cos(a0))} ${fmt(r * Math.sin(a0))} A ${r} ${r} 0 ${each - gap > 180 ? 1 : 0} 1 ${fmt(r * Math.cos(a1))} ${fmt(r * Math.sin(a1))}`;
        el("path", { d, fill: "none", stroke: COLOURS.outline, "stroke-width": 5.4,
          "stroke-linecap": "round" }, ring);
        el("path", { d, fill: "none", stroke: colour, "stroke-width": 3.4,
          "stroke-linecap": "round" }, ring);
      }
    }
  }
  spadePath(s);
}

function bootGlyph(parent, colour) {
  el("path", {
    d: "M -4.2 -6.5 L 1.6 -6.5 L 1.6 1.6 L 5 2.6 Q 6.6 3.2 6.6 5 L 6.6 6.5 L -4.2 6.5 Z",
    fill: colour, stroke: colour === "#fff" ? "#111" : "#fff", "stroke-width": 0.6,
    "stroke-linejoin": "round",
  }, parent);
  el("path", { d: "M -4.2 -4.6 L 1.6 -4.6", stroke: colour === "#fff" ? "#111" : "#fff",
    "stroke-width": 0.7 }, parent);
}

function forkGlyph(parent, colour) {
  el("path", {
    d: "M 0 7.2 L 0 -1.6 M -4.4 -7 L -4.4 -3 Q -4.4 -1.6 -3 -1.6 L 3 -1.6 Q 4.4 -1.6 4.4 -3 L 4.4 -7 M 0 -1.6 L 0 -7.4",
    stroke: colour, "stroke-width": 1.8, "stroke-linecap": "round", fill: "none",
  }, parent);
}

/** A token badge: seat colour + glyph shape (boot/pitchfork) + the seat's letter. */
export function drawToken(parent, { seat, kind, x, y, colour, label, name }) {
  const g = el("g", {
    class: `token token-${kind}`, "data-seat": seat, "data-kind": kind,
    transform: `translate(${fmt(x)} ${fmt(y)}) scale(1.15)`,
  }, parent);
  if (name) el("title", {}, g).textContent = `${name}'s ${kind === "boot" ? "welly boot" : "pitchfork"}`;
  const light = luminance(colour) > 0.55;
  const ink = light ? "#111" : "#fff";
  el("circle", { r: 10, fill: colour, stroke: "#111", "stroke-width": 1.6 }, g);
  el("circle", { r: 8.6, fill: "none", stroke: light ? "rgba(0,0,0,.25)" : "rgba(255,255,255,.45)",
    "stroke-width": 0.7 }, g);
  const glyph = el("g", { class: "token-glyph", transform: "translate(-0.8 -0.2) scale(0.95)" }, g);
  if (kind === "pitchfork") forkGlyph(glyph, ink);
  else bootGlyph(glyph, ink);
  const tag = el("g", { class: "token-label", transform: "translate(8.5 7.5)" }, g);
  el("circle", { r: 5, fill: "#fff", stroke: "#111", "stroke-width": 1 }, tag);
  text(tag, 0, 0.4, label, { "font-size": 6.6, fill: "#111" });
  return g;
}

const FLY_LABEL = { fly: "Fly", frog: "Frog" };

function drawCreature(parent, name, creature, x, y) {
  const eaten = creature.status === "eaten";
  const g = el("g", {
    class: `creature creature-${name} status-${creature.status}`, "data-creature": name,
    "data-status": creature.status, "data-hops": creature.hops ?? 0,
    transform: `translate(${fmt(x)} ${fmt(y)}) scale(1.3)`, opacity: eaten ? 0.55 : 1,
  }, parent);
  el("circle", { r: 11, fill: "#ffffff", stroke: "#111", "stroke-width": 1.4, opacity: 0.95 }, g);
  if (name === "fly") {
    el("ellipse", { cx: -3, cy: -1.5, rx: 4.6, ry: 2.6, transform: "rotate(-35 -3 -1.5)",
      fill: "#cfe8ff", stroke: "#4a6d91", "stroke-width": 0.6 }, g);
    el("ellipse", { cx: 3, cy: -1.5, rx: 4.6, ry: 2.6, transform: "rotate(35 3 -1.5)",
      fill: "#cfe8ff", stroke: "#4a6d91", "stroke-width": 0.6 }, g);
    el("ellipse", { cx: 0, cy: 2, rx: 2.5, ry: 4.6, fill: "#2d2d2d" }, g);
    el("circle", { cx: 0, cy: -3.8, r: 2.2, fill: "#2d2d2d" }, g);
    el("circle", { cx: -1.3, cy: -4.5, r: 0.9, fill: "#e23b3b" }, g);
    el("circle", { cx: 1.3, cy: -4.5, r: 0.9, fill: "#e23b3b" }, g);
  } else {
    el("ellipse", { cx: -5.5, cy: 4.5, rx: 2.8, ry: 1.6, fill: "#2f8a3c" }, g);
    el("ellipse", { cx: 5.5, cy: 4.5, rx: 2.8, ry: 1.6, fill: "#2f8a3c" }, g);
    el("ellipse", { cx: 0, cy: 1.5, rx: 6.8, ry: 5.2, fill: "#43a84f", stroke: "#1d5e27",
      "stroke-width": 0.8 }, g);
    for (const ex of [-3.4, 3.4]) {
      el("circle", { cx: ex, cy: -3.8, r: 2.5, fill: "#43a84f", stroke: "#1d5e27",
        "stroke-width": 0.7 }, g);
      el("circle", { cx: ex, cy: -4, r: 1.4, fill: "#fff" }, g);
      el("circle", { cx: ex, cy: -4, r: 0.7, fill: "#111" }, g);
    }
    el("path", { d: "M -3 2.4 Q 0 4.4 3 2.4", stroke: "#1d5e27", "stroke-width": 0.8,
      fill: "none" }, g);
  }
  const label = eaten ? `${FLY_LABEL[name]} (eaten)` : FLY_LABEL[name];
  text(g, 0, 16, label, { "font-size": 7, fill: "#111", stroke: "#fff", "stroke-width": 2.4,
    "paint-order": "stroke", "stroke-linejoin": "round" });
  return g;
}

// ---------------------------------------------------------------------------
// descriptions (the <title> of every tile)

function beastDescription(seg) {
  const name = BEAST_NAMES[seg.type] || seg.type;
  const sides = seg.sides.map((s) => SIDE_NAMES[s]).join("-");
  let what = `${name} ${seg.kind}`;
  if (seg.type === "any") {
    what = "Beastly body";
    if (seg.feature_type && seg.feature_type !== "any") {
      what += ` (part of a ${BEAST_NAMES[seg.feature_type] || seg.feature_type})`;
    }
  }
  return `${what} (${sides})`;
}

function playerName(ctx, seat) {
  const players = ctx.players || [];
  return players[seat] !== undefined ? players[seat] : `Player ${seat + 1}`;
}

/** The text description of a tile view (used as its <title>). */
export function describeTile(tv, ctx = {}) {
  let out = String(tv.tile || "tile");
  const parts = [];
  if (Array.isArray(tv.at)) {
    out += ` at ${tv.at[0]},${tv.at[1]}`;
    if (tv.face === "back") parts.push("back face");
  } else if (tv.face) {
    out += ` (${tv.face})`;
  }
  const terrain = tv.terrain || "";
  const hasG = terrain.includes("G");
  const hasS = terrain.includes("S");
  let land = hasG && hasS ? "grass/sand" : hasG ? "all grass" : hasS ? "all sand" : "";
  const linked = regionsOf(tv).filter((r) => runsOf(r.arcs).length > 1);
  for (const r of linked) land += `, ${r.terrain === "S" ? "sand" : "grass"} linked across the centre`;
  if (land) parts.push(land);
  for (const item of tv.items || []) {
    const name = item.kind === "flower" ? "flower" : `${item.kind} coin`;
    parts.push(`${name} (${ARC_NAMES[item.arc] || item.arc})`);
  }
  for (const seg of tv.beasts || []) parts.push(beastDescription(seg));
  if (tv.spade) {
    const f = tv.flips_left;
    if (f === undefined || f === null) parts.push("spade");
    else if (f > 0) parts.push(`spade (${f} flip${f === 1 ? "" : "s"} left)`);
    else parts.push("spade (cannot be flipped)");
  }
  if (tv.token) {
    const t = tv.token;
    const what = t.kind === "pitchfork" ? "pitchfork" : "boot";
    let where = "";
    if (t.side !== undefined && t.side !== null) {
      const seg = (tv.beasts || []).find((b) => b.sides.includes(t.side));
      where = seg ? ` on the ${BEAST_NAMES[seg.type] || seg.type}` : ` on side ${SIDE_NAMES[t.side]}`;
    } else if (t.arc !== undefined) {
      const region = regionsOf(tv).find((r) => r.arcs.includes(t.arc));
      where = region ? ` on the ${region.terrain === "S" ? "sand" : "grass"}` : "";
    }
    parts.push(`${playerName(ctx, t.seat)}'s ${what}${where}`);
  }
  for (const [name, c] of Object.entries(ctx.creaturesHere || {})) {
    if (c.status === "eaten") parts.push(`the ${name} was eaten here after ${c.hops} hops`);
    else parts.push(`the ${name} is here (${c.hops} hop${c.hops === 1 ? "" : "s"})`);
  }
  return parts.length ? `${out}: ${parts.join(", ")}` : out;
}

// ---------------------------------------------------------------------------
// tiles

/** The letter on each seat's tokens: initials when they differ, else seat numbers. */
export function seatLabels(players) {
  const names = players || [];
  const initials = names.map((n) => String(n || "?").trim().charAt(0).toUpperCase() || "?");
  const unique = new Set(initials).size === initials.length;
  return (seat) => (unique && initials[seat] ? initials[seat] : String(seat + 1));
}

/**
 * Where a token would be drawn on a tile (local units 0..100): the place a claim's
 * roundel goes before the token is put down. ``token`` is {arc} or {side}.
 */
export function tokenSpot(tileView, token) {
  return layoutTile({ ...tileView, token: { seat: 0, kind: "boot", ...token } }).token;
}

/**
 * Draw one tile (a tile_view or a tile_view-like object: terrain, regions or links,
 * items, beasts, spade, flips_left, token) into an SVG group, in local units 0..100.
 * Usable for the hand panel: `<svg viewBox="-2 -2 104 104"><g/></svg>`.
 */
export function renderTile(svgGroup, tileView, options = {}) {
  const tv = tileView || {};
  for (const child of [...svgGroup.childNodes]) {
    if (!(child.classList && child.classList.contains("marram-defs"))) child.remove();
  }
  const defs = ensureDefs(svgGroup);
  const title = el("title", {}, svgGroup);
  title.textContent = describeTile(tv, options);
  el("rect", { class: "tile-base", x: 0, y: 0, width: 100, height: 100, fill: COLOURS.sand }, svgGroup);
  drawTerrain(svgGroup, tv, defs);
  drawBeasts(svgGroup, tv);
  const layout = layoutTile(tv);
  svgGroup.__marramLayout = layout;
  drawItems(svgGroup, layout.items);
  if (tv.spade) drawSpade(svgGroup, tv, layout.spade);
  if (tv.token) {
    const seat = tv.token.seat ?? 0;
    const colours = options.playerColours || PLAYER_COLOURS;
    const [x, y] = layout.token;
    drawToken(svgGroup, {
      seat, kind: tv.token.kind || "boot", x, y,
      colour: colours[seat % colours.length],
      label: (options.seatLabel || seatLabels(options.players))(seat),
      name: playerName(options, seat),
    });
  }
  el("rect", { class: "tile-edge", x: 0, y: 0, width: 100, height: 100, fill: "none",
    stroke: "rgba(30,30,25,0.55)", "stroke-width": 1 }, svgGroup);
  return svgGroup;
}

// ---------------------------------------------------------------------------
// the board

function posKey(p) {
  return `${p[0]},${p[1]}`;
}

function boardBounds(view, highlights) {
  const cells = (view.board || []).map((t) => t.at).concat(highlights || []);
  if (!cells.length) return { x: -TILE, y: -TILE, w: 3 * TILE, h: 3 * TILE };
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of cells) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  const m = 0.35 * TILE;
  return { x: x0 * TILE - m, y: y0 * TILE - m, w: (x1 - x0 + 1) * TILE + 2 * m,
    h: (y1 - y0 + 1) * TILE + 2 * m };
}

/**
 * Render a player view into an <svg>. Options:
 *   highlights: [[x, y], ...] legal targets, drawn clickable
 *   onCellClick([x, y], event): called when a highlight is clicked (or Enter/Space on it)
 *   lastMove: [x, y] outlined
 *   lastMoves: [[x, y], ...] each outlined (every tile moved since the player's last move)
 *   onTileClick(tileView, event): called when a laid tile is clicked
 *   playerColours: colours by seat
 *   fit: true to fit the whole board now (the first render always fits)
 *   panZoom: false to skip attaching pan and zoom
 * Returns {fit, panZoom, bounds}.
 */
export function renderBoard(svgElement, view, options = {}) {
  const svg = svgElement;
  const v = view || {};
  svg.classList.add("marram-board");
  if (!svg.hasAttribute("tabindex")) svg.setAttribute("tabindex", "0");
  if (!svg.hasAttribute("role")) svg.setAttribute("role", "group");
  if (!svg.hasAttribute("aria-label")) svg.setAttribute("aria-label", "Marram board");
  const defs = ensureDefs(svg);
  const old = svg.querySelector(":scope > g.marram-content");
  if (old) old.remove();
  const root = el("g", { class: "marram-content" }, svg);

  const highlights = options.highlights || [];
  const bounds = boardBounds(v, highlights);
  svg.dataset.bounds = `${bounds.x} ${bounds.y} ${bounds.w} ${bounds.h}`;

  const pad = 40 * TILE;
  el("rect", { class: "board-grid", x: bounds.x - pad, y: bounds.y - pad, width: bounds.w + 2 * pad,
    height: bounds.h + 2 * pad, fill: defs.grid }, root);

  const players = v.players || [];
  const ctxBase = {
    players,
    playerColours: options.playerColours || PLAYER_COLOURS,
    seatLabel: seatLabels(players),
  };

  // creatures, by tile
  const creaturesAt = new Map();
  for (const [name, c] of Object.entries(v.creatures || {})) {
    if (!c || !Array.isArray(c.at)) continue;
    if (c.status !== "on_board" && c.status !== "eaten") continue;
    const k = posKey(c.at);
    if (!creaturesAt.has(k)) creaturesAt.set(k, {});
    creaturesAt.get(k)[name] = c;
  }

  const tilesLayer = el("g", { class: "tiles" }, root);
  const groups = new Map();
  for (const tv of v.board || []) {
    const [x, y] = tv.at;
    const g = el("g", {
      class: "tile", transform: `translate(${x * TILE} ${y * TILE})`,
      "data-x": x, "data-y": y, "data-tile": tv.tile, "data-face": tv.face,
      "data-rotation": tv.rotation, "data-spade": tv.spade ? "true" : "false",
      "data-flips-left": tv.flips_left ?? 0,
    }, tilesLayer);
    const here = creaturesAt.get(posKey(tv.at)) || {};
    renderTile(g, tv, { ...ctxBase, creaturesHere: here });
    groups.set(posKey(tv.at), g);
    if (tv.token) g.dataset.token = `${tv.token.seat} ${tv.token.kind}`;
    if (options.onTileClick) {
      g.classList.add("clickable");
      g.addEventListener("click", (ev) => options.onTileClick(tv, ev));
    }
  }

  const moved = (options.lastMoves || []).concat(
    Array.isArray(options.lastMove) ? [options.lastMove] : []);
  const outlined = new Set();
  for (const [x, y] of moved) {
    if (outlined.has(posKey([x, y]))) continue;
    outlined.add(posKey([x, y]));
    const g = el("g", { class: "last-move", "data-x": x, "data-y": y, "pointer-events": "none" }, root);
    el("rect", { x: x * TILE + 1.5, y: y * TILE + 1.5, width: TILE - 3, height: TILE - 3,
      fill: "none", stroke: "#111", "stroke-width": 6, rx: 3 }, g);
    el("rect", { x: x * TILE + 1.5, y: y * TILE + 1.5, width: TILE - 3, height: TILE - 3,
      fill: "none", stroke: "#ffe14d", "stroke-width": 3.5, rx: 3, "stroke-dasharray": "10 4" }, g);
  }

  // creatures above the tiles, in a free corner of theirs
  const critters = el("g", { class: "creatures" }, root);
  const spots = {
    fly: [[24, 68], [24, 24], [76, 24], [76, 68]],
    frog: [[76, 68], [76, 24], [24, 24], [24, 68]],
  };
  for (const [k, here] of creaturesAt) {
    const [x, y] = k.split(",").map(Number);
    const layout = (groups.get(k) || {}).__marramLayout;
    const taken = layout ? [...layout.taken] : [];
    for (const name of Object.keys(here).sort()) {
      const spot = bestSpot(spots[name] || spots.fly, taken, 15);
      taken.push([spot, 20]);
      drawCreature(critters, name, here[name], x * TILE + spot[0], y * TILE + spot[1]);
    }
  }

  if (highlights.length) {
    const occupied = new Set((v.board || []).map((t) => posKey(t.at)));
    const layer = el("g", { class: "highlights" }, root);
    for (const pos of highlights) {
      const [x, y] = pos;
      const onTile = occupied.has(posKey(pos));
      const label = onTile ? `Choose the tile at ${x},${y}` : `Lay a tile at ${x},${y}`;
      const g = el("g", {
        class: `highlight${onTile ? " on-tile" : ""}`, "data-x": x, "data-y": y,
        tabindex: 0, role: "button", "aria-label": label,
      }, layer);
      el("title", {}, g).textContent = label;
      el("rect", { class: "highlight-cell", x: x * TILE + 4, y: y * TILE + 4, width: TILE - 8,
        height: TILE - 8, rx: 8, fill: onTile ? "rgba(255,255,255,0.12)" : "rgba(255,255,255,0.55)",
        stroke: "#0b5d3b", "stroke-width": 3, "stroke-dasharray": "9 5" }, g);
      if (!onTile) {
        el("path", { d: `M ${x * TILE + 50} ${y * TILE + 38} v 24 M ${x * TILE + 38} ${y * TILE + 50} h 24`,
          stroke: "#0b5d3b", "stroke-width": 4, "stroke-linecap": "round" }, g);
      }
      const fire = (ev) => {
        if (options.onCellClick) options.onCellClick([x, y], ev);
      };
      g.addEventListener("click", fire);
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          ev.stopPropagation();
          fire(ev);
        }
      });
    }
  }

  let panZoom = null;
  if (options.panZoom !== false) {
    const first = !svg.__marramPanZoom;
    panZoom = attachPanZoom(svg);
    if (first || options.fit) panZoom.fit();
  } else if (!svg.hasAttribute("viewBox") || options.fit) {
    svg.setAttribute("viewBox", `${bounds.x} ${bounds.y} ${bounds.w} ${bounds.h}`);
  }
  return {
    bounds,
    panZoom,
    fit: () => (panZoom ? panZoom.fit()
      : svg.setAttribute("viewBox", `${bounds.x} ${bounds.y} ${bounds.w} ${bounds.h}`)),
  };
}

// ---------------------------------------------------------------------------
// pan and zoom by manipulating the viewBox

/** The fewest tiles across the board that fitting it shows. */
export const FIT_TILES = 8;

/**
 * Mouse wheel / pinch zoom, drag to pan, keyboard (+ - arrows, 0 to fit) when the
 * SVG has focus. Returns {fit, zoomBy, panBy, getViewBox, setViewBox, destroy}.
 */
export function attachPanZoom(svg) {
  if (svg.__marramPanZoom) return svg.__marramPanZoom;
  if (!svg.hasAttribute("tabindex")) svg.setAttribute("tabindex", "0");
  let vb = null;

  const size = () => {
    const r = svg.getBoundingClientRect();
    return { w: r.width || svg.clientWidth || 0, h: r.height || svg.clientHeight || 0 };
  };
  const bounds = () => {
    const raw = (svg.dataset.bounds || "").split(/\s+/).map(Number);
    if (raw.length === 4 && raw.every(Number.isFinite)) {
      return { x: raw[0], y: raw[1], w: raw[2], h: raw[3] };
    }
    return { x: -TILE, y: -TILE, w: 3 * TILE, h: 3 * TILE };
  };
  const limits = () => {
    const b = bounds();
    return { min: 0.6 * TILE, max: Math.max(b.w, b.h, 4 * TILE) * 3 };
  };
  const apply = () => {
    svg.setAttribute("viewBox", `${fmt(vb.x)} ${fmt(vb.y)} ${fmt(vb.w)} ${fmt(vb.h)}`);
  };
  /** Match the viewBox to the element's aspect ratio, keeping its centre. */
  const setViewBox = (box) => {
    const { w: cw, h: ch } = size();
    let { x, y, w, h } = box;
    if (cw > 0 && ch > 0) {
      const cx = x + w / 2;
      const cy = y + h / 2;
      const aspect = ch / cw;
      if (h / w > aspect) w = h / aspect;
      else h = w * aspect;
      x = cx - w / 2;
      y = cy - h / 2;
    }
    vb = { x, y, w, h };
    apply();
  };
  const getViewBox = () => ({ ...vb });
  // the whole board, but never so close that a tile is more than 1/FIT_TILES of the
  // board's width (the starter alone would fill it)
  const fit = () => {
    const b = bounds();
    const w = Math.max(b.w, FIT_TILES * TILE);
    setViewBox({ ...b, x: b.x - (w - b.w) / 2, w });
  };

  const toUser = (clientX, clientY) => {
    const ctm = svg.getScreenCTM();
    if (!ctm) return { x: vb.x + vb.w / 2, y: vb.y + vb.h / 2 };
    const p = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    return { x: p.x, y: p.y };
  };
  const unitsPerPixel = () => {
    const ctm = svg.getScreenCTM();
    return ctm && ctm.a ? 1 / ctm.a : vb.w / (size().w || 1);
  };
  const zoomBy = (factor, at) => {
    if (!vb) fit();
    const { min, max } = limits();
    const w = Math.min(max, Math.max(min, vb.w * factor));
    const f = w / vb.w;
    const p = at || { x: vb.x + vb.w / 2, y: vb.y + vb.h / 2 };
    vb = { x: p.x - (p.x - vb.x) * f, y: p.y - (p.y - vb.y) * f, w: vb.w * f, h: vb.h * f };
    apply();
  };
  const panBy = (dx, dy) => {
    if (!vb) fit();
    vb = { ...vb, x: vb.x + dx, y: vb.y + dy };
    apply();
  };

  // wheel
  const onWheel = (ev) => {
    ev.preventDefault();
    const scale = ev.deltaMode === 1 ? 33 : ev.deltaMode === 2 ? 400 : 1;
    const factor = Math.exp(Math.max(-300, Math.min(300, ev.deltaY * scale)) * 0.0015);
    zoomBy(factor, toUser(ev.clientX, ev.clientY));
  };

  // pointers: one drags, two pinch
  const pointers = new Map();
  let dragged = false;
  let start = null;
  let pinch = null;
  const onDown = (ev) => {
    if (ev.pointerType === "mouse" && ev.button !== 0) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pointers.size === 1) {
      dragged = false;
      start = { x: ev.clientX, y: ev.clientY };
    }
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
    }
  };
  const onMove = (ev) => {
    if (!pointers.has(ev.pointerId)) return;
    const prev = pointers.get(ev.pointerId);
    const cur = { x: ev.clientX, y: ev.clientY };
    pointers.set(ev.pointerId, cur);
    if (!dragged && start && Math.hypot(cur.x - start.x, cur.y - start.y) > 5) {
      dragged = true;
      svg.classList.add("panning");
      try {
        svg.setPointerCapture(ev.pointerId);
      } catch (_) {
        /* pointer gone */
      }
    }
    if (pointers.size === 1 && dragged) {
      const u = unitsPerPixel();
      panBy(-(cur.x - prev.x) * u, -(cur.y - prev.y) * u);
    } else if (pointers.size === 2 && pinch) {
      dragged = true;
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const mx = (a.x + b.x) / 2;
      const my = (a.y + b.y) / 2;
      const u = unitsPerPixel();
      panBy(-(mx - pinch.mx) * u, -(my - pinch.my) * u);
      if (d > 0 && pinch.d > 0) zoomBy(pinch.d / d, toUser(mx, my));
      pinch = { d, mx, my };
    }
    if (dragged) ev.preventDefault();
  };
  const onUp = (ev) => {
    pointers.delete(ev.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) {
      svg.classList.remove("panning");
      start = null;
    }
  };
  // a drag is not a click
  const onClickCapture = (ev) => {
    if (dragged) {
      ev.stopPropagation();
      ev.preventDefault();
      dragged = false;
    }
  };
  const onKey = (ev) => {
    if (ev.target !== svg) return;
    if (!vb) fit();
    const step = 0.15;
    switch (ev.key) {
      case "+": case "=": zoomBy(1 / 1.25); break;
      case "-": case "_": zoomBy(1.25); break;
      case "ArrowLeft": panBy(-vb.w * step, 0); break;
      case "ArrowRight": panBy(vb.w * step, 0); break;
      case "ArrowUp": panBy(0, -vb.h * step); break;
      case "ArrowDown": panBy(0, vb.h * step); break;
      case "0": case "f": case "Home": fit(); break;
      default: return;
    }
    ev.preventDefault();
  };
  let resizeObserver = null;
  if (typeof ResizeObserver !== "undefined") {
    resizeObserver = new ResizeObserver(() => {
      if (vb) setViewBox(vb);
    });
    resizeObserver.observe(svg);
  }

  // [event, handler, options]: added here, removed by destroy
  const listeners = [
    ["wheel", onWheel, { passive: false }],
    ["pointerdown", onDown],
    ["pointermove", onMove],
    ["pointerup", onUp],
    ["pointercancel", onUp],
    ["click", onClickCapture, true],
    ["keydown", onKey],
  ];
  for (const [type, handler, options] of listeners) svg.addEventListener(type, handler, options);
  svg.style.touchAction = "none";

  const destroy = () => {
    for (const [type, handler, options] of listeners) {
      svg.removeEventListener(type, handler, options);
    }
    if (resizeObserver) resizeObserver.disconnect();
    delete svg.__marramPanZoom;
  };
  const ctl = { fit, zoomBy, panBy, getViewBox, setViewBox, destroy };
  svg.__marramPanZoom = ctl;
  return ctl;
}

const ZOOM_STEP = 1.3;

/**
 * The zoom buttons beside a board. `ids` names the buttons ({zoomIn, zoomOut,
 * fit}); `current()` gives the board's latest renderBoard result (pages redraw
 * it). `onZoom` runs as the player zooms (a page then stops refitting the board
 * by itself), `onFit` as they fit it again.
 */
export function wireZoomButtons(ids, current, { onZoom, onFit }) {
  const zoom = (factor) => () => {
    onZoom();
    current().panZoom.zoomBy(factor);
  };
  document.getElementById(ids.zoomIn).addEventListener("click", zoom(1 / ZOOM_STEP));
  document.getElementById(ids.zoomOut).addEventListener("click", zoom(ZOOM_STEP));
  document.getElementById(ids.fit).addEventListener("click", () => {
    onFit();
    current().fit();
  });
}
