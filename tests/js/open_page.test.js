// games/static/games/open_page.js: a game's page tells the site while it is in view
// on a device that takes push, at once when it is hidden, and nothing without one.

import assert from "node:assert/strict";
import test from "node:test";

import { DEVICE_KEY, deviceId, watchOpen } from "../../games/static/games/open_page.js";

function fakes(stored) {
  const listeners = {};
  const told = [];
  const timers = [];
  const doc = { hidden: false, querySelector: () => ({ content: "token" }),
    addEventListener: (name, call) => { listeners[name] = call; } };
  const win = { setInterval: (call, ms) => timers.push({ call, ms }) && timers.length,
    clearInterval: (id) => { timers[id - 1].cleared = true; },
    addEventListener: (name, call) => { listeners[name] = call; } };
  const storage = { getItem: (key) => (key === DEVICE_KEY ? stored : null) };
  const fetcher = async (url, options) => {
    told.push({ url, body: JSON.parse(options.body), csrf: options.headers["X-CSRFToken"],
      keepalive: options.keepalive });
  };
  return { listeners, told, timers, doc, win, storage, fetcher };
}

test("a page in view says so at once and every interval, and at once when hidden or left",
  () => {
    const f = fakes("7");
    const watching = watchOpen({ url: "/push/open/", gameId: 12, fetcher: f.fetcher, doc: f.doc,
      storage: f.storage, win: f.win, every: 20000 });
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
      storage: f.storage, win: f.win }), null);
    assert.deepEqual(f.told, []);
  }
  assert.equal(deviceId({ getItem: () => { throw new Error("refused"); } }), null);
  assert.equal(deviceId(undefined), null);
});
