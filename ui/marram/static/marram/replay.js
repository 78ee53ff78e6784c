// Marram's step of the replay viewer (games/static/games/replay.js, which loads
// this module from ui.GameUI.replay_module): the board at that step, the
// creatures, the points the step's event scored, the players' panels and the
// score log so far.
//
// renderReplayStep(container, step) draws into the viewer's #replay-stage the
// first time and updates what it drew afterwards, so that the board keeps the
// viewer's pan and zoom from step to step (until they fit it again).

import { renderBoard, wireZoomButtons } from "./board.js";
import { drawnView, loadDrawings } from "./drawings.js";
import { creatureLines, h, renderLog, renderPlayers, swatch } from "./panels.js";

const drawn = new WeakMap(); // container -> its elements and the board's state
const drawings = await loadDrawings();

function build(container) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.id = "replay-board";
  svg.setAttribute("class", "marram-board");
  svg.setAttribute("aria-label", "The board at this step. Drag to move it, wheel or pinch to zoom.");
  const tool = (id, label, text, extra = "") => h("button", {
    id, type: "button", class: `icon-button ${extra}`.trim(), "aria-label": label }, text);
  const els = {
    svg,
    creatures: h("ul", { id: "replay-creatures", class: "creatures-list", hidden: true }),
    // a finished game's replay shows the draw pile's order (the view's deck)
    deck: h("p", { id: "replay-deck", class: "small", hidden: true }),
    scored: h("ul", { id: "replay-scored", class: "scored" }),
    players: h("ol", { id: "replay-players", class: "players" }),
    log: h("ol", { id: "replay-log", class: "score-log" }),
  };
  container.replaceChildren(h("div", { class: "replay-layout" },
    h("section", { class: "board-area", "aria-label": "Board at this step" },
      svg,
      h("div", { class: "board-tools" },
        tool("replay-zoom-in", "Zoom in", "+"),
        tool("replay-zoom-out", "Zoom out", "−"),
        h("button", { id: "replay-zoom-fit", type: "button", class: "icon-button wide-icon" }, "Fit")),
      els.creatures, els.deck),
    h("div", { class: "replay-side" },
      h("section", { class: "card", "aria-labelledby": "replay-scored-heading" },
        h("h2", { id: "replay-scored-heading" }, "Points this step"), els.scored),
      h("section", { "aria-labelledby": "replay-players-heading" },
        h("h2", { id: "replay-players-heading" }, "Players"), els.players),
      h("section", { class: "card", "aria-labelledby": "replay-log-heading" },
        h("h2", { id: "replay-log-heading" }, "Score log so far"), els.log))));
  const mine = { els, board: null, userMoved: false };
  // the board follows the game until the viewer pans or zooms it
  const moved = () => {
    mine.userMoved = true;
  };
  svg.addEventListener("wheel", moved, { passive: true });
  svg.addEventListener("pointerdown", moved);
  svg.addEventListener("keydown", (ev) => {
    if (["+", "-", "=", "_", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(ev.key)) moved();
  });
  wireZoomButtons({ zoomIn: "replay-zoom-in", zoomOut: "replay-zoom-out", fit: "replay-zoom-fit" },
    () => mine.board, {
      onZoom: moved,
      onFit: () => {
        mine.userMoved = false;
      },
    });
  drawn.set(container, mine);
  return mine;
}

/** Where the step's event happened on the board, for the board to outline. */
function movedAt(event) {
  const payload = event && event.payload;
  return (payload && (payload.at || payload.to)) || null;
}

export function renderReplayStep(container, step) {
  const mine = drawn.get(container) || build(container);
  const { els } = mine;
  const view = drawnView(step.view, drawings);
  const players = view.players;
  mine.board = renderBoard(els.svg, { players, board: view.board, creatures: view.creatures },
    { lastMove: movedAt(step.event), fit: !mine.userMoved });
  // what this step's event scored: the log's entries for it (event = its seq)
  const scored = (view.log || []).filter((e) => e.event === step.at - 1);
  els.scored.replaceChildren(...scored.map((e) => h("li", {},
    swatch(e.seat, players, "small"), " ", h("strong", {}, players[e.seat]), ` +${e.points} `,
    h("span", { class: "feature" }, e.feature), e.unfinished ? " (unfinished, at the end)" : "")));
  if (!scored.length) els.scored.append(h("li", { class: "muted" }, "No points scored by this event."));
  renderPlayers(els.players, players, view);
  renderLog(els.log, view.log, players, { highlightEvent: step.at - 1 });
  const lines = creatureLines(view.creatures, players);
  els.creatures.replaceChildren(...lines.map((t) => h("li", {}, t)));
  els.creatures.hidden = !lines.length;
  const deck = Array.isArray(view.deck) ? view.deck : null;
  els.deck.hidden = !deck;
  els.deck.textContent = !deck ? ""
    : deck.length ? `The draw pile, next tile first (${deck.length}): ${deck.join(", ")}.`
      : "The draw pile is empty.";
}
