// boardgame.io's clients for benchmarks/compare_bench.py and
// benchmarks/fair_bench.py: N clients play the placement game
// (benchmarks/peer/game.js) against benchmarks/peer/server.js over socket.io.
// Marram's side is played by benchmarks/peer/marram_clients.js: the same
// client technology on both sides.
//
//     node benchmarks/peer/clients.js CONFIG.json
//
// CONFIG.json: {"base": "http://127.0.0.1:PORT" (or "bases": [...], one per
//   server shard: match i is made and played on shard i % len(bases)),
//   "games": n (matches, made here through the lobby API), "tiles": n (each
//   match's length, its setupData; 100 unless given), "clients": n,
//   "seconds": s, "limit": n (moves in all, 0: none), "connections": "shared" |
//   "per_seat", "contended": bool, "seed": n, "moves_before": n (each match
//   played this many moves on in the set-up, not measured; 0 unless given)}
//
// Set-up, not measured: creates the matches through the lobby API, joins
// both seats, and connects one socket.io socket a seat, synced as its player
// (as two browsers would). boardgame.io's transport is one socket a seat
// whatever "connections" says: "shared" and "per_seat" play alike here. With
// "contended" each seat has a second device: a socket of its own, connected
// but not synced (it sends moves and is sent nothing, as Marram's second
// device POSTs without a stream). Then prints "ready" and waits for a line on
// stdin.
//
// Each client plays its share of the matches (match i goes to client
// i % clients) in turn, one move at a time, as Marram's clients do: a random
// legal placement from the state the server last sent to the mover's socket
// (G.legal), emitted on that socket. Timed: the mover's round trip (from that
// emit until the mover's socket receives the server's update of the match),
// and "next player can act" (from the emit until the next player's socket
// receives the state with that player to move; a move that ends the match has
// no next player).
//
// "contended": each move is emitted at once on the seat's two sockets, the
// same action with the same stateID. The server handles one match's emits one
// at a time (a queue per match, boardgame.io's socket.io transport); the
// first is the move, and the other then finds the turn passed (or the state
// moved on, or the match over) and is dropped: boardgame.io logs it on the
// server and answers nothing. The duplicate counts as refused once the
// match's next update is another move made at the state it would have
// changed, or when no update of it came within DUPLICATE_WAIT_MS after the
// load (the last moves); an update that shows it made counts in
// errors.double_accepted.
//
// It stops when every match is over, after "seconds", or after "limit" moves
// (all clients together). Prints the figures as one JSON line: moves, seconds,
// moves_per_s, move_p50_ms, move_p95_ms, next_p50_ms, next_p95_ms, next_n,
// refused, refused_ok, errors, games_over, stalls, dropped,
// tiles_placed_mean, client_cpu_s.
"use strict";

const fs = require("node:fs");
const { io } = require("socket.io-client");

const GAME = "placement";

// The longest the set-up waits for one answer of the server (a lobby request,
// a seat's first sync) before it fails, naming the request
const SETUP_WAIT_MS = 15000;

// Matches set up at once
const SETUP_AT_ONCE = 8;

// After the load, the longest wait for an update of a duplicate emit not yet
// judged (one that was made would be sent to the match's sockets at once)
const DUPLICATE_WAIT_MS = 1000;

function debug(...args) {
  if (process.env.PEER_DEBUG) console.error(...args);
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
  errors: {},
  stalls: 0,
};

function countError(kind) {
  figures.errors[kind] = (figures.errors[kind] || 0) + 1;
}

async function post(base, path, body) {
  let response;
  try {
    response = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(SETUP_WAIT_MS),
    });
  } catch (error) {
    throw new Error(`POST ${path}: no answer (${error.name}: ${error.message})`);
  }
  if (!response.ok) throw new Error(`POST ${path}: ${response.status}`);
  return response.json();
}

/** Resolves once the socket is connected (not synced: it is sent nothing). */
function connectDevice(base) {
  return new Promise((resolve, reject) => {
    const socket = io(`${base}/${GAME}`, { transports: ["websocket"], forceNew: true });
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`a second device: no connection in ${SETUP_WAIT_MS} ms`));
    }, SETUP_WAIT_MS);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once("connect_error", (error) => {
      clearTimeout(timer);
      reject(new Error(`a second device: ${error.message}`));
    });
  });
}

/** One seat of one match: its socket, credentials, and the last state it received. */
function connectSeat(base, match, playerID, credentials) {
  return new Promise((resolve, reject) => {
    const socket = io(`${base}/${GAME}`, { transports: ["websocket"], forceNew: true });
    const { matchID } = match;
    const seat = { socket, matchID, playerID, credentials, state: null, waiting: null, device: null };
    const received = (state, log) => {
      if (seat.state === null || state._stateID >= seat.state._stateID) seat.state = state;
      if (log) updated(match, seat, state, log, now());
      if (seat.waiting && seat.state._stateID >= seat.waiting.stateID) {
        const { done, timer } = seat.waiting;
        clearTimeout(timer);
        seat.waiting = null;
        done();
      }
    };
    // boardgame.io answers a sync whose credentials it does not accept with
    // nothing at all: a seat that has not synced in SETUP_WAIT_MS fails loudly
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error(`match ${matchID} seat ${playerID}: no sync in ${SETUP_WAIT_MS} ms`
        + ` (connected: ${socket.connected})`));
    }, SETUP_WAIT_MS);
    socket.on("sync", (id, info) => {
      clearTimeout(timer);
      received(info.state, null);
      resolve(seat);
    });
    socket.on("update", (id, state, log) => received(state, log));
    socket.on("connect_error", (error) => {
      clearTimeout(timer);
      reject(new Error(`match ${matchID} seat ${playerID}: ${error.message}`));
    });
    socket.on("connect", () => socket.emit("sync", matchID, playerID, credentials, 2));
  });
}

/** A seat's socket received an update of its match: the next player's time,
 * and what became of a duplicate emit. */
function updated(match, seat, state, log, at) {
  const next = match.next;
  if (next !== null && state._stateID >= next.stateID && state.ctx.gameover === undefined &&
      state.ctx.currentPlayer === seat.playerID) {
    figures.nextMs.push(at - next.sent);
    match.next = null;
  }
  const duplicate = match.duplicate;
  if (duplicate === null || state._stateID <= duplicate.stateID) return;
  // the move made at the state the duplicate would have changed: its own, or another's
  const made = log.find((entry) => entry._stateID === duplicate.stateID &&
    entry.action && entry.action.type === "MAKE_MOVE");
  if (made === undefined) return;
  match.duplicate = null;
  if (made.action.payload.playerID === duplicate.mover) {
    countError("double_accepted");
  } else {
    figures.refused++;
    figures.refusedOk++;
  }
}

async function setUpMatch(base, g, tiles, contended) {
  const body = { numPlayers: 2 };
  if (tiles !== undefined) body.setupData = { tiles };
  const { matchID } = await post(base, `/games/${GAME}/create`, body);
  // Both seats join before either connects. boardgame.io's server answers a
  // seat's sync first and only then records the seat as connected (a read of
  // the match's metadata, then a write of all of it, not awaited by the sync);
  // a lobby join of the other seat in between is overwritten by that write,
  // its credentials lost, and its seat's sync then goes unanswered for good.
  const credentials = [];
  for (const playerID of ["0", "1"]) {
    const { playerCredentials } = await post(base, `/games/${GAME}/${matchID}/join`,
      { playerID, playerName: `bench${g}-${playerID}` });
    credentials.push(playerCredentials);
  }
  const match = { matchID, seats: [], next: null, duplicate: null, failures: 0 };
  for (const playerID of ["0", "1"]) {
    const seat = await connectSeat(base, match, playerID, credentials[Number(playerID)]);
    if (contended) seat.device = await connectDevice(base);
    match.seats.push(seat);
  }
  debug("set up", g, matchID);
  return match;
}

async function setUp(config) {
  const matches = new Array(config.games);
  let next = 0;
  const worker = async () => {
    while (next < config.games) {
      const g = next++;
      matches[g] = await setUpMatch(config.bases[g % config.bases.length], g, config.tiles,
        config.contended);
    }
  };
  await Promise.all(Array.from({ length: SETUP_AT_ONCE }, worker));
  return matches;
}

/** Set-up, not measured: every match played `moves` moves on before the run (a
 * cold touch of a long match), as many matches at once as are set up at once;
 * their figures are then cleared. */
async function playOn(matches, moves) {
  if (!moves) return;
  let next = 0;
  const worker = async () => {
    while (next < matches.length) {
      const match = matches[next++];
      for (let made = 0; made < moves;) {
        const ms = await move(match, false);
        if (ms === null) throw new Error(`match ${match.matchID}: over before the run`);
        if (ms !== undefined) made++;
      }
    }
  };
  await Promise.all(Array.from({ length: SETUP_AT_ONCE }, worker));
  for (const match of matches) match.next = null;
  Object.assign(figures, { moves: 0, moveMs: [], nextMs: [], errors: {}, stalls: 0 });
}

function percentile(values, p) {
  if (values.length === 0) return null;
  const ordered = [...values].sort((a, b) => a - b);
  const k = Math.min(ordered.length - 1, Math.max(0, Math.round((p / 100) * (ordered.length - 1))));
  return ordered[k];
}

let seed = 12345;
function random() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

/** Resolves true once the seat has received the state `stateID` (or a later
 * one). Now and then an update does not come (a move the server dropped
 * without a word, or a socket it had not yet added to the match's room): after
 * 5 s the seat syncs again, the stall is counted, and the promise resolves
 * false if the state has still not come, so that the caller moves anew. */
function reached(seat, stateID) {
  if (seat.state._stateID >= stateID) return Promise.resolve(true);
  return new Promise((done) => {
    const resync = () => {
      figures.stalls++;
      debug("stall", seat.matchID, seat.playerID, stateID, seat.state._stateID);
      seat.waiting.done = () => done(true);
      seat.socket.emit("sync", seat.matchID, seat.playerID, seat.credentials, 2);
      seat.waiting.timer = setTimeout(() => {
        seat.waiting = null;
        done(false);
      }, 2000);
    };
    seat.waiting = { stateID, done: () => done(true), timer: setTimeout(resync, 5000) };
  });
}

/** Make one move in the match, and count it; resolves with the round trip in
 * ms, null once the match is over, undefined when the move did not come back. */
async function move(match, contended) {
  const latest = match.seats.reduce((a, b) => (b.state._stateID > a.state._stateID ? b : a)).state;
  if (latest.ctx.gameover !== undefined) return null;
  const seat = match.seats[Number(latest.ctx.currentPlayer)];
  // the mover moves from the state the server sent to its own socket
  if (!(await reached(seat, latest._stateID))) return undefined;
  const state = seat.state;
  const legal = state.G.legal;
  const [type, args] = legal.length > 0
    ? ["place", legal[Math.floor(random() * legal.length)]]
    : ["pass", []];
  const action = {
    type: "MAKE_MOVE",
    payload: { type, args, playerID: seat.playerID, credentials: seat.credentials },
  };
  figures.inFlight++;
  const sent = now();
  match.next = { sent, stateID: state._stateID + 1 };
  const answered = reached(seat, state._stateID + 1);
  seat.socket.emit("update", action, state._stateID, seat.matchID, seat.playerID);
  if (contended) seat.device.emit("update", action, state._stateID, seat.matchID, seat.playerID);
  const made = await answered;
  const ms = now() - sent;
  figures.inFlight--;
  if (!made) { // not made: the next turn tries again
    match.next = null;
    return undefined;
  }
  figures.moves++;
  figures.moveMs.push(ms);
  // made, the duplicate would have changed the state the move made
  if (contended) match.duplicate = { stateID: state._stateID + 1, mover: seat.playerID };
  return ms;
}

/** After the load: the duplicates not yet judged are refused unless an update
 * shows one made within DUPLICATE_WAIT_MS. */
async function judgeDuplicates(matches) {
  const deadline = now() + DUPLICATE_WAIT_MS;
  while (now() < deadline && matches.some((m) => m.duplicate !== null)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const match of matches) {
    if (match.duplicate === null) continue;
    match.duplicate = null;
    figures.refused++;
    figures.refusedOk++;
  }
}

function readConfig() {
  const path = process.argv[2];
  if (!path) {
    console.error("usage: node benchmarks/peer/clients.js CONFIG.json");
    process.exit(2);
  }
  const config = JSON.parse(fs.readFileSync(path, "utf8"));
  const connections = config.connections || "shared";
  if (!["shared", "per_seat"].includes(connections)) {
    throw new Error(`connections: "shared" or "per_seat", not ${JSON.stringify(connections)}`);
  }
  if (config.seed !== undefined) seed = config.seed;
  return {
    bases: config.bases || [config.base],
    games: config.games,
    tiles: config.tiles,
    clients: Math.max(1, config.clients || 1),
    seconds: config.seconds,
    limit: config.limit || Infinity,
    contended: Boolean(config.contended),
    movesBefore: config.moves_before || 0,
  };
}

async function main() {
  const config = readConfig();
  const matches = await setUp(config);
  await playOn(matches, config.movesBefore);
  process.stdout.write("ready\n");
  await new Promise((resolve) => {
    // stdin closed before the line: the benchmark is gone, and so are these clients
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
  async function client(mine) {
    const live = [...mine];
    while (live.length > 0 && !done()) {
      for (const match of [...live]) {
        if (done()) break;
        const ms = await move(match, config.contended);
        if (ms === null) {
          live.splice(live.indexOf(match), 1);
          continue;
        }
        if (ms === undefined) {
          // a match whose moves keep not coming back is left (counted in `dropped`)
          match.failures++;
          if (match.failures >= 3) live.splice(live.indexOf(match), 1);
        }
      }
    }
  }
  const shares = Array.from({ length: config.clients },
    (_, i) => matches.filter((_, g) => g % config.clients === i));
  await Promise.all(shares.map(client));
  const elapsed = (now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await judgeDuplicates(matches);
  const placed = matches.map((m) => Object.keys(m.seats[0].state.G.board).length);
  process.stdout.write(JSON.stringify({
    seconds: elapsed,
    moves: figures.moves,
    moves_per_s: figures.moves / elapsed,
    move_p50_ms: percentile(figures.moveMs, 50),
    move_p95_ms: percentile(figures.moveMs, 95),
    next_p50_ms: percentile(figures.nextMs, 50),
    next_p95_ms: percentile(figures.nextMs, 95),
    next_n: figures.nextMs.length,
    refused: figures.refused,
    refused_ok: figures.refusedOk,
    errors: figures.errors,
    client_cpu_s: (cpu.user + cpu.system) / 1e6,
    games_over: matches.filter((m) => m.seats[0].state.ctx.gameover !== undefined).length,
    tiles_placed_mean: placed.reduce((a, b) => a + b, 0) / placed.length,
    stalls: figures.stalls,
    dropped: matches.filter((m) => m.failures >= 3).length,
  }) + "\n", () => process.exit(0)); // stdin, still open, would keep Node running
  for (const match of matches) {
    for (const seat of match.seats) {
      seat.socket.close();
      if (seat.device) seat.device.close();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
