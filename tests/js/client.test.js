// Unit tests of the pure parts of the game page's generic client
// (games/static/games/client.js), run by node's own runner from the pytest suite
// (tests/scripts/test_javascript.py) and by `npm test`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createClient, newKey, outcome, submission } from "../../games/static/games/client.js";

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
