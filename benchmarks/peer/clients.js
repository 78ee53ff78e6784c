// boardgame.io's clients for benchmarks/compare_bench.py: N clients play the
// placement game against benchmarks/peer/server.js over socket.io.
//
//     node benchmarks/peer/clients.js PORT CLIENTS GAMES SECONDS [MOVE_LIMIT]
//
// Set-up, not measured: creates GAMES matches through the lobby API, joins
// both seats, and connects one socket.io socket a seat, synced as its player
// (as two browsers would). Then prints "ready" and waits for a line on stdin.
// Each client plays its share of the games in turn, one move at a time, as
// Marram's benchmark clients do: a random legal placement from the state the
// server last sent (G.legal), sent on the mover's socket; the round trip is
// from that emit until the mover's socket receives the server's update of the
// match. It stops when every game is over, after SECONDS, or after MOVE_LIMIT
// moves (all clients together). Prints the figures as one JSON line.
"use strict";

const { io } = require("socket.io-client");

const GAME = "placement";

// The longest the set-up waits for one answer of the server (a lobby request,
// a seat's first sync) before it fails, naming the request
const SETUP_WAIT_MS = 15000;

function debug(...args) {
  if (process.env.PEER_DEBUG) console.error(...args);
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

/** One seat of one match: its socket, credentials, and the last state it received. */
function connectSeat(base, matchID, playerID, credentials) {
  return new Promise((resolve, reject) => {
    const socket = io(`${base}/${GAME}`, { transports: ["websocket"], forceNew: true });
    const seat = { socket, matchID, playerID, credentials, state: null, waiting: null };
    const received = (state) => {
      if (seat.state === null || state._stateID >= seat.state._stateID) seat.state = state;
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
      received(info.state);
      resolve(seat);
    });
    socket.on("update", (id, state) => received(state));
    socket.on("connect_error", (error) => {
      clearTimeout(timer);
      reject(new Error(`match ${matchID} seat ${playerID}: ${error.message}`));
    });
    socket.on("connect", () => socket.emit("sync", matchID, playerID, credentials, 2));
  });
}

async function setUp(base, games) {
  const matches = [];
  for (let g = 0; g < games; g++) {
    const { matchID } = await post(base, `/games/${GAME}/create`, { numPlayers: 2 });
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
    const seats = [];
    for (const playerID of ["0", "1"]) {
      seats.push(await connectSeat(base, matchID, playerID, credentials[Number(playerID)]));
    }
    debug("set up", g, matchID);
    matches.push({ matchID, seats });
  }
  return matches;
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

let stalls = 0;

/** Resolves true once the seat has received the state `stateID` (or a later
 * one). Now and then an update does not come (a move the server dropped
 * without a word, or a socket it had not yet added to the match's room): after
 * 5 s the seat syncs again, the stall is counted, and the promise resolves
 * false if the state has still not come, so that the caller moves anew. */
function reached(seat, stateID) {
  if (seat.state._stateID >= stateID) return Promise.resolve(true);
  return new Promise((done) => {
    const resync = () => {
      stalls++;
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

/** Make one move in the match; resolves with the round trip in ms, null once
 * the match is over, undefined when the move did not come back. */
async function move(match) {
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
  const started = process.hrtime.bigint();
  const answered = reached(seat, state._stateID + 1);
  seat.socket.emit("update", action, state._stateID, seat.matchID, seat.playerID);
  if (!(await answered)) return undefined; // not made: the next turn tries again
  return Number(process.hrtime.bigint() - started) / 1e6;
}
async function main() {
  const [port, clients, games, seconds, limitArg] = process.argv.slice(2).map(Number);
  const limit = limitArg || Infinity;
  const base = `http://127.0.0.1:${port}`;
  const matches = await setUp(base, games);
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

  const times = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let moves = 0;
  async function client(mine) {
    const live = [...mine];
    while (live.length > 0 && performance.now() < deadline && moves < limit) {
      for (const match of [...live]) {
        if (performance.now() >= deadline || moves >= limit) break;
        const ms = await move(match);
        if (ms === null) {
          live.splice(live.indexOf(match), 1);
          continue;
        }
        if (ms === undefined) {
          // a match whose moves keep not coming back is left (counted in `dropped`)
          match.failures = (match.failures || 0) + 1;
          if (match.failures >= 3) live.splice(live.indexOf(match), 1);
          continue;
        }
        times.push(ms);
        moves++;
      }
    }
  }
  const shares = Array.from({ length: clients }, (_, i) => matches.filter((_, g) => g % clients === i));
  await Promise.all(shares.map(client));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const placed = matches.map((m) => Object.keys(m.seats[0].state.G.board).length);
  process.stdout.write(JSON.stringify({
    seconds: elapsed,
    moves,
    moves_per_s: moves / elapsed,
    move_p50_ms: percentile(times, 50),
    move_p95_ms: percentile(times, 95),
    client_cpu_s: (cpu.user + cpu.system) / 1e6,
    games_over: matches.filter((m) => m.seats[0].state.ctx.gameover !== undefined).length,
    tiles_placed_mean: placed.reduce((a, b) => a + b, 0) / placed.length,
    stalls,
    dropped: matches.filter((m) => (m.failures || 0) >= 3).length,
  }) + "\n", () => process.exit(0)); // stdin, still open, would keep Node running
  for (const match of matches) for (const seat of match.seats) seat.socket.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
