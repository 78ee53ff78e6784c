// Marram's clients for benchmarks/fair_bench.py: Node clients that play games
// prepared by the harness over Marram's HTTP API, each seat following its
// game on its seat's stream (server-sent events from the stream server), as
// a player's browser or app does. boardgame.io's side is played by
// benchmarks/peer/clients.js: the same client technology on both sides.
//
//     node benchmarks/peer/marram_clients.js CONFIG.json
//
// CONFIG.json: {"base": "http://127.0.0.1:PORT" (the web server),
//   "stream_base": "http://127.0.0.1:PORT" (the stream server),
//   "games": [{"id": n, "seats": [{"name": s, "token": s, "view": {...}}, ...]}, ...],
//   "target_events": n (a game is left once its seq reaches this),
//   "clients": n, "seconds": s, "limit": n (accepted moves in all, 0: none),
//   "connections": "shared" | "per_seat", "contended": bool, "seed": n}
//
// Set-up, not measured: every seat asks for its stream's address
// (GET /api/games/<id>/stream/) and opens the stream; once every stream is
// open (the stream server notes a seat as listening before it sends the
// stream's first line, "retry: 3000"), the clients print "ready" and wait for
// a line on stdin. Each seat's first view of its game comes in the config: the
// harness read it in the set-up (a GET of the game as that seat, by processes
// other than the web server measured), as boardgame.io's seats are sent theirs
// when they sync in theirs.
//
// Then each client plays its share of the games (games[i::clients]) in turn,
// one move at a time: a random legal action (seeded) from the view the moving
// seat last had, POST /api/games/<id>/actions/ with {seq, idempotency_key,
// action} as the seat (its DRF token). After the first views, a view comes
// from the mover's own answer (201, with its view) or from a seat's stream,
// which is sent the seat's view when a commit
// leaves it to move (a chance draw that follows a move is a commit of its
// own, by the server's task: the next player's view comes after the draw).
// A view can act when the game runs, it awaits that seat and lists legal
// actions for it; only a view at the seq of the last move's answer or later
// is used.
//
// Timed: the mover's round trip (the POST sent until its 201 answer), and
// "next player can act": from the POST sent until a view that can act, at the
// answer's seq or later, reached the next player (its arrival on that seat's
// stream; the answer itself when the mover moves again). A move that ends the
// game has no next player.
//
// Connections: "shared", one keep-alive agent per client for all its requests;
// "per_seat", one keep-alive agent per seat (separate browsers or phones).
// Each stream holds a connection of its own either way. "contended": every
// move is POSTed twice at once for the same seat from two connections (a
// player's two devices: in "per_seat" a second agent of the seat's, in
// "shared" a second socket of the client's agent), the same action from the
// same view, each with its own idempotency key. One 201 is the move; the
// other is expected to be refused with 409 "stale_seq" carrying the game's
// current seq (counted in refused_ok; every 409 is counted in refused and, by
// its code, in refused_codes: the duplicate of a game's last move is refused
// "game_finished"); anything else is counted in errors.
//
// Every wait is bounded: a game that has no view that can act 15 s after it
// was due counts a stall (its move has no "next player can act" time) and is
// read again by a GET as each of its seats; a game with three stalls in a row
// is left. A GET also settles a game whose
// seats' streams have all passed the last move with no seat to move there
// (the game ended, or the server awaits itself again).
//
// Prints ONE JSON line: moves, seconds, moves_per_s, move_p50_ms,
// move_p95_ms, next_p50_ms, next_p95_ms, next_n, refused, refused_ok,
// refused_codes, errors {"http_500": n, ...}, games_over, stalls, gets (GETs
// of a game while playing), reconnects (requests sent again on a fresh
// connection: the server had closed the idle one), dropped (games left after
// three stalls), client_cpu_s.
"use strict";

const crypto = require("node:crypto");
const fs = require("node:fs");
const http = require("node:http");

/** The longest any one wait lasts: a request's answer, a stream's first line,
 * a game's next view that can act. */
const WAIT_MS = 15000;

/** Stalls in a row after which a game is left. */
const STALLS_TO_DROP = 3;

/** The most rounds (a wait or a read) a game's turn takes before it is left. */
const TURN_ROUNDS = 10;

function debug(...args) {
  if (process.env.PEER_DEBUG) console.error(...args);
}

function percentile(values, p) {
  if (values.length === 0) return null;
  const ordered = [...values].sort((a, b) => a - b);
  const k = Math.min(ordered.length - 1, Math.max(0, Math.round((p / 100) * (ordered.length - 1))));
  return ordered[k];
}

/** A seeded random number generator (mulberry32): numbers in [0, 1). */
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const now = () => performance.now();

/** The figures every client adds to. */
const figures = {
  moves: 0,
  inFlight: 0,
  moveMs: [],
  nextMs: [],
  refused: 0,
  refusedOk: 0,
  refusedCodes: {},
  errors: {},
  stalls: 0,
  gets: 0,
  reconnects: 0,
};

function countError(kind) {
  figures.errors[kind] = (figures.errors[kind] || 0) + 1;
}

function keepAliveAgent() {
  return new http.Agent({ keepAlive: true, noDelay: true });
}

/** One HTTP request on `agent`; resolves {status, body (parsed JSON or null)},
 * or {status: 0, error} when no answer came (within WAIT_MS). A kept-alive
 * connection the server closed as it was reused (its idle timeout) is
 * replaced and the request sent once more (a move with the same idempotency
 * key: at most once either way). */
async function request(origin, agent, method, path, token, payload) {
  const result = await requestOnce(origin, agent, method, path, token, payload);
  if (result.status === 0 && result.reused && ["ECONNRESET", "EPIPE"].includes(result.error.code)) {
    figures.reconnects++;
    return requestOnce(origin, agent, method, path, token, payload);
  }
  return result;
}

function requestOnce(origin, agent, method, path, token, payload) {
  return new Promise((resolve) => {
    const body = payload === undefined ? null : Buffer.from(JSON.stringify(payload));
    const headers = { Accept: "application/json" };
    if (token) headers.Authorization = `Token ${token}`;
    if (body !== null) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = body.length;
    }
    const req = http.request({
      hostname: origin.hostname, port: origin.port, method, path, agent, headers,
    }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        let parsed = null;
        try {
          parsed = raw.length > 0 ? JSON.parse(raw) : null;
        } catch {
          parsed = null;
        }
        resolve({ status: res.statusCode, body: parsed });
      });
      res.on("error", (error) => resolve({ status: 0, error }));
    });
    req.setTimeout(WAIT_MS, () => req.destroy(new Error(`no answer in ${WAIT_MS} ms`)));
    req.on("error", (error) => resolve({ status: 0, error, reused: req.reusedSocket }));
    req.end(body);
  });
}

/** The seats a game awaits, from its `awaiting`: the one seat, the seats
 * awaited at once, or none (a chance draw, the end). */
function awaited(awaiting) {
  if (!awaiting) return [];
  if ("player" in awaiting) return [awaiting.player];
  return (awaiting.seats || []).map((task) => task.seat);
}

/** Whether the seat whose view this is may act on it. */
function canAct(view) {
  if (view.status !== "running" || !view.legal_actions || view.legal_actions.length === 0) {
    return false;
  }
  const projection = view.game && view.game.projection;
  return !projection || awaited(projection.awaiting).includes(view.you);
}

/** A seat's server-sent events, parsed as they come. */
class SeatStream {
  constructor(seat) {
    this.seat = seat;
    this.buffer = "";
    this.res = null;
    this.closed = false;
  }

  /** Opens the stream; resolves once its first line came (the seat listens). */
  open(streamOrigin, url) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error(`game ${this.seat.game.id}: no stream in ${WAIT_MS} ms`));
      }, WAIT_MS);
      const req = http.get({
        hostname: streamOrigin.hostname, port: streamOrigin.port, path: url, agent: false,
        headers: { Accept: "text/event-stream" },
      }, (res) => {
        if (res.statusCode !== 200) {
          clearTimeout(timer);
          res.resume();
          reject(new Error(`game ${this.seat.game.id}: the stream answered ${res.statusCode}`));
          return;
        }
        this.res = res;
        res.setEncoding("utf8");
        let first = true;
        res.on("data", (text) => {
          this.buffer += text;
          let end;
          while ((end = this.buffer.indexOf("\n\n")) >= 0) {
            const block = this.buffer.slice(0, end);
            this.buffer = this.buffer.slice(end + 2);
            if (first) {
              first = false;
              clearTimeout(timer);
              resolve(this);
            }
            this.received(block);
          }
        });
        res.on("close", () => {
          clearTimeout(timer);
          if (!this.closed) this.seat.streamLost();
        });
      });
      req.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** One event: its name (default "message") and data lines. */
  received(block) {
    let event = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("data:")) data.push(line.slice(line[5] === " " ? 6 : 5));
      else if (line.startsWith("event:")) event = line.slice(6).trim();
    }
    if (data.length === 0) return; // "retry:", a comment (the heartbeat)
    const at = now();
    if (event === "view") this.seat.viewCame(JSON.parse(data.join("\n")), at);
    else if (event === "message") this.seat.seqCame(Number(data[0]));
    else if (event === "end") debug("stream ended", this.seat.game.id, data[0]);
    // "panels" and "resync": nothing a player's move waits for
  }

  close() {
    this.closed = true;
    if (this.res) this.res.destroy();
  }
}

/** One seat of one game: its token, its connection(s), its stream and the
 * latest view it had. */
class Seat {
  constructor(game, name, token, agents) {
    this.game = game;
    this.name = name;
    this.token = token;
    this.agents = agents;
    this.stream = null;
    this.view = null;
    this.viewAt = 0;
    this.seqSeen = -1;
  }

  async openStream() {
    const { status, body } = await request(this.game.origin, this.agents[0], "GET",
      `/api/games/${this.game.id}/stream/`, this.token);
    if (status !== 200 || !body || !body.url) {
      throw new Error(`game ${this.game.id} seat ${this.name}: stream address ${status}`);
    }
    this.stream = await new SeatStream(this).open(this.game.streamOrigin, body.url);
  }

  /** The stream closed under the seat (its token's age, the server): open anew. */
  streamLost() {
    countError("stream_closed");
    this.openStream().catch((error) => {
      countError("stream_reopen_failed");
      debug("stream reopen", this.game.id, this.name, error.message);
    });
  }

  viewCame(view, at) {
    if (this.view === null || view.seq >= this.view.seq) {
      this.view = view;
      this.viewAt = at;
    }
    this.seqSeen = Math.max(this.seqSeen, view.seq);
    this.game.changed();
  }

  /** The view the seat had before the run (the set-up's). */
  holds(view) {
    this.view = view;
    this.seqSeen = view.seq;
  }

  seqCame(seq) {
    this.seqSeen = Math.max(this.seqSeen, seq);
    this.game.changed();
  }

  /** GET the game as this seat. */
  async read() {
    figures.gets++;
    const { status, body } = await request(this.game.origin, this.agents[0], "GET",
      `/api/games/${this.game.id}/`, this.token);
    if (status !== 200 || !body) {
      countError(status ? `http_${status}` : "network");
      return null;
    }
    this.viewCame(body, now());
    return body;
  }
}

/** One game: its seats, what the client knows of it and what it waits for. */
class Game {
  constructor(spec, origin, streamOrigin, agentFor) {
    this.id = spec.id;
    this.origin = origin;
    this.streamOrigin = streamOrigin;
    this.seats = spec.seats.map((s) => new Seat(this, s.name, s.token, agentFor(s)));
    this.bySeat = new Map(); // seat number -> Seat, from a view's players
    this.since = 0; // only a view at this seq or later is used (the last answer's)
    this.quietSeq = -1; // the seq at which the game was known to await no seat
    this.next = null; // {sent, seq}: a move whose next player has not yet been able to act
    this.waiter = null;
    this.over = false;
    this.stallsInRow = 0;
    spec.seats.forEach((s, i) => {
      if (!s.view) return;
      this.seats[i].holds(s.view);
      this.since = Math.max(this.since, s.view.seq);
      this.learnSeats(s.view);
      if (s.view.status !== "running") this.over = true;
    });
  }

  learnSeats(view) {
    if (this.bySeat.size > 0 || !view.game || !view.game.players) return;
    for (const player of view.game.players) {
      const seat = this.seats.find((s) => s.name === player.name);
      if (seat) this.bySeat.set(player.seat, seat);
    }
  }

  /** The views that can act, at `since` or later, each with its seat and the
   * time it came. */
  actableViews() {
    const found = [];
    for (const seat of this.seats) {
      const view = seat.view;
      if (view !== null && view.seq >= this.since && canAct(view)) {
        found.push({ seat, view, at: seat.viewAt });
      }
    }
    return found;
  }

  /** The freshest view that can act (the first seat's of those as fresh), or null. */
  actable() {
    return this.actableViews().reduce((best, f) => (best === null || f.view.seq > best.view.seq
      ? f : best), null);
  }

  /** Whether every seat's stream has passed the last known quiet point with no
   * seat to move there: the game has ended, or a GET must say what it awaits. */
  settled() {
    const floor = Math.max(this.since, this.quietSeq + 1);
    return this.seats.every((s) => s.seqSeen >= floor);
  }

  /** A stream or an answer brought something: time the next player, wake the turn. */
  changed() {
    if (this.next !== null) {
      // the first of the players who can act since the move, by when they could
      const first = this.actableViews().filter((f) => f.view.seq >= this.next.seq)
        .reduce((a, f) => Math.min(a, f.at), Infinity);
      if (first !== Infinity) {
        figures.nextMs.push(first - this.next.sent);
        this.next = null;
      }
    }
    for (const seat of this.seats) {
      if (seat.view !== null) this.learnSeats(seat.view);
      if (seat.view !== null && seat.view.status !== "running") this.over = true;
    }
    if (this.waiter !== null && (this.actable() !== null || this.over || this.settled())) {
      const { done, timer } = this.waiter;
      clearTimeout(timer);
      this.waiter = null;
      done(true);
    }
  }

  /** Resolves true when a view can act (or the game settled), false after `ms`. */
  wait(ms) {
    if (this.actable() !== null || this.over || this.settled()) return Promise.resolve(true);
    return new Promise((done) => {
      this.waiter = {
        done,
        timer: setTimeout(() => {
          this.waiter = null;
          done(false);
        }, ms),
      };
    });
  }

  /** GETs the game as each of its seats, the awaited first, until one can act. */
  async readAll() {
    const order = [...this.seats];
    const latest = this.seats.map((s) => s.view).filter((v) => v !== null)
      .sort((a, b) => b.seq - a.seq)[0];
    if (latest && latest.game && latest.game.projection) {
      const first = awaited(latest.game.projection.awaiting).map((n) => this.bySeat.get(n))
        .filter((s) => s !== undefined);
      order.sort((a, b) => Number(first.includes(b)) - Number(first.includes(a)));
    }
    for (const seat of order) {
      const view = await seat.read();
      if (view === null) continue;
      this.since = Math.max(this.since, view.seq);
      if (view.status !== "running") {
        this.over = true;
        return;
      }
      if (canAct(view)) return;
      const projection = view.game && view.game.projection;
      if (projection && awaited(projection.awaiting).length === 0) {
        this.quietSeq = Math.max(this.quietSeq, view.seq); // the server draws: wait for it
        return;
      }
    }
  }

  /** The view to move from, and its seat; null once the game is over or left,
   * or when the load ends (`deadline`, or `done()`) while the game waits. */
  async turn(deadline, done) {
    if (this.seats.every((s) => s.view === null)) await this.readAll();
    // each round waits (WAIT_MS at most) or reads the game: a few are plenty
    for (let rounds = 0; rounds < TURN_ROUNDS; rounds++) {
      if (this.over) return null;
      const found = this.actable();
      if (found !== null) {
        this.stallsInRow = 0;
        return found;
      }
      if (done()) return null;
      // (past the deadline by a little: a timer may fire a millisecond early)
      if (await this.wait(Math.min(WAIT_MS, Math.max(0, deadline - now()) + 20))) {
        if (this.actable() === null && !this.over) {
          debug("settled", this.id, this.since, this.quietSeq);
          await this.readAll();
        }
        continue;
      }
      if (done()) return null; // the load ended while the game waited: no stall
      figures.stalls++;
      this.stallsInRow++;
      this.next = null; // when the next player could have acted is not known
      debug("stall", this.id, this.since);
      if (this.stallsInRow >= STALLS_TO_DROP) {
        this.dropped = true;
        return null;
      }
      await this.readAll();
    }
    this.dropped = this.actable() === null;
    return this.actable();
  }

  /** A 201: the mover's view, the seq later views must reach, the next player. */
  accepted(seat, answer, sent, answered) {
    this.since = Math.max(this.since, answer.seq);
    if (awaited(answer.awaiting).length === 0) this.quietSeq = Math.max(this.quietSeq, answer.seq);
    this.next = answer.status === "running" ? { sent, seq: answer.seq } : null;
    if (answer.status !== "running") this.over = true;
    seat.viewCame(answer.view, answered);
  }

  close() {
    for (const seat of this.seats) if (seat.stream) seat.stream.close();
  }
}

/** A refusal that is the expected one: 409 stale_seq with the game's current
 * seq, past the seq the move was made at. */
function expectedRefusal(result, seq) {
  const body = result.body;
  return result.status === 409 && body !== null && body.code === "stale_seq" &&
    Number.isInteger(body.seq) && body.seq > seq;
}

/** One move of the game from `found` (its seat and view): the POST (twice at
 * once when contended), counted; resolves whether a move was accepted. */
async function move(game, found, random, contended) {
  const { seat, view } = found;
  const action = { ...view.legal_actions[Math.floor(random() * view.legal_actions.length)] };
  delete action.player;
  const path = `/api/games/${game.id}/actions/`;
  const post = (agent) => {
    const payload = {
      seq: view.seq, idempotency_key: crypto.randomUUID().replace(/-/g, ""), action,
    };
    return request(game.origin, agent, "POST", path, seat.token, payload)
      .then((result) => ({ ...result, at: now() }));
  };
  figures.inFlight++;
  const sent = now();
  const results = await Promise.all(contended
    ? [post(seat.agents[0]), post(seat.agents[1] || seat.agents[0])]
    : [post(seat.agents[0])]);
  figures.inFlight--;
  // 200: a request sent again after its connection was lost, answered as first
  const wins = results.filter((r) => r.status === 201 || r.status === 200);
  for (const result of results) {
    if (result.status === 201 || result.status === 200) continue;
    if (result.status === 409) {
      figures.refused++;
      const code = (result.body && result.body.code) || "none";
      figures.refusedCodes[code] = (figures.refusedCodes[code] || 0) + 1;
      if (expectedRefusal(result, view.seq)) figures.refusedOk++;
    } else {
      countError(result.status ? `http_${result.status}` : "network");
      debug("error", game.id, result.status, result.body, result.error && result.error.message);
    }
  }
  if (wins.length > 1) countError("double_accepted");
  figures.moves += wins.length;
  if (wins.length === 0) {
    await game.readAll(); // the move was not made: read the game anew
    return false;
  }
  const win = wins[0];
  figures.moveMs.push(win.at - sent);
  game.accepted(seat, win.body, sent, win.at);
  return true;
}

function readConfig() {
  const path = process.argv[2];
  if (!path) {
    console.error("usage: node benchmarks/peer/marram_clients.js CONFIG.json");
    process.exit(2);
  }
  const config = JSON.parse(fs.readFileSync(path, "utf8"));
  return {
    origin: new URL(config.base),
    streamOrigin: new URL(config.stream_base),
    games: config.games,
    target: config.target_events || Infinity,
    clients: Math.max(1, config.clients || 1),
    seconds: config.seconds,
    limit: config.limit || Infinity,
    perSeat: (config.connections || "shared") === "per_seat",
    contended: Boolean(config.contended),
    seed: config.seed || 0,
  };
}

/** The games, each client's agents, every seat's stream open. */
async function setUp(config) {
  const shares = Array.from({ length: config.clients }, () => []);
  for (let c = 0; c < config.clients; c++) {
    const shared = config.perSeat ? null : keepAliveAgent();
    const agentFor = () => {
      if (shared) return [shared];
      // a seat's device, and with contention a second one
      return config.contended ? [keepAliveAgent(), keepAliveAgent()] : [keepAliveAgent()];
    };
    for (let g = c; g < config.games.length; g += config.clients) {
      shares[c].push(new Game(config.games[g], config.origin, config.streamOrigin, agentFor));
    }
  }
  const games = shares.flat();
  // a few at a time: each stream's address is a request of the web server's
  const queue = games.flatMap((game) => game.seats);
  const opener = async () => {
    while (queue.length > 0) await queue.shift().openStream();
  };
  await Promise.all(Array.from({ length: 8 }, opener));
  return { shares, games };
}

async function main() {
  const config = readConfig();
  const { shares, games } = await setUp(config);
  process.stdout.write("ready\n");
  await new Promise((resolve) => {
    // stdin closed before the line: the harness is gone, and so are these clients
    const gone = () => process.exit(1);
    process.stdin.once("end", gone);
    process.stdin.once("data", () => {
      process.stdin.off("end", gone);
      resolve();
    });
  });

  const cpuBefore = process.cpuUsage();
  const started = now();
  const deadline = started + config.seconds * 1000;
  const done = () => now() >= deadline || figures.moves + figures.inFlight >= config.limit;

  async function client(mine, index) {
    const random = seededRandom(config.seed * 1000 + index);
    const live = [...mine];
    while (live.length > 0 && !done()) {
      for (const game of [...live]) {
        if (done()) break;
        const found = await game.turn(deadline, done);
        if (done()) break;
        if (found === null || found.view.seq >= config.target) {
          live.splice(live.indexOf(game), 1);
          continue;
        }
        await move(game, found, random, config.contended);
      }
    }
  }
  await Promise.all(shares.map(client));
  const elapsed = (now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  process.stdout.write(JSON.stringify({
    moves: figures.moves,
    seconds: elapsed,
    moves_per_s: figures.moves / elapsed,
    move_p50_ms: percentile(figures.moveMs, 50),
    move_p95_ms: percentile(figures.moveMs, 95),
    next_p50_ms: percentile(figures.nextMs, 50),
    next_p95_ms: percentile(figures.nextMs, 95),
    next_n: figures.nextMs.length,
    refused: figures.refused,
    refused_ok: figures.refusedOk,
    refused_codes: figures.refusedCodes,
    errors: figures.errors,
    games_over: games.filter((g) => g.over).length,
    stalls: figures.stalls,
    gets: figures.gets,
    reconnects: figures.reconnects,
    dropped: games.filter((g) => g.dropped).length,
    client_cpu_s: (cpu.user + cpu.system) / 1e6,
  }) + "\n", () => process.exit(0)); // the streams, still open, would keep Node running
  for (const game of games) game.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
