// The replay viewer, for every game: steps through a game's events with the
// slider, the buttons, the keys and the list of events, says each event in
// words, charts the scores, and (in the admin's replay) shows each event's
// stored row. Used by the replay page (/games/<id>/replay/) and by the admin's
// replay (/admin/games/game/<id>/replay/).
//
// Data: GET <steps-url> lists every step (its event in words and the scores after
// it); GET <steps-url>?at=N gives the game after N events (games.pages.replay).
// Steps are fetched as needed and kept.
//
// The game's own module (data-module, ui.GameUI.replay_module) draws each step:
// it exports renderReplayStep(container, step), called with #replay-stage (the
// same element every time, empty at first) and the step's JSON. A game without
// one gets its view as JSON and each seat's score.

import { colourOf, h, swatch } from "./pieces.js";
import { scoreRange, scoreText } from "./scores.js";

const root = document.getElementById("replay");
const stepsUrl = root.dataset.stepsUrl;
const staff = root.dataset.staff === "true";
const els = {
  slider: document.getElementById("replay-slider"),
  position: document.getElementById("replay-position"),
  event: document.getElementById("replay-event"),
  stage: document.getElementById("replay-stage"),
  chart: document.getElementById("replay-chart"),
  legend: document.getElementById("replay-legend"),
  steps: document.getElementById("replay-steps"),
  payload: document.getElementById("replay-payload"),
  summary: document.getElementById("replay-summary"),
  problem: document.getElementById("replay-problem"),
};

let index = null; // the list of steps
let current = 0;
let shown = -1;
let renderStep = renderAsJSON;
const cache = new Map();
const pending = new Map();

async function getJSON(url) {
  const resp = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!resp.ok) {
    const data = await resp.json().catch(() => ({}));
    throw new Error(data.message || `the server answered ${resp.status}`);
  }
  return resp.json();
}

function fetchStep(n) {
  if (cache.has(n)) return Promise.resolve(cache.get(n));
  if (pending.has(n)) return pending.get(n);
  const sep = stepsUrl.includes("?") ? "&" : "?";
  const p = getJSON(`${stepsUrl}${sep}at=${n}`).then((data) => {
    cache.set(n, data);
    pending.delete(n);
    return data;
  }, (err) => {
    pending.delete(n);
    throw err;
  });
  pending.set(n, p);
  return p;
}

// ---------------------------------------------------------------------------
// a game without a replay module of its own

/** Each seat's score at this step, and the step's view as JSON. */
function renderAsJSON(container, step) {
  const players = step.players || [];
  container.replaceChildren(h("div", { class: "replay-plain" },
    h("section", { class: "card", "aria-label": "Scores at this step" },
      h("h2", {}, "Scores"),
      h("ol", { id: "replay-players", class: "players" }, ...players.map((name, seat) =>
        h("li", { class: "player", dataset: { seat: String(seat) } },
          swatch(seat, players, "small"), " ", h("span", { class: "player-name" }, name), ": ",
          h("strong", { dataset: { stat: "score" } }, scoreText(step.scores[seat])))))),
    h("section", { class: "card", "aria-label": "The game at this step" },
      h("h2", {}, "The game at this step"),
      h("pre", { id: "replay-view", class: "json" }, JSON.stringify(step.view, null, 2)))));
}

// ---------------------------------------------------------------------------
// moving about

function clamp(n) {
  return Math.max(0, Math.min(index.count, n));
}

async function go(n) {
  n = clamp(n);
  current = n;
  els.slider.value = String(n);
  els.position.textContent = `Step ${n} of ${index.count}`;
  markStep(n);
  drawCursor(n);
  history.replaceState(null, "", `#step-${n}`);
  root.dataset.loading = "true";
  let data;
  try {
    data = await fetchStep(n);
  } catch (err) {
    els.problem.textContent = `Could not load step ${n}: ${err.message}`;
    els.problem.hidden = false;
    return;
  }
  if (current !== n) return; // the viewer moved on meanwhile
  els.problem.hidden = !index.error;
  await show(data); // a game's module may draw asynchronously (its tables load once)
  if (current !== n) return;
  root.dataset.loading = "false";
  root.dataset.step = String(n);
  // the next steps are likely wanted soon
  for (const k of [n + 1, n - 1]) if (k >= 0 && k <= index.count) fetchStep(k).catch(() => {});
}

async function show(data) {
  shown = data.at;
  els.event.textContent = data.event ? `Event ${data.event.seq + 1}: ${data.event.text}`
    : index.steps[0].text;
  await renderStep(els.stage, data);
  showScoresNow(data.scores);
  if (staff && els.payload) {
    const row = data.event && data.event.row;
    els.payload.textContent = row ? JSON.stringify(row, null, 2) : "(the start: no event)";
    els.summary.textContent = JSON.stringify(data.summary, null, 2);
  }
}

// ---------------------------------------------------------------------------
// the list of steps and the chart

function markStep(n) {
  const old = els.steps.querySelector("[aria-current]");
  if (old) old.removeAttribute("aria-current");
  const item = els.steps.querySelector(`[data-step="${n}"]`);
  if (!item) return;
  item.setAttribute("aria-current", "step");
  // keep it in view inside the list (its offsetParent) without scrolling the page
  const list = els.steps;
  const top = item.offsetTop;
  if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top - list.clientHeight / 2;
  }
}

function buildSteps() {
  els.steps.replaceChildren(...index.steps.map((s) => h("li", {},
    h("button", { type: "button", class: "step-button", dataset: { step: String(s.n) },
      onclick: () => go(s.n) },
    h("span", { class: "step-n" }, String(s.n)), " ", s.text))));
}

const DASHES = ["", "10 5", "3 4", "12 4 3 4"];
const SVGNS = "http://www.w3.org/2000/svg";
const chart = { w: 640, h: 220, l: 36, r: 14, t: 12, b: 26 };

function svgEl(tag, attrs, parent) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function xOf(n) {
  return chart.l + (n / Math.max(1, index.count)) * (chart.w - chart.l - chart.r);
}

function yOf(score, range) {
  const span = Math.max(1, range.top - range.low);
  return chart.h - chart.b - ((score - range.low) / span) * (chart.h - chart.t - chart.b);
}

function buildChart() {
  const players = index.players;
  const last = index.steps[index.steps.length - 1].scores;
  const range = scoreRange(index.steps);
  const summary = players.map((p, i) => `${p} ${scoreText(last[i])}`).join(", ");
  const s = svgEl("svg", { viewBox: `0 0 ${chart.w} ${chart.h}`, class: "score-chart",
    role: "img", "aria-label": `Scores over the game; at the end: ${summary}` });
  // axes and a few grid lines
  const ticks = 4;
  for (let i = 0; i <= ticks; i++) {
    const v = Math.round(range.low + ((range.top - range.low) * i) / ticks);
    const y = yOf(v, range);
    svgEl("line", { x1: chart.l, x2: chart.w - chart.r, y1: y, y2: y, stroke: "#d9d4c4",
      "stroke-width": 1 }, s);
    svgEl("text", { x: chart.l - 6, y, "text-anchor": "end", "dominant-baseline": "central",
      "font-size": 11, fill: "#555" }, s).textContent = String(v);
  }
  svgEl("text", { x: chart.w - chart.r, y: chart.h - 6, "text-anchor": "end", "font-size": 11,
    fill: "#555" }, s).textContent = `event ${index.count}`;
  svgEl("text", { x: chart.l, y: chart.h - 6, "font-size": 11, fill: "#555" }, s).textContent = "start";
  players.forEach((_, seat) => {
    const pts = index.steps.filter((st) => typeof st.scores[seat] === "number")
      .map((st) => `${xOf(st.n).toFixed(1)},${yOf(st.scores[seat], range).toFixed(1)}`).join(" ");
    svgEl("polyline", { points: pts, fill: "none", stroke: "#222", "stroke-width": 4.2,
      "stroke-linejoin": "round", "stroke-dasharray": DASHES[seat % 4] }, s);
    svgEl("polyline", { points: pts, fill: "none", stroke: colourOf(seat), "stroke-width": 2.4,
      "stroke-linejoin": "round", "stroke-dasharray": DASHES[seat % 4],
      class: `score-line seat-${seat}`, "data-seat": seat }, s);
  });
  svgEl("line", { class: "chart-cursor", x1: xOf(0), x2: xOf(0), y1: chart.t, y2: chart.h - chart.b,
    stroke: "#1a4fa0", "stroke-width": 2 }, s);
  s.addEventListener("click", (ev) => {
    const r = s.getBoundingClientRect();
    const x = ((ev.clientX - r.left) / r.width) * chart.w;
    const n = Math.round(((x - chart.l) / (chart.w - chart.l - chart.r)) * index.count);
    go(n);
  });
  els.chart.replaceChildren(s);
  els.legend.replaceChildren(...players.map((p, seat) => {
    const sample = svgEl("svg", { viewBox: "0 0 36 10", width: 36, height: 10, "aria-hidden": "true" });
    svgEl("line", { x1: 1, x2: 35, y1: 5, y2: 5, stroke: "#222", "stroke-width": 4.2,
      "stroke-dasharray": DASHES[seat % 4] }, sample);
    svgEl("line", { x1: 1, x2: 35, y1: 5, y2: 5, stroke: colourOf(seat), "stroke-width": 2.4,
      "stroke-dasharray": DASHES[seat % 4] }, sample);
    return h("li", { dataset: { seat: String(seat) } }, swatch(seat, players, "small"), " ",
      sample, " ", p, h("span", { class: "muted" }, " ", h("span", { class: "score-now" }),
        ` (${scoreText(last[seat])} at the end)`));
  }));
}

/** Each seat's score at the step shown, in the chart's legend. */
function showScoresNow(scores) {
  for (const item of els.legend.querySelectorAll("li[data-seat]")) {
    const now = item.querySelector(".score-now");
    if (now) now.textContent = `${scoreText((scores || [])[Number(item.dataset.seat)])} now`;
  }
}

function drawCursor(n) {
  const line = els.chart.querySelector(".chart-cursor");
  if (!line) return;
  line.setAttribute("x1", xOf(n));
  line.setAttribute("x2", xOf(n));
}

// ---------------------------------------------------------------------------
// controls

function wire() {
  for (const button of root.querySelectorAll("[data-go]")) {
    button.addEventListener("click", () => {
      const where = button.dataset.go;
      if (where === "first") go(0);
      else if (where === "back") go(current - 1);
      else if (where === "forward") go(current + 1);
      else if (where === "last") go(index.count);
    });
  }
  els.slider.addEventListener("input", () => go(Number(els.slider.value)));
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (t === els.slider) return; // the slider has its own keys
    // so has what the game's module draws (a board pans with the arrows)
    if (t instanceof Element && t !== els.stage && els.stage.contains(t)) return;
    if (t.closest && t.closest("input, textarea, select, [contenteditable]")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
    if (ev.key in moves) go(current + moves[ev.key]);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(index.count);
    else return;
    ev.preventDefault();
  });
}

async function loadModule() {
  const url = root.dataset.module;
  if (!url) return;
  const module = await import(url);
  if (typeof module.renderReplayStep !== "function") {
    throw new Error(`${url} exports no renderReplayStep`);
  }
  renderStep = module.renderReplayStep;
}

async function start() {
  try {
    [index] = await Promise.all([getJSON(stepsUrl), loadModule()]);
  } catch (err) {
    els.problem.textContent = `Could not load the replay: ${err.message}`;
    els.problem.hidden = false;
    return;
  }
  if (index.error) {
    els.problem.textContent = `The current engine refuses event ${index.error.event + 1} `
      + `(${index.error.code}: ${index.error.message}); the replay stops before it.`;
    els.problem.hidden = false;
  }
  els.slider.max = String(index.count);
  buildSteps();
  buildChart();
  wire();
  const fromHash = /^#step-(\d+)$/.exec(location.hash);
  // start at the end: the whole game is shown, and stepping back keeps that view
  await go(fromHash ? Number(fromHash[1]) : index.count);
  root.dataset.ready = "true";
}

start();
window.replayViewer = { go, get current() { return current; }, get shown() { return shown; } };
