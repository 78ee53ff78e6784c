// Unit tests of the pure parts of the game page's generic client
// (games/static/games/client.js), run by node's own runner from the pytest suite
// (tests/scripts/test_javascript.py) and by `npm test`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyChanges, createClient, newKey, outcome, replacePanels, submission }
  from "../../games/static/games/client.js";

test("a key is a version 4 UUID, even without crypto.randomUUID", () => {
  const bytes = { getRandomValues: (b) => b.fill(0xff) };
  const key = newKey(bytes);
  assert.match(key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(newKey({ randomUUID: () => "given" }), "given");
});

test("a stale seq reloads keeping the player's choices; another conflict starts over", () => {
  assert.deepEqual(outcome(409, { code: "stale_seq", message: "seq is 7" }).reload, "keep");
  const other = outcome(409, { code: "awaiting_chance", message: "waiting for chance" });
  assert.equal(other.reload, "fresh");
  assert.equal(other.text, "That cannot be done now: waiting for chance");
});

test("refusals keep the state and say why", () => {
  assert.deepEqual(outcome(400, { code: "occupied", message: "cell 4 is taken" }),
    { reload: null, text: "That move is not allowed: cell 4 is taken" });
  assert.equal(outcome(403, { detail: "CSRF Failed: token missing" }).text,
    "Your session has expired: reload the page and sign in again.");
  assert.equal(outcome(403, { message: "it is not your turn" }).text,
    "You cannot do that: it is not your turn");
  assert.equal(outcome(500, {}).text, "Something went wrong (500): please try again");
});

test("a submission carries the seq the page has seen and its key", () => {
  assert.deepEqual(JSON.parse(submission(7, { type: "mark", cell: 4 }, "k")),
    { seq: 7, idempotency_key: "k", action: { type: "mark", cell: 4 } });
  assert.deepEqual(JSON.parse(submission(7, { type: "pass" }, "k", true)),
    { seq: 7, idempotency_key: "k", action: { type: "pass" }, changes: true });
});

test("the changes a move's answer carries turn the state held into the new one", () => {
  const held = { board: [{ at: [0, 0], token: null }, { at: [2, 0], token: null }], left: 9,
    "a/b~": 1 };
  const ops = [
    { op: "add", path: "/board/1", value: { at: [1, 0], token: null } },
    { op: "replace", path: "/board/2/token", value: "ann" },
    { op: "replace", path: "/left", value: 8 },
    { op: "remove", path: "/a~1b~0" },
    { op: "add", path: "/over", value: false },
  ];
  assert.deepEqual(applyChanges(held, ops), {
    board: [{ at: [0, 0], token: null }, { at: [1, 0], token: null },
      { at: [2, 0], token: "ann" }], left: 8, over: false });
  assert.equal(held.board.length, 2); // the state held is left as it was
  assert.throws(() => applyChanges(held, [{ op: "remove", path: "/board/5" }]));
  assert.throws(() => applyChanges(held, [{ op: "replace", path: "/none", value: 1 }]));
  assert.throws(() => applyChanges(held, [{ op: "move", path: "/left", from: "/x" }]));
});

function fakePage() {
  globalThis.document = { querySelector: () => ({ content: "csrf" }), hidden: false,
    addEventListener: () => {} };
  return { dataset: { stateUrl: "/state", actionsUrl: "/actions", eventsUrl: "/events" } };
}

const answer = (status, data) => ({ ok: status < 300, status, json: async () => data });

test("a network failure is retried once with the same key, then the move goes in", async () => {
  const sent = [];
  let page = { seq: 3, status: "running" };
  const fetcher = async (url, options = {}) => {
    if (url === "/actions") {
      sent.push(JSON.parse(options.body).idempotency_key);
      if (sent.length === 1) throw new Error("offline");
      return answer(201, { seq: 4, view: { seq: 4, status: "running" } });
    }
    throw new Error(`no other request is needed: ${url}`);
  };
  const client = createClient({ root: fakePage(), getPage: () => page, fetcher,
    onState: (fresh) => { page = fresh; } });
  assert.equal(await client.submit({ type: "pass" }), true);
  assert.equal(sent.length, 2);
  assert.equal(sent[0], sent[1]);
  assert.equal(page.seq, 4);
});

test("once the page holds a state from the server, a move asks for the changes only", async () => {
  let page = { seq: 3, status: "running", state: { board: [1, 3] } };
  const reads = [structuredClone(page), { seq: 9, status: "running", state: { board: [] } }];
  const bodies = [];
  const fetcher = async (url, options = {}) => {
    if (url === "/state") return answer(200, reads.shift());
    bodies.push(JSON.parse(options.body));
    const [seq, at] = bodies.length === 1 ? [4, 1] : [9, 7];
    return answer(201, { seq, view: { seq, status: "running",
      state_changes: [{ op: "add", path: `/board/${at}`, value: seq }] } });
  };
  const client = createClient({ root: fakePage(), getPage: () => page, fetcher,
    onState: (fresh) => { page = fresh; } });
  await client.reload(false);
  page.state.board.push("drawn on by the page");
  assert.equal(await client.submit({ type: "pass" }), true);
  assert.equal(bodies[0].changes, true);
  assert.deepEqual(page, { seq: 4, status: "running", state: { board: [1, 4, 3] } });
  // changes that do not fit what the page holds: it reads the game instead
  assert.equal(await client.submit({ type: "pass" }), true);
  assert.deepEqual(page, { seq: 9, status: "running", state: { board: [] } });
  assert.equal(reads.length, 0);
});

test("a stale seq fetches the game again and tells the player", async () => {
  let page = { seq: 3, status: "running" };
  const said = [];
  const kept = [];
  const fetcher = async (url) => (url === "/actions"
    ? answer(409, { code: "stale_seq", message: "the game is at seq 5" })
    : answer(200, { seq: 5, status: "running" }));
  const client = createClient({ root: fakePage(), getPage: () => page, fetcher,
    onState: (fresh, keep) => { page = fresh; kept.push(keep); },
    onError: (text) => said.push(text) });
  assert.equal(await client.submit({ type: "pass" }), false);
  assert.equal(page.seq, 5);
  assert.deepEqual(kept, [true]);
  assert.match(said.at(-1), /The game moved on/);
  assert.equal(client.isBusy(), false);
});

/** An EventSource the test drives: what the page opened, and its handlers. */
class FakeSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static opened = [];

  constructor(url) {
    this.url = url;
    this.readyState = FakeSource.CONNECTING;
    this.listeners = {};
    FakeSource.opened.push(this);
  }

  addEventListener(name, handler) {
    this.listeners[name] = handler;
  }

  close() {
    this.readyState = FakeSource.CLOSED;
  }
}

function streamedPage(streamUrl) {
  const root = fakePage();
  root.dataset.streamUrl = streamUrl;
  return root;
}

test("with a stream the page reads the game only when the stream says it moved on", async () => {
  FakeSource.opened = [];
  const asked = [];
  let page = { seq: 5, status: "running" };
  const fetcher = async (url) => {
    asked.push(url);
    if (url === "/state") return answer(200, { seq: 7, status: "running" });
    if (url.startsWith("/events")) return answer(200, { seq: page.seq, events: [] });
    throw new Error(`unexpected ${url}`);
  };
  const states = [];
  const client = createClient({ root: streamedPage("/stream/games/1/events?t=x"),
    getPage: () => page, fetcher, EventSourceClass: FakeSource,
    onState: (fresh, keep) => { states.push([fresh.seq, keep]); page = fresh; } });
  const source = client.startPolling();
  assert.equal(FakeSource.opened.length, 1);
  assert.equal(source.url, "/stream/games/1/events?t=x");

  source.onopen(); // connected: one poll covers what happened before
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(asked, ["/events?since=5"]);
  source.onmessage({ data: "5" }); // the page's own seq: nothing to read
  source.onmessage({ data: "7" });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(asked, ["/events?since=5", "/state"]);
  assert.deepEqual(states, [[7, true]]);
  source.listeners.resync(); // the server lost track: ask once
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(asked, ["/events?since=5", "/state", "/events?since=7"]);
});

test("a view sent by the stream is drawn as it is, with no read of the game", async () => {
  FakeSource.opened = [];
  const asked = [];
  let page = { seq: 5, status: "running" };
  const fetcher = async (url) => {
    asked.push(url);
    return answer(200, { seq: page.seq, events: [] });
  };
  const states = [];
  const client = createClient({ root: streamedPage("/stream/games/1/events?t=x"),
    getPage: () => page, fetcher, EventSourceClass: FakeSource,
    onState: (fresh, keep) => { states.push([fresh.seq, fresh.legal_actions, keep]); page = fresh; } });
  const source = client.startPolling();
  source.listeners.view({ data: JSON.stringify({ seq: 6, status: "running", legal_actions: ["a"] }) });
  source.listeners.view({ data: JSON.stringify({ seq: 6, status: "running", legal_actions: [] }) });
  source.listeners.view({ data: JSON.stringify({ seq: 4, status: "running", legal_actions: [] }) });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(states, [[6, ["a"], true]]); // older or the same seq: left alone
  assert.deepEqual(asked, []);
});

test("a view sent as the changes since the page's view is drawn if it holds that one", async () => {
  FakeSource.opened = [];
  const asked = [];
  let page = { seq: 4, status: "running", state: { board: [] } };
  const fetcher = async (url) => {
    asked.push(url);
    if (url === "/state") return answer(200, { seq: 9, status: "running", state: { board: [] } });
    return answer(200, { seq: page.seq, events: [] });
  };
  const client = createClient({ root: streamedPage("/stream/games/1/events?t=x"),
    getPage: () => page, fetcher, EventSourceClass: FakeSource,
    onState: (fresh) => { page = fresh; } });
  const source = client.startPolling();
  source.listeners.view({ data: JSON.stringify({ seq: 5, status: "running", state: { board: [1] } }) });
  source.listeners.view({ data: JSON.stringify({ seq: 7, since: 5, status: "running",
    state_changes: [{ op: "add", path: "/board/1", value: 2 }] }) });
  assert.deepEqual(page, { seq: 7, status: "running", state: { board: [1, 2] } });
  assert.deepEqual(asked, []);
  // changes since a view the page does not hold: it reads the game
  source.listeners.view({ data: JSON.stringify({ seq: 9, since: 8, status: "running",
    state_changes: [{ op: "remove", path: "/board/0" }] }) });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(asked, ["/state"]);
  assert.deepEqual(page, { seq: 9, status: "running", state: { board: [] } });
});

test("a stream refused for good falls back to polling; a dropped one reconnects", () => {
  FakeSource.opened = [];
  const intervals = [];
  const realSetInterval = globalThis.setInterval;
  globalThis.setInterval = (fn, ms) => { intervals.push(ms); return intervals.length; };
  try {
    const root = streamedPage("/stream/games/1/events?t=x");
    root.dataset.pollMs = "3000";
    const client = createClient({ root, getPage: () => ({ seq: 1, status: "running" }),
      fetcher: async () => answer(200, { seq: 1 }), EventSourceClass: FakeSource,
      onState: () => {} });
    const source = client.startPolling();
    source.readyState = FakeSource.CONNECTING; // dropped: the browser tries again
    source.onerror();
    assert.deepEqual(intervals, []);
    source.readyState = FakeSource.CLOSED; // a 503 or a 403: for good
    source.onerror();
    assert.deepEqual(intervals, [3000]);
  } finally {
    globalThis.setInterval = realSetInterval;
  }
});

test("a stream that ends, or is refused once it was open, is followed at a fresh address",
  async () => {
    FakeSource.opened = [];
    const intervals = [];
    const realSetInterval = globalThis.setInterval;
    globalThis.setInterval = (fn, ms) => { intervals.push(ms); return intervals.length; };
    try {
      const root = streamedPage("/stream/games/1/events?t=seat");
      root.dataset.streamRenewUrl = "/games/1/stream.json";
      const fresh = ["/stream/games/1/events?t=public", "/stream/games/1/events?t=again", null];
      const asked = [];
      const fetcher = async (url) => {
        asked.push(url);
        if (url === "/games/1/stream.json") return answer(200, { url: fresh.shift() });
        return answer(200, { seq: 1, events: [] });
      };
      const client = createClient({ root, getPage: () => ({ seq: 1, status: "running" }),
        fetcher, EventSourceClass: FakeSource, onState: () => {} });
      const first = client.startPolling();
      first.onopen();
      // the seat changed hands: the stream ends, and the page listens at a fresh address
      first.listeners.end({ data: "seat" });
      await new Promise((resolve) => setTimeout(resolve, 0));
      assert.equal(first.readyState, FakeSource.CLOSED);
      assert.deepEqual(FakeSource.opened.map((s) => s.url), ["/stream/games/1/events?t=seat",
        "/stream/games/1/events?t=public"]);
      // dropped, and refused on reconnecting (its address grew too old): a fresh one
      const second = FakeSource.opened[1];
      second.onopen();
      second.readyState = FakeSource.CLOSED;
      second.onerror();
      await new Promise((resolve) => setTimeout(resolve, 0));
      assert.equal(FakeSource.opened.length, 3);
      // refused before it ever opened (a full server): polling, no new address
      const third = FakeSource.opened[2];
      third.readyState = FakeSource.CLOSED;
      third.onerror();
      assert.deepEqual(intervals, [3000]);
      assert.equal(asked.filter((u) => u === "/games/1/stream.json").length, 2);
      // no address to be had (the game is over): polling
      const last = createClient({ root, getPage: () => ({ seq: 1, status: "running" }),
        fetcher, EventSourceClass: FakeSource, onState: () => {} }).startPolling();
      last.onopen();
      last.listeners.end({ data: "expired" });
      await new Promise((resolve) => setTimeout(resolve, 0));
      assert.deepEqual(intervals, [3000, 3000]);
    } finally {
      globalThis.setInterval = realSetInterval;
    }
  });

test("without a stream, or without EventSource, the page polls", () => {
  FakeSource.opened = [];
  const intervals = [];
  const realSetInterval = globalThis.setInterval;
  globalThis.setInterval = (fn, ms) => { intervals.push(ms); return intervals.length; };
  try {
    const page = () => ({ seq: 1, status: "running" });
    createClient({ root: fakePage(), getPage: page, EventSourceClass: FakeSource,
      onState: () => {} }).startPolling();
    createClient({ root: streamedPage("/s"), getPage: page, EventSourceClass: null,
      onState: () => {} }).startPolling();
    assert.deepEqual(intervals, [3000, 3000]);
    assert.equal(FakeSource.opened.length, 0);
  } finally {
    globalThis.setInterval = realSetInterval;
  }
});

test("the parts drawn beside the game are read when the poll says they changed, or the game ended",
  async () => {
    const root = fakePage();
    root.dataset.panelsUrl = "/panels";
    root.dataset.panels = "2";
    const asked = [];
    let panels = 2;
    let page = { seq: 5, status: "running" };
    const fetcher = async (url) => {
      asked.push(url);
      if (url === "/panels") return answer(200, { panels, html: `<p>${panels}</p>` });
      if (url === "/state") return answer(200, { seq: 6, status: "finished" });
      return answer(200, { seq: page.seq, panels, events: [] });
    };
    const drawn = [];
    const client = createClient({ root, getPage: () => page, fetcher,
      onState: (fresh) => { page = fresh; }, onPanels: (html) => drawn.push(html) });
    await client.poll(); // the page's own: nothing to read
    assert.deepEqual(asked, ["/events?since=5"]);
    panels = 3; // a chat message
    await client.poll();
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(asked.slice(1), ["/events?since=5", "/panels"]);
    assert.deepEqual(drawn, ["<p>3</p>"]);
    await client.poll();
    assert.equal(asked.filter((u) => u === "/panels").length, 1);
    // the game ends under the page: its links, the rematch, the seed are read with it
    await client.reload(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(asked.slice(-2), ["/state", "/panels"]);
    // a finished game is still polled: its chat and rematch go on
    await client.poll();
    assert.equal(asked.at(-1), "/events?since=6");
  });

test("the stream's panels seq past the page's reads them once, a change meanwhile once more",
  async () => {
    FakeSource.opened = [];
    const root = streamedPage("/stream/games/1/events?t=x");
    root.dataset.panelsUrl = "/panels";
    const asked = [];
    let release;
    const fetcher = async (url) => {
      asked.push(url);
      if (url === "/panels") {
        await new Promise((resolve) => { release = resolve; });
        return answer(200, { panels: 2, html: "" });
      }
      return answer(200, { seq: 1, events: [] });
    };
    const client = createClient({ root, getPage: () => ({ seq: 1, status: "finished" }),
      fetcher, EventSourceClass: FakeSource, onState: () => {}, onPanels: () => {} });
    const source = client.startPolling();
    source.listeners.panels({ data: "0" }); // the page's own
    assert.deepEqual(asked, []);
    source.listeners.panels({ data: "1" });
    source.listeners.panels({ data: "2" }); // while the first read is on its way
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(asked, ["/panels"]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(asked, ["/panels", "/panels"]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    source.listeners.panels({ data: "2" }); // what the page now holds
    assert.equal(asked.length, 2);
  });

test("the parts drawn beside the game replace the page's own, and news opens their details",
  () => {
    const element = (id, attrs = {}, latest = undefined) => ({
      id, replaced: null, opened: false,
      dataset: latest === undefined ? {} : { latest },
      hasAttribute: (name) => name in attrs,
      replaceWith(other) { this.replaced = other; },
      closest() { const el = this; return { setAttribute: () => { el.opened = true; } }; },
    });
    const page = {
      "chat-messages": element("chat-messages", { "data-panel": "" }, "4"),
      fairness: element("fairness", { "data-panel": "" }),
      board: element("board"),
    };
    const drawn = [element("chat-messages", {}, "5"), element("fairness"), element("board"),
      element("elsewhere")];
    const doc = { getElementById: (id) => page[id] ?? null, importNode: (node) => node };
    class Parser {
      parseFromString(html, type) {
        assert.equal(type, "text/html");
        return { querySelectorAll: () => drawn };
      }
    }
    replacePanels(doc, "<p>parts</p>", Parser);
    assert.equal(page["chat-messages"].replaced, drawn[0]);
    assert.equal(drawn[0].opened, true); // a new message
    assert.equal(page.fairness.replaced, drawn[1]);
    assert.equal(drawn[1].opened, false);
    assert.equal(page.board.replaced, null); // not a part the server draws again
  });
