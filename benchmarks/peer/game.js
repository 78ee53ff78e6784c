// The placement game boardgame.io plays in benchmarks/compare_bench.py and
// benchmarks/fair_bench.py: two players place square tiles on a grid (100 unless
// the match's setupData says {tiles: n}), each tile's four edges coloured, a
// tile only beside the board and only where every edge it touches matches.
// After each move the server checks it, scores it and works out every legal
// placement of the player to move (G.legal): the work Marram does for a move
// and for its view's legal actions.
"use strict";

const { INVALID_MOVE } = require("boardgame.io/core");

const TILES = 100; // a match's tiles unless its setupData says otherwise
const HAND = 3;
const COLOURS = 4;
const STEPS = [[0, -1], [1, 0], [0, 1], [-1, 0]]; // the neighbours across edges N, E, S, W

/** Tile n's edges N, E, S, W: a fixed set, shuffled into the bag by the game's seed. */
function tileEdges(n) {
  let x = (n * 2654435761) >>> 0;
  const edges = [];
  for (let i = 0; i < 4; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    edges.push((x >>> 16) % COLOURS);
  }
  return edges;
}

/** The edges of a tile turned `rot` quarter turns clockwise. */
function turned(edges, rot) {
  return [0, 1, 2, 3].map((side) => edges[(side - rot + 4) % 4]);
}

const key = (x, y) => `${x},${y}`;

/** The edges that meet a tile set at (x, y): how many, or -1 when one does not match. */
function matches(board, edges, x, y) {
  let touching = 0;
  for (let side = 0; side < 4; side++) {
    const other = board[key(x + STEPS[side][0], y + STEPS[side][1])];
    if (other === undefined) continue;
    if (other.edges[(side + 2) % 4] !== edges[side]) return -1;
    touching++;
  }
  return touching;
}

/** Every legal placement [hand slot, x, y, rotation] of a hand on the board. */
function legalPlacements(board, hand) {
  const frontier = new Map();
  for (const cell of Object.keys(board)) {
    const [x, y] = cell.split(",").map(Number);
    for (const [dx, dy] of STEPS) {
      const k = key(x + dx, y + dy);
      if (board[k] === undefined) frontier.set(k, [x + dx, y + dy]);
    }
  }
  const turns = hand.map((tile) => [0, 1, 2, 3].map((rot) => turned(tileEdges(tile), rot)));
  const legal = [];
  for (const [x, y] of frontier.values()) {
    turns.forEach((edgesByRot, slot) => {
      edgesByRot.forEach((edges, rot) => {
        if (matches(board, edges, x, y) > 0) legal.push([slot, x, y, rot]);
      });
    });
  }
  return legal;
}

function draw(G, player) {
  if (G.bag.length > 0) G.hands[player].push(G.bag.pop());
}

function afterMove(G, ctx) {
  const next = String((Number(ctx.currentPlayer) + 1) % ctx.numPlayers);
  G.legal = legalPlacements(G.board, G.hands[next]);
}

const PlacementGame = {
  name: "placement",
  minPlayers: 2,
  maxPlayers: 2,

  /** setupData: nothing, or {tiles: n}, the match's length (the first tile and
   * every player's hand at least). */
  validateSetupData: (setupData, numPlayers) => {
    if (setupData === undefined || setupData.tiles === undefined) return undefined;
    const least = 1 + HAND * (numPlayers || 2);
    return Number.isInteger(setupData.tiles) && setupData.tiles >= least
      ? undefined
      : `tiles must be a whole number, at least ${least}`;
  },

  setup: ({ ctx, random }, setupData) => {
    const tiles = (setupData && setupData.tiles) || TILES;
    const bag = random.Shuffle([...Array(tiles).keys()]);
    const first = bag.pop();
    const board = { [key(0, 0)]: { tile: first, edges: tileEdges(first), by: null } };
    const hands = {};
    for (let p = 0; p < ctx.numPlayers; p++) hands[String(p)] = bag.splice(-HAND, HAND);
    const G = {
      tiles, board, bag, hands, scores: Array(ctx.numPlayers).fill(0), passes: 0, legal: [],
    };
    G.legal = legalPlacements(board, hands["0"]);
    return G;
  },

  turn: { minMoves: 1, maxMoves: 1 },

  moves: {
    /** Place the tile of hand slot `slot` at (x, y), turned `rot` quarter turns. */
    place: ({ G, ctx, playerID }, slot, x, y, rot) => {
      const hand = G.hands[playerID];
      if (!Number.isInteger(slot) || slot < 0 || slot >= hand.length) return INVALID_MOVE;
      if (![0, 1, 2, 3].includes(rot) || G.board[key(x, y)] !== undefined) return INVALID_MOVE;
      const edges = turned(tileEdges(hand[slot]), rot);
      const touching = matches(G.board, edges, x, y);
      if (touching <= 0) return INVALID_MOVE;
      G.board[key(x, y)] = { tile: hand[slot], edges, by: playerID };
      hand.splice(slot, 1);
      // a point an edge matched, two more for closing a cell in on every side
      G.scores[Number(playerID)] += touching + (touching === 4 ? 2 : 0);
      G.passes = 0;
      draw(G, playerID);
      afterMove(G, ctx);
    },
    /** No legal placement: put the hand's first tile back under the bag and draw. */
    pass: ({ G, ctx, playerID }) => {
      if (legalPlacements(G.board, G.hands[playerID]).length > 0) return INVALID_MOVE;
      const hand = G.hands[playerID];
      if (hand.length > 0) G.bag.unshift(hand.shift());
      G.passes++;
      draw(G, playerID);
      afterMove(G, ctx);
    },
  },

  endIf: ({ G }) => {
    const placed = Object.keys(G.board).length;
    if (placed >= G.tiles || G.passes >= 6) {
      const best = Math.max(...G.scores);
      const winners = G.scores.flatMap((s, p) => (s === best ? [String(p)] : []));
      return winners.length === 1 ? { winner: winners[0] } : { draw: true };
    }
    return undefined;
  },
};

module.exports = { PlacementGame, legalPlacements };
