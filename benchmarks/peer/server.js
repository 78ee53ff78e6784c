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
  // Sequelize's default pool of 5 connections ran dry in the benchmark (all five
  // held, idle in PostgreSQL, and every request waiting): a larger pool, and a
  // request that waits 10 s for a connection fails loudly instead
  const db = url
    ? new PostgresStore(url, { logging: false, pool: { max: 20, acquire: 10000 } })
    : undefined;
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
