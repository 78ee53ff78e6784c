"""What a move's answer carries of the mover's state: the whole state, or the changes
since the seq the mover held (``"changes": true``, live/changes.py), with what
each costs the server to make.

    .venv/bin/python benchmarks/changes_bench.py [--games 10] [--moves 60] [--repeat 20]

For each game on the service, ``--games`` self-played games (random legal moves,
chance drawn from the seed) are followed ``--moves`` of the players' moves deep.
At each move, as the answer makes them for the mover: the whole state is the
game's view for the mover after the move (and whatever followed by itself),
encoded; the changes are that view, the mover's view before the move, the patch
between them, and both encoded (the answer sends the smaller; a state under
``CHANGES_FROM`` bytes goes whole without a patch): "changes" with
the view before made again, "kept" with it kept from when it was made (as the
server keeps it, live.state_cache). Prints, by game, the median bytes of the
whole state and of what is sent, and the median CPU of each way in microseconds
(the median of ``--repeat`` timings of each move), with ratios to the whole.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import registry  # noqa: E402
from engine.fairness import draw_event  # noqa: E402
from engine.protocol import read_options  # noqa: E402
from engine.selfplay import secret_seed  # noqa: E402
from live.changes import CHANGES_FROM, state_changes  # noqa: E402

OPTIONS = {"marram": {"variant": "animals", "length": "long"}}


def encode(data: object) -> bytes:
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


def moves_of(game, seed: int, moves: int):
    """(state before, mover, state after) for each of the players' moves; the state
    after is the state once what follows by itself (a forced pass, chance) is in."""
    rng = random.Random(seed)
    secret = secret_seed(seed)
    options = read_options(game, OPTIONS.get(game.key), 2)
    state = game.start(game.setup(options, ["ann", "bob"], secret))
    made, events = [], 0

    def settled(state):
        nonlocal events
        while not game.awaiting(state).finished:
            event = game.automatic(state)
            if event is None and game.awaiting(state).chance is not None:
                event = draw_event(secret, events, game.chance(state))
            if event is None:
                break
            state = game.fold(state, event)
            events += 1
        return state

    state = settled(state)
    while len(made) < moves and not (wait := game.awaiting(state)).finished:
        mover = rng.choice(wait.players)
        before = game.copy(state)
        state = game.fold(game.copy(state), rng.choice(game.legal_actions(state, mover)))
        events += 1
        state = settled(state)
        made.append((before, mover, game.copy(state)))
    return made


def figures(game, args: argparse.Namespace) -> str:
    """One game's line of the table."""
    sizes, cost, chosen = [], [], 0
    for seed in range(args.games):
        for before, mover, after in moves_of(game, seed, args.moves):
            old, new = game.view(before, mover), game.view(after, mover)
            whole = encode(new)
            patch = encode(state_changes(old, new)) if len(whole) >= CHANGES_FROM else whole
            chosen += len(patch) < len(whole)
            sizes.append((len(whole), min(len(patch), len(whole))))

            def full(a=after, m=mover):
                return encode(game.view(a, m))

            def with_changes(a=after, m=mover, kept=None, b=before):
                now = game.view(a, m)
                whole = encode(now)
                if len(whole) < CHANGES_FROM:
                    return whole
                ops = state_changes(kept if kept is not None else game.view(b, m), now)
                return min(encode(ops), whole, key=len)

            cost.append((timed(full, args.repeat), timed(with_changes, args.repeat),
                         timed(lambda kept=old: with_changes(kept=kept), args.repeat)))
    whole_b = statistics.median(s[0] for s in sizes)
    sent_b = statistics.median(s[1] for s in sizes)
    full_us, made, kept = (statistics.median(c[i] for c in cost) for i in range(3))
    return (f"{game.key:18} {whole_b:8.0f} {sent_b:9.0f} {sent_b / whole_b:6.2f} "
            f"{full_us:9.1f} {made:10.1f} {made / full_us:6.2f} {kept:8.1f} "
            f"{kept / full_us:6.2f} {chosen:>5}/{len(sizes)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"{args.games} games a kind, {args.moves} moves deep; medians over the moves")
    print(f"{'game':18} {'whole B':>8} {'sent B':>9} {'ratio':>6} "
          f"{'whole us':>9} {'changes us':>10} {'ratio':>6} {'kept us':>8} {'ratio':>6} "
          f"{'changes sent':>12}")
    for game in registry.games():
        print(figures(game, args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
