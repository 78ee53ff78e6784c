// A game's page tells the site while it is open and in view on a device that
// takes push: no push about this game goes to that device meanwhile
// (notifications/push.py, PAGE_OPEN_FOR). The device is the one the settings page
// turned push on for in this browser (its id kept under DEVICE_KEY); a browser
// without one says nothing. The page says so every EVERY milliseconds while in
// view, and at once when it is hidden or left, so that the next push is not held.

export const DEVICE_KEY = "marram-push-device";
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

/**
 * Keep telling ``url`` (POST {device, game, open}) whether the page of game
 * ``gameId`` is in view; null where there is nothing to tell (no url, no device).
 */
export function watchOpen({ url, gameId, fetcher = (...args) => fetch(...args), doc = document,
  storage = globalThis.localStorage, every = EVERY, win = globalThis }) {
  const device = deviceId(storage);
  if (!url || device === null || !Number.isInteger(gameId)) return null;
  const csrf = doc.querySelector('meta[name="csrf-token"]');
  let timer = null;
  const tell = (open) => {
    Promise.resolve(fetcher(url, { method: "POST", credentials: "same-origin", keepalive: true,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.content : "" },
      body: JSON.stringify({ device, game: gameId, open }) })).catch(() => {});
  };
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
