"""The strength tables of docs/bots.md, from the reports of ``bots_bench.py``
runs: python benchmarks/bots_tables.py REPORT...

Each REPORT is the standard output of one or more ``bots_bench.py`` runs (one
pairing of one game per run; a pairing run in several pieces, each on its own
seeds, is added up). For each game and pairing it prints one row: the games and
their seeds, the first level's wins, losses and ties, its win rate with a 95%
Wilson interval, the mean scores, each level's CPU seconds a move (the mean
over every move, the median of each piece's median, the slowest move) and the
strong bot's playouts a move and moves cut by its CPU guard."""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.bots.arena import wilson  # noqa: E402

HEADER = re.compile(r"^(\d+) (.+?) games \((.*)\), (.+), seats rotated, seed (\d+)$")
LEVEL = re.compile(
    r"^(\S+)\s+wins (\d+)/(\d+) .*?, ties (\d+), mean score ([-\d.]+), (?:(\d+) moves, )?"
    r"([\d.]+) s/move(?: \(median ([\d.]+), max ([\d.]+)\))?"
    r"(?:, (\d+) playouts/move, \d+ playouts/s(?:, (\d+) moves cut)?)?")


@dataclass
class Side:
    wins: int = 0
    ties: int = 0
    score: float = 0.0
    moves: int = 0
    seconds: float = 0.0
    medians: list[float] = field(default_factory=list)
    slowest: float = 0.0
    playouts: int = 0
    cuts: int = 0
    uncounted: bool = False
    """Some report did not count the cuts (an older run)."""
    searched: bool = False


@dataclass
class Pairing:
    games: int = 0
    seeds: list[tuple[int, int]] = field(default_factory=list)
    sides: list[Side] = field(default_factory=list)


def read(paths: list[str]) -> dict[tuple[str, str], Pairing]:
    out: dict[tuple[str, str], Pairing] = {}
    current: Pairing | None = None
    index = 0
    for path in paths:
        for line in Path(path).read_text().splitlines():
            head = HEADER.match(line)
            if head:
                games, title, levels, seed = (int(head[1]), head[2], head[4], int(head[5]))
                current = out.setdefault((title, levels), Pairing())
                current.games += games
                current.seeds.append((seed, games))
                if not current.sides:
                    current.sides = [Side() for _ in levels.split(", ")]
                index = 0
                continue
            level = LEVEL.match(line)
            if level and current is not None:
                side = current.sides[index]
                games = int(level[3])
                side.wins += int(level[2])
                side.ties += int(level[4])
                side.score += float(level[5]) * games
                # a report without its moves counted (older runs): the mean of
                # its moves stands for it as if it had made one
                moves = int(level[6]) if level[6] else 1
                side.moves += moves
                side.seconds += float(level[7]) * moves
                if level[8]:
                    side.medians.append(float(level[8]))
                    side.slowest = max(side.slowest, float(level[9]))
                if level[10]:
                    side.searched = True
                    side.playouts += int(level[10]) * moves
                    side.cuts += int(level[11] or 0)
                    side.uncounted |= level[11] is None
                index += 1
    return out


def _seeds(seeds: list[tuple[int, int]]) -> str:
    spans = sorted((first, first + n - 1) for first, n in seeds)
    merged: list[list[int]] = []
    for first, last in spans:
        if merged and first == merged[-1][1] + 1:
            merged[-1][1] = last
        else:
            merged.append([first, last])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in merged)


def _cpu(side: Side) -> str:
    mean = f"{side.seconds / side.moves:.3f}" if side.moves else "-"
    medians = sorted(side.medians)
    if not medians:
        return f"{mean} / - / -"
    median = (f"{medians[0]:.3f}" if medians[0] == medians[-1]
              else f"{medians[0]:.3f}-{medians[-1]:.3f}")
    return f"{mean} / {median} / {side.slowest:.3f}"


def rows(pairings: dict[tuple[str, str], Pairing]) -> list[str]:
    lines = ["| Game | Pairing | Games (seeds) | Won-lost-tied (first) | Win rate, 95% CI "
             "| Mean score | CPU s a move, first: mean / median / max | second | "
             "Strong playouts a move, cuts |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for (title, levels), p in pairings.items():
        first, second = p.sides[0], p.sides[1]
        low, high = wilson(first.wins, p.games)
        lost = second.wins
        strong = next((s for s in p.sides if s.searched), None)
        searched = (f"{strong.playouts / strong.moves:.0f}, "
                    f"{'not counted' if strong.uncounted else strong.cuts}"
                    if strong is not None and strong.moves else "-")
        lines.append(
            f"| {title} | {levels.replace(', ', ' v ')} | {p.games} ({_seeds(p.seeds)}) "
            f"| {first.wins}-{lost}-{first.ties} "
            f"| {100 * first.wins / p.games:.1f}%, {100 * low:.1f}-{100 * high:.1f}% "
            f"| {first.score / p.games:.1f} to {second.score / p.games:.1f} "
            f"| {_cpu(first)} | {_cpu(second)} | {searched} |")
    return lines


if __name__ == "__main__":
    print("\n".join(rows(read(sys.argv[1:]))))
