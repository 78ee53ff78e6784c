// boardgame.io's server for benchmarks/compare_bench.py: the placement game,
// stored in PostgreSQL through bgio-postgres, the socket.io transport and the
// lobby API on one port.
//
//     node benchmarks/peer/server.js PORT [DATABASE_URL]
//
// Prints "listening PORT" once it serves.
"use strict";

const { Server } = require("boardgame.io/server");
const { PostgresStore } = require("bgio-postgres");
const { PlacementGame } = require("./game");

async function main() {
  const [port, url] = process.argv.slice(2);
  // no URL: boardgame.io's in-memory store (to tell the storage's share)
  const db = url ? new PostgresStore(url, { logging: false }) : undefined;
  const server = Server({ games: [PlacementGame], db });
  await server.run(Number(port));
  process.stdout.write(`listening ${port}\n`);
  const stop = () => process.exit(0);
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
