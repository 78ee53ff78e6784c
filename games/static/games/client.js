// The generic client of the game page, for every game: the page's state, moves
// sent with an idempotency key (retried once with the same key), recovery from a
// stale seq, following other players' moves (server-sent events from the stream
// server where the page was given one, else polling), the parts of the page the
// server draws beside the game (its links, the end's rating changes and rematch,
// resigning, the fair-chance line, the chat: games/panels.py) read again when
// they change, the header's count of the games waiting for the player (as the
// server counts it with each state), the page's being open told to the site for
// push (games/open_page.js), and errors in words. A game's own module (its board
// and move UI) draws the state and calls submit.
//
// The pure parts (newKey, outcome, submission, applyChanges, showWaiting) are
// exported for the unit tests (tests/js/client.test.js).

import { watchOpen } from "./open_page.js";

/** A fresh idempotency key: a random UUID. */
export function newKey(crypto = globalThis.crypto) {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/**
 * What a refused submission means for the page: the words to show, and whether
 * to fetch the state again ("keep": keep the player's choices, the game moved on
 * under them; "fresh": start over; null: the state is still right).
 */
export function outcome(status, data) {
  const message = (data && (data.message || data.detail)) || "";
  if (status === 409 && data && data.code === "stale_seq") {
    return { reload: "keep",
      text: "The game moved on: refreshed. Check the board and make your move again." };
  }
  if (status === 409) return { reload: "fresh", text: `That cannot be done now: ${message}` };
  if (status === 400) return { reload: null, text: `That move is not allowed: ${message}` };
  if (status === 403) {
    return { reload: null, text: /csrf/i.test(message)
      ? "Your session has expired: reload the page and sign in again."
      : `You cannot do that: ${message}` };
  }
  return { reload: null,
    text: `Something went wrong (${status}): ${message || "please try again"}` };
}

/**
 * The body of a submission: the action after the seq the page has seen; with
 * ``changes``, the answer may carry the changes to the page's state instead of
 * the whole of it (live/changes.py).
 */
export function submission(seq, action, key, changes = false) {
  return JSON.stringify({ seq, idempotency_key: key, action, ...(changes ? { changes } : {}) });
}

/**
 * ``doc`` with a JSON Patch applied (RFC 6902's add, remove and replace, as
 * live/changes.py writes them): a new document, ``doc`` is left as it is.
 * Throws when the patch does not fit it.
 */
export function applyChanges(doc, ops) {
  let root = structuredClone(doc);
  for (const { op, path, value } of ops) {
    if (path === "") {
      if (op !== "replace") throw new Error(`cannot ${op} the whole document`);
      root = structuredClone(value);
      continue;
    }
    const parts = path.slice(1).split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    const last = parts.pop();
    let target = root;
    for (const part of parts) {
      target = Array.isArray(target) ? target[Number(part)] : target?.[part];
      if (target === null || typeof target !== "object") throw new Error(`no ${path}`);
    }
    if (Array.isArray(target)) {
      const at = Number(last);
      if (!Number.isInteger(at) || at < 0 || at > target.length - (op === "add" ? 0 : 1)) {
        throw new Error(`no ${path}`);
      }
      if (op === "add") target.splice(at, 0, structuredClone(value));
      else if (op === "remove") target.splice(at, 1);
      else if (op === "replace") target[at] = structuredClone(value);
      else throw new Error(`unknown operation ${op}`);
    } else if (op === "remove" || op === "replace") {
      if (!Object.hasOwn(target, last)) throw new Error(`no ${path}`);
      if (op === "remove") delete target[last];
      else target[last] = structuredClone(value);
    } else if (op === "add") {
      target[last] = structuredClone(value);
    } else {
      throw new Error(`unknown operation ${op}`);
    }
  }
  return root;
}

/**
 * The parts of a page that ``html`` (a document drawn by the server) brings, put
 * in place of the page's own: every element of it with an id and ``data-panel``
 * replaces the page's element of that id, if that one has ``data-panel`` too. A
 * part that comes with a newer ``data-latest`` than the one it replaces (a new
 * chat message) opens the ``<details>`` it sits in.
 */
export function replacePanels(doc, html, Parser = globalThis.DOMParser) {
  const drawn = new Parser().parseFromString(html, "text/html");
  for (const part of drawn.querySelectorAll("[data-panel][id]")) {
    const here = doc.getElementById(part.id);
    if (!here || !here.hasAttribute("data-panel")) continue;
    const news = Number(part.dataset.latest || 0) > Number(here.dataset.latest || 0);
    const fresh = doc.importNode(part, true);
    here.replaceWith(fresh);
    if (news) fresh.closest("details")?.setAttribute("open", "");
  }
}

/** ``holder``'s count badge (games/templates/games/base.html) showing ``count``, or
 * none for 0; ``title`` its tooltip, ``words`` what a screen reader hears after it. */
function setBadge(doc, holder, count, words, title = "") {
  let badge = holder.querySelector(".badge");
  if (!count) {
    if (badge) badge.remove();
    return;
  }
  if (!badge) {
    badge = doc.createElement("span");
    badge.className = "badge";
    if (!/\s$/.test(holder.textContent)) holder.append(" ");
    holder.append(badge);
  }
  if (title) badge.title = title;
  const hidden = doc.createElement("span");
  hidden.className = "visually-hidden";
  hidden.textContent = words;
  badge.replaceChildren(String(count), hidden);
}

/**
 * The header's count of the games waiting for the player (``count``, as the
 * server counted it with the page's latest state): on the "My games" link (its
 * address ``myGamesUrl``) and on the phone's Menu button. Nothing for a count the
 * page was not given.
 */
export function showWaiting(count, myGamesUrl, doc = document) {
  if (!Number.isInteger(count) || count < 0) return;
  const games = `${count} game${count === 1 ? "" : "s"}`;
  const link = [...doc.querySelectorAll(".site-header a")]
    .find((a) => a.getAttribute("href") === myGamesUrl);
  if (link) {
    setBadge(doc, link, count, " waiting for you",
      `${games} wait${count === 1 ? "s" : ""} for you`);
  }
  const toggle = doc.getElementById("nav-toggle");
  if (toggle) setBadge(doc, toggle, count, ` ${games} waiting for you`);
}

/**
 * Forms of the parts drawn beside the game marked ``data-in-place`` (the chat's)
 * are sent without leaving the page, so that nothing the player was doing on it
 * is lost: the form's own fields POSTed with ``Accept: application/json``, then
 * ``onDone()`` (the page reads its parts again) and the form emptied; a refusal's
 * message is shown in the form (``.error-text``, read out), and the form keeps
 * what was typed. Without script the form posts as a form does.
 */
export function sendInPlace(doc, { onDone, fetcher = (...args) => fetch(...args) }) {
  const say = (form, text) => {
    let box = form.querySelector(".in-place-error");
    if (!text) {
      box?.remove();
      return;
    }
    if (!box) {
      box = doc.createElement("p");
      box.className = "error-text in-place-error";
      box.setAttribute("role", "alert");
      form.append(box);
    }
    box.textContent = text;
  };
  doc.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form?.hasAttribute?.("data-in-place")) return;
    event.preventDefault();
    const button = form.querySelector('[type="submit"]');
    if (button) button.disabled = true;
    try {
      const resp = await fetcher(form.action, { method: "POST", body: new FormData(form),
        credentials: "same-origin", headers: { Accept: "application/json" } });
      const data = await resp.json().catch(() => ({}));
      if (!resp.ok) {
        const text = String(data.message || "it was not accepted");
        say(form, `${text[0].toUpperCase()}${text.slice(1)}.`);
        return;
      }
      say(form, "");
      form.reset();
      await onDone();
    } catch (e) {
      say(form, "Could not reach the server: check your connection and try again.");
    } finally {
      if (button) button.disabled = false;
    }
  });
}

/**
 * The client of one game page. ``root`` carries the URLs (data-state-url,
 * data-actions-url, data-events-url, data-poll-ms, data-panels-url with the
 * panels seq the page was drawn at, data-panels, and data-stream-url with
 * data-stream-renew-url, where a fresh one is had, when the site runs its stream
 * server: marram_site/stream.py); ``getPage`` gives the state
 * the page shows; ``onState(page, keep)`` takes a fresh one (``keep``: the game
 * moved on under the player's choices), ``onError(text)`` shows a problem ('' to
 * clear), ``onBusy(busy)`` while a move is on its way, ``onSent()`` after one went in,
 * ``onPanels(html)`` the parts of the page drawn beside the game, read again.
 */
export function createClient({ root, getPage, onState, onError = () => {}, onBusy = () => {},
  onSent = () => {}, onPanels = (html) => replacePanels(document, html),
  fetcher = (...args) => fetch(...args), EventSourceClass = globalThis.EventSource }) {
  const cfg = {
    stateUrl: root.dataset.stateUrl,
    actionsUrl: root.dataset.actionsUrl,
    eventsUrl: root.dataset.eventsUrl,
    pollMs: Number(root.dataset.pollMs || 3000),
    streamUrl: root.dataset.streamUrl || "",
    streamRenewUrl: root.dataset.streamRenewUrl || "",
    panelsUrl: root.dataset.panelsUrl || "",
    myGamesUrl: root.dataset.myGamesUrl || "",
    openUrl: root.dataset.openUrl || "",
  };
  const csrf = document.querySelector('meta[name="csrf-token"]');
  // the state as the server last gave it (the page's own may be drawn on): what
  // a move's answer gives the changes to
  let served = null;
  let busy = false;
  let polling = false;
  let timer = null;
  // the panels seq the page's parts drawn beside the game are at (games/panels.py);
  // one read of them at a time, and one more when they changed meanwhile
  let panels = Number(root.dataset.panels || 0);
  let panelsReading = false;
  let panelsAgain = false;

  const setBusy = (value) => {
    busy = value;
    onBusy(value);
  };

  async function readPanels() {
    if (!cfg.panelsUrl) return;
    if (panelsReading) {
      panelsAgain = true;
      return;
    }
    panelsReading = true;
    try {
      do {
        panelsAgain = false;
        const resp = await fetcher(cfg.panelsUrl, { credentials: "same-origin",
          cache: "no-store", headers: { Accept: "application/json" } });
        if (!resp.ok) break;
        const data = await resp.json();
        panels = Math.max(panels, data.panels);
        onPanels(data.html);
      } while (panelsAgain);
    } catch (e) {
      // the next poll, or the next change the stream tells, reads them again
    } finally {
      panelsReading = false;
    }
  }

  /** The live channel says the panels are at ``seq``: read them if the page's are older. */
  function panelsAt(seq) {
    if (Number.isInteger(seq) && seq > panels) readPanels();
  }

  function accept(page, keep) {
    const before = getPage()?.status;
    served = { seq: page.seq, state: structuredClone(page.state ?? null) };
    onState(page, keep);
    showWaiting(page.your_turn_count, cfg.myGamesUrl);
    // the game ended (or began) under the page: what is drawn beside it changed too
    if (before !== undefined && page.status !== before) readPanels();
  }

  // A view from the server whose state may come as the changes to the one the
  // page held (``base``): false when they do not fit it, and the page must read
  // the game instead.
  function acceptChanged(data, base, keep) {
    const changes = data.state_changes;
    const view = { ...data };
    delete view.state_changes;
    delete view.since;
    if (changes === undefined) {
      accept(view, keep);
      return true;
    }
    let state;
    try {
      state = applyChanges(base.state, changes);
    } catch (e) {
      return false;
    }
    accept({ ...view, state }, keep);
    return true;
  }

  async function reload(keep) {
    try {
      // "no-cache": the browser asks again with the ETag it has (a 304 when the
      // answer has not changed)
      const resp = await fetcher(cfg.stateUrl, { credentials: "same-origin", cache: "no-cache",
        headers: { Accept: "application/json" } });
      if (!resp.ok) throw new Error(String(resp.status));
      accept(await resp.json(), keep);
      return true;
    } catch (e) {
      onError("Could not load the game from the server; it will try again shortly.");
      return false;
    }
  }

  async function submit(action) {
    if (busy) return false;
    onError("");
    setBusy(true);
    const seq = getPage().seq;
    const base = served !== null && served.seq === seq && served.state !== null ? served : null;
    const body = submission(seq, action, newKey(), base !== null);
    let resp = null;
    // one retry with the same key if the network fails: the key makes it safe
    for (let attempt = 0; attempt < 2 && resp === null; attempt++) {
      try {
        resp = await fetcher(cfg.actionsUrl, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", Accept: "application/json",
            "X-CSRFToken": csrf ? csrf.content : "" },
          body,
        });
      } catch (e) {
        resp = null;
      }
    }
    if (resp === null) {
      setBusy(false);
      onError("Could not reach the server: check your connection and try again.");
      return false;
    }
    const data = await resp.json().catch(() => ({}));
    if (resp.ok) {
      // the game as the page now draws it: no GET follows
      if (!acceptChanged(data.view, base, false)) await reload(false);
      setBusy(false);
      onSent();
      return true;
    }
    const told = outcome(resp.status, data);
    if (told.reload) await reload(told.reload === "keep");
    setBusy(false);
    onError(told.text);
    return false;
  }

  // A finished game is polled too: its chat and rematch go on.
  async function poll() {
    const page = getPage();
    if (document.hidden || polling || busy) return;
    polling = true;
    try {
      const resp = await fetcher(`${cfg.eventsUrl}?since=${page.seq}`, {
        credentials: "same-origin", cache: "no-cache", headers: { Accept: "application/json" } });
      if (resp.ok) {
        const data = await resp.json();
        if (data.seq !== getPage().seq && !busy) await reload(true);
        panelsAt(data.panels);
      }
    } catch (e) {
      // the next poll tries again
    } finally {
      polling = false;
    }
  }

  async function catchUp() {
    if (document.hidden || polling || busy) return;
    polling = true;
    try {
      await reload(true);
    } finally {
      polling = false;
    }
  }

  function pollEvery() {
    if (timer) clearInterval(timer);
    timer = setInterval(poll, cfg.pollMs);
  }

  // The stream says each new seq of the game; the page reads the game when it is
  // past the page's. When the move is the player's, the stream sends the page's
  // new state itself ("view"): nothing to read. It says each new panels seq too
  // ("panels"), and the page reads its parts drawn beside the game when that is
  // past its own. On (re)connecting, and when the
  // server lost track ("resync"), one poll covers what was said while nobody
  // listened. A stream's address is good for a while and names the player's seat
  // only while they hold it: a stream that ends ("end": its address is too old,
  // or the seat changed hands) or is refused once it had been open (dropped, and
  // its address grew too old meanwhile) is followed again at a fresh address. A
  // stream refused before it opened (the server is full) leaves polling.
  function listen(url) {
    const source = new EventSourceClass(url);
    let opened = false;
    source.onopen = () => {
      opened = true;
      poll();
    };
    source.onmessage = (message) => {
      if (Number(message.data) > getPage().seq) catchUp();
    };
    // the view when the player is to move; its state may come as the changes since
    // the seq of the page's last view from the server (``since``)
    source.addEventListener("view", (message) => {
      const page = JSON.parse(message.data);
      if (page.seq <= getPage().seq || busy) return;
      const base = page.since !== undefined && served !== null && served.seq === page.since
        ? served : null;
      if (page.since !== undefined && base === null) catchUp();
      else if (!acceptChanged(page, base, true)) catchUp();
    });
    source.addEventListener("panels", (message) => panelsAt(Number(message.data)));
    source.addEventListener("resync", () => poll());
    source.addEventListener("end", () => {
      source.close();
      renew();
    });
    source.onerror = () => {
      if (source.readyState !== EventSourceClass.CLOSED) return;
      if (opened) renew();
      else pollEvery();
    };
    return source;
  }

  // A fresh address of the page's stream, listened to; polling when there is none
  // (the site runs no stream server) or it cannot be had.
  async function renew() {
    let url = null;
    if (cfg.streamRenewUrl) {
      try {
        const resp = await fetcher(cfg.streamRenewUrl, { credentials: "same-origin",
          cache: "no-store", headers: { Accept: "application/json" } });
        if (resp.ok) url = (await resp.json()).url;
      } catch (e) {
        url = null;
      }
    }
    if (url) listen(url);
    else pollEvery();
  }

  function startPolling() {
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) poll();
    });
    watchOpen({ url: cfg.openUrl, gameId: getPage()?.game?.id, fetcher });
    sendInPlace(document, { onDone: readPanels, fetcher });
    if (cfg.streamUrl && EventSourceClass) return listen(cfg.streamUrl);
    pollEvery();
    return null;
  }

  return { submit, reload, poll, startPolling, readPanels, isBusy: () => busy };
}
