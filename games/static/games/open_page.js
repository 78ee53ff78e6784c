// A game's page tells the site while it is open and in view on a device that
// takes push: no push about this game goes to that device meanwhile
// (notifications/push.py, PAGE_OPEN_FOR). The device is the one the settings page
// turned push on for in this browser (its id kept under DEVICE_KEY); a browser
// without one says nothing. The page says so every EVERY milliseconds while in
// view, and at once when it is hidden or left, so that the next push is not held.
// What a page says as it is left can be lost with it; so the tab keeps the open
// page in its session storage (OPEN_KEY), and the next page it shows says again
// that it was left (repeatLeft, on every page: games/page_left.js).

export const DEVICE_KEY = "marram-push-device";
export const OPEN_KEY = "marram-open-page";
export const EVERY = 20000;

/** The device id this browser takes push for, or null. */
export function deviceId(storage = globalThis.localStorage) {
  try {
    const found = storage ? storage.getItem(DEVICE_KEY) : null;
    return found && /^[0-9]+$/.test(found) ? Number(found) : null;
  } catch (e) {
    return null; // storage refused (a private window's settings)
  }
}

/** POST {device, game, open} to ``url``, whatever comes of it. */
function say(fetcher, doc, url, device, game, open) {
  const csrf = doc.querySelector('meta[name="csrf-token"]');
  Promise.resolve(fetcher(url, { method: "POST", credentials: "same-origin", keepalive: true,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.content : "" },
    body: JSON.stringify({ device, game, open }) })).catch(() => {});
}

/**
 * Keep telling ``url`` (POST {device, game, open}) whether the page of game
 * ``gameId`` is in view; null where there is nothing to tell (no url, no device).
 * The tab's ``session`` storage keeps what repeatLeft needs on the next page.
 */
export function watchOpen({ url, gameId, fetcher = (...args) => fetch(...args), doc = document,
  storage = globalThis.localStorage, session, every = EVERY, win = globalThis }) {
  const device = deviceId(storage);
  if (!url || device === null || !Number.isInteger(gameId)) return null;
  try {
    (session || win.sessionStorage).setItem(OPEN_KEY, JSON.stringify({ url, device,
      game: gameId, path: win.location.pathname }));
  } catch (e) {
    // no session storage: the message sent as the page is left is all there is
  }
  let timer = null;
  const tell = (open) => say(fetcher, doc, url, device, gameId, open);
  const update = () => {
    if (timer !== null) win.clearInterval(timer);
    timer = null;
    if (doc.hidden) {
      tell(false);
      return;
    }
    tell(true);
    timer = win.setInterval(() => tell(true), every);
  };
  doc.addEventListener("visibilitychange", update);
  win.addEventListener("pagehide", () => tell(false));
  update();
  return { device, update };
}

/**
 * On every page: if the last page this tab showed was a game's page that said it
 * was open (watchOpen) and this page is another, say again that it was left, and
 * forget it. True if it was said.
 */
export function repeatLeft({ fetcher = (...args) => fetch(...args), doc = document, session,
  path = globalThis.location.pathname } = {}) {
  let kept;
  try {
    const store = session || globalThis.sessionStorage; // its very name may be refused
    kept = JSON.parse(store.getItem(OPEN_KEY) || "null");
    if (!kept || kept.path === path) return false;
    store.removeItem(OPEN_KEY);
  } catch (e) {
    return false; // no session storage, or not what watchOpen kept
  }
  const { url, device, game } = kept;
  if (typeof url !== "string" || !/^\/(?!\/)/.test(url) || !Number.isInteger(device)
      || !Number.isInteger(game)) return false;
  say(fetcher, doc, url, device, game, false);
  return true;
}
