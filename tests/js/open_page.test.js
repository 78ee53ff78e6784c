// games/static/games/open_page.js: a game's page tells the site while it is in view
// on a device that takes push, at once when it is hidden, and nothing without one.

import assert from "node:assert/strict";
import test from "node:test";

import { DEVICE_KEY, OPEN_KEY, deviceId, repeatLeft, watchOpen }
  from "../../games/static/games/open_page.js";

function fakes(stored) {
  const listeners = {};
  const told = [];
  const timers = [];
  const doc = { hidden: false, querySelector: () => ({ content: "token" }),
    addEventListener: (name, call) => { listeners[name] = call; } };
  const win = { setInterval: (call, ms) => timers.push({ call, ms }) && timers.length,
    clearInterval: (id) => { timers[id - 1].cleared = true; },
    addEventListener: (name, call) => { listeners[name] = call; },
    location: { pathname: "/games/12/" } };
  const storage = { getItem: (key) => (key === DEVICE_KEY ? stored : null) };
  const session = sessionStore();
  const fetcher = async (url, options) => {
    told.push({ url, body: JSON.parse(options.body), csrf: options.headers["X-CSRFToken"],
      keepalive: options.keepalive });
  };
  return { listeners, told, timers, doc, win, storage, session, fetcher };
}

function sessionStore() {
  const kept = new Map();
  return { getItem: (key) => (kept.has(key) ? kept.get(key) : null),
    setItem: (key, value) => kept.set(key, String(value)), removeItem: (key) => kept.delete(key) };
}

test("a page in view says so at once and every interval, and at once when hidden or left",
  () => {
    const f = fakes("7");
    const watching = watchOpen({ url: "/push/open/", gameId: 12, fetcher: f.fetcher, doc: f.doc,
      storage: f.storage, session: f.session, win: f.win, every: 20000 });
    assert.equal(watching.device, 7);
    assert.deepEqual(f.told, [{ url: "/push/open/", body: { device: 7, game: 12, open: true },
      csrf: "token", keepalive: true }]);
    assert.equal(f.timers[0].ms, 20000);
    f.timers[0].call();
    assert.equal(f.told.length, 2);
    f.doc.hidden = true;
    f.listeners.visibilitychange();
    assert.equal(f.timers[0].cleared, true);
    assert.deepEqual(f.told.at(-1).body, { device: 7, game: 12, open: false });
    f.doc.hidden = false;
    f.listeners.visibilitychange();
    assert.deepEqual(f.told.at(-1).body.open, true);
    f.listeners.pagehide();
    assert.deepEqual(f.told.at(-1).body.open, false);
  });

test("a browser without a device, or a page without the address, says nothing", () => {
  for (const [stored, url] of [[null, "/push/open/"], ["7", ""], ["seven", "/push/open/"]]) {
    const f = fakes(stored);
    assert.equal(watchOpen({ url, gameId: 12, fetcher: f.fetcher, doc: f.doc,
      storage: f.storage, session: f.session, win: f.win }), null);
    assert.deepEqual(f.told, []);
    assert.equal(f.session.getItem(OPEN_KEY), null);
  }
  assert.equal(deviceId({ getItem: () => { throw new Error("refused"); } }), null);
  assert.equal(deviceId(undefined), null);
});

test("the next page the tab shows says again that the game's page was left, once", () => {
  const f = fakes("7");
  watchOpen({ url: "/push/open/", gameId: 12, fetcher: f.fetcher, doc: f.doc,
    storage: f.storage, session: f.session, win: f.win });
  f.listeners.pagehide(); // lost on its way, or not
  const next = fakes(null); // a page with no device of its own to tell of: /games/
  next.session.setItem(OPEN_KEY, f.session.getItem(OPEN_KEY));
  const told = { fetcher: next.fetcher, doc: next.doc, session: next.session };
  assert.equal(repeatLeft({ ...told, path: "/games/" }), true);
  assert.deepEqual(next.told, [{ url: "/push/open/", body: { device: 7, game: 12, open: false },
    csrf: "token", keepalive: true }]);
  assert.equal(repeatLeft({ ...told, path: "/settings/" }), false); // said once
  assert.equal(next.told.length, 1);
});

test("the game's page itself, loaded again, does not say it was left", () => {
  const f = fakes("7");
  watchOpen({ url: "/push/open/", gameId: 12, fetcher: f.fetcher, doc: f.doc,
    storage: f.storage, session: f.session, win: f.win });
  const before = f.told.length;
  assert.equal(repeatLeft({ fetcher: f.fetcher, doc: f.doc, session: f.session,
    path: "/games/12/" }), false);
  assert.equal(f.told.length, before);
  assert.notEqual(f.session.getItem(OPEN_KEY), null); // kept for the page after
});

test("nothing kept, something else kept, or no session storage: nothing is said", () => {
  for (const kept of [null, "not json", "5", JSON.stringify({ url: "https://elsewhere.example/",
    device: 7, game: 12, path: "/games/12/" }), JSON.stringify({ url: "//elsewhere.example/",
    device: 7, game: 12, path: "/games/12/" }), JSON.stringify({ url: "/push/open/",
    device: "7", game: 12, path: "/games/12/" })]) {
    const f = fakes(null);
    if (kept !== null) f.session.setItem(OPEN_KEY, kept);
    assert.equal(repeatLeft({ fetcher: f.fetcher, doc: f.doc, session: f.session,
      path: "/games/" }), false);
    assert.deepEqual(f.told, []);
  }
  const refused = { getItem: () => { throw new Error("refused"); } };
  assert.equal(repeatLeft({ fetcher: () => assert.fail("said"), doc: fakes(null).doc,
    session: refused, path: "/games/" }), false);
  const f = fakes("7"); // a game's page where session storage is refused: it still says
  watchOpen({ url: "/push/open/", gameId: 12, fetcher: f.fetcher, doc: f.doc,
    storage: f.storage, win: f.win,
    session: { setItem: () => { throw new Error("refused"); } } });
  assert.deepEqual(f.told.at(-1).body, { device: 7, game: 12, open: true });
});
