"""Make-a-snake's performance targets (issue 14). Run:
python benchmarks/make_a_snake_bench.py [--quick]

- legality of connecting a tile: both sides laid at the open end of a snake of
  30 tiles and checked against every one of them (the advanced rules' overlap
  test, and every overlap as the page's preview lists them): target <= 2 ms;
- the advanced rules' search for tiles to turn over, in the worst case found:
  target <= 50 ms;
- random self-play (engine.selfplay, the server's chance drawn from a seed as a
  server does): target >= 100 games a second.

The snakes are built, not played: every tile of the game but the one to
connect, in a random order and random sides, many times over; the figure is the
slowest snake's median time (so the hardest of those built, not a typical one).
The search's worst case is hunted the same way among snakes of every length,
preferring those where the tile fits nowhere (the search then tries every
number of tiles to turn). Timings are medians of repeated runs, in CPU time of the process (the
machine is shared: wall time would measure the other work too).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.make_a_snake import GAME  # noqa: E402
from engine.make_a_snake.advanced import choice, fits  # noqa: E402
from engine.make_a_snake.pieces import SIDES, TILES  # noqa: E402
from engine.make_a_snake.snake import Snake, overlapped  # noqa: E402
from engine.selfplay import play  # noqa: E402


def clock() -> float:
    """The CPU time of this process: on a machine shared with other work, wall
    time measures the others as much as this."""
    return time.process_time()


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times) * 1000


def built_snake(rng: random.Random, length: int, coiled: bool) -> tuple[Snake, str]:
    """A snake of ``length`` tiles laid in a random order, and a tile not in it
    to connect. Coiled, every tile lies up: every bend turns left and the snake
    winds over itself again and again (many pieces near each other, the costly
    case for the overlap test); otherwise each side is drawn at random."""
    tiles = list(TILES)
    rng.shuffle(tiles)
    snake = Snake([])
    for tile in tiles[:length]:
        snake.tiles.append(snake.with_tile(tile, "up" if coiled else rng.choice(SIDES)))
    return snake, tiles[length]


def legality(snake: Snake, tile: str) -> tuple[list[bool], list[list[int]]]:
    """Both sides of ``tile`` at the snake's open end: whether each fits the
    advanced rule, and which earlier tiles each overlaps."""
    sides = [snake.with_tile(tile, side) for side in SIDES]
    return ([fits(laid, snake.tiles) for laid in sides],
            [overlapped(laid, snake.tiles) for laid in sides])


def bench_legality(snakes: int, repeat: int) -> tuple[float, float, int]:
    """The slowest of ``snakes`` 30-tile snakes: its median ms, the median over
    all, and how many overlaps its two sides found."""
    rng = random.Random(14)
    results = []
    for i in range(snakes):
        snake, tile = built_snake(rng, 30, coiled=i % 2 == 0)
        ms = median_ms(lambda s=snake, t=tile: legality(s, t), repeat)
        results.append((ms, snake, tile))
    worst = max(results, key=lambda r: r[0])
    again = median_ms(lambda: legality(worst[1], worst[2]), repeat * 3)
    overlaps = sum(len(o) for o in legality(worst[1], worst[2])[1])
    return again, statistics.median(r[0] for r in results), overlaps


def bench_search(snakes: int, repeat: int) -> tuple[float, str, int]:
    """The slowest advanced choice found among built snakes of 10 to 31 tiles:
    its median ms, what the search answered, and the snake's length."""
    rng = random.Random(41)
    worst: tuple[float, Snake, str] | None = None
    for i in range(snakes):
        snake, tile = built_snake(rng, 10 + i % 22, coiled=i % 2 == 0)
        t = clock()
        choice(snake, tile, True)
        ms = (clock() - t) * 1000
        if worst is None or ms > worst[0]:
            worst = (ms, snake, tile)
    assert worst is not None
    _, snake, tile = worst
    again = median_ms(lambda: choice(snake, tile, True), repeat)
    found = choice(snake, tile, True)
    said = "blocked" if found.blocked else f"turn {found.turn}, {'/'.join(found.sides)}"
    return again, said, len(snake.tiles)


SELFPLAY = [(2, "competitive", False), (2, "competitive", True), (4, "competitive", False),
            (4, "competitive", True), (2, "lollipop", False), (4, "lollipop", True)]


def bench_selfplay(games: int) -> list[tuple[int, str, bool, float]]:
    out = []
    for players, mode, advanced in SELFPLAY:
        names = ["ann", "bob", "cat", "dan"][:players]
        t = clock()
        for seed in range(games):
            play(GAME, {"mode": mode, "advanced": advanced}, names, seed)
        out.append((players, mode, advanced, games / (clock() - t)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer snakes and games")
    quick = parser.parse_args().quick
    ms, typical, overlaps = bench_legality(20 if quick else 200, 5 if quick else 15)
    print(f"legality, both sides against 30 tiles: worst {ms:.3f} ms (median snake "
          f"{typical:.3f} ms; {overlaps} overlaps found)  target <= 2 ms  "
          f"{'OK' if ms <= 2 else 'MISSED'}")
    ms, said, length = bench_search(200 if quick else 3000, 5 if quick else 11)
    print(f"advanced search for tiles to turn: worst found {ms:.2f} ms ({length} tiles, "
          f"{said})  target <= 50 ms  {'OK' if ms <= 50 else 'MISSED'}")
    for players, mode, advanced, rate in bench_selfplay(20 if quick else 200):
        print(f"self-play {players} players {mode} {'advanced' if advanced else 'basic'}: "
              f"{rate:.0f} games/s  target >= 100  {'OK' if rate >= 100 else 'MISSED'}")


if __name__ == "__main__":
    main()
