// Small pieces every page's script may use, whatever the game: h() to make
// elements, and each seat's colour and letter (the same as panels.css's
// .swatch.seat-N and the boards' tokens). A plain ES module, no build step.

/** Each seat's colour (seat 0..3, then round again). */
export const SEAT_COLOURS = ["#d7263d", "#f5c518", "#7b3fbf", "#f4f4f4"];

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
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

/** seat -> its letter: the players' initials when they differ, else 1, 2, 3... */
export function seatLetters(players) {
  const names = players || [];
  const initials = names.map((n) => String(n || "?").trim().charAt(0).toUpperCase() || "?");
  const unique = new Set(initials).size === initials.length;
  return (seat) => (unique && initials[seat] ? initials[seat] : String(seat + 1));
}

/** Whether dark text reads better than white on this colour. */
export function isLight(hex) {
  const v = parseInt(String(hex).replace("#", ""), 16);
  const [r, g, b] = [(v >> 16) & 255, (v >> 8) & 255, v & 255].map((c) => c / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55;
}

/** A seat's colour with its letter on it: never colour alone. */
export function swatch(seat, players, extraClass = "") {
  const colour = colourOf(seat);
  return h("span", {
    class: `swatch ${extraClass}`.trim(),
    style: { background: colour, color: isLight(colour) ? "#111" : "#fff" },
    "aria-hidden": "true",
  }, seatLetters(players)(seat));
}
