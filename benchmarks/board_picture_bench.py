"""The board picture of a "your turn" mail (notifications/board_picture.py): how
long it takes to draw and how big the PNG is, on a 40-tile board with a full
hand to move. Run: python benchmarks/board_picture_bench.py [--repeat N]

Figures are medians over the runs. Beside the drawing time is, as a baseline
taken in the same run (the machine is shared and noisy), the engine's own
legal actions for that position, which the picture asks for once: the ratio
says what the drawing costs over the rules' part of it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")

from engine import marram as engine  # noqa: E402
from ui.marram.board_picture import board_picture  # noqa: E402

TILES = 40


def position(seed: int):
    """Random legal play (no claims but a few) up to TILES laid, with the player to
    move holding a full hand."""
    while True:
        rng = random.Random(seed)
        state = engine.new_game(engine.make_config("classic", "long", ["ann", "bob"]))
        while len(state.board) < TILES and not state.finished:
            actions = engine.legal_actions(state)
            places = [a for a in actions if a["type"] == "place"]
            action = rng.choice(places or actions)
            if action["type"] in ("place", "flip") and rng.random() < 0.25:
                claims = engine.claim_options(state, action)
                if claims:
                    action = {**action, "claim": rng.choice(claims)}
            state = engine.apply(state, action)
        if len(state.board) == TILES and state.moves_in_turn == 0:
            return state
        seed += 1000


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--save", help="write the first position's PNG here")
    args = parser.parse_args()
    board_picture(position(0), 0)  # load the font once
    draw, rules, sizes, dims = [], [], [], []
    for seed in range(args.positions):
        state = position(seed)
        seat = state.current
        picture = board_picture(state, seat)
        if seed == 0 and args.save:
            Path(args.save).write_bytes(picture.png)
        sizes.append(len(picture.png))
        dims.append(f"{picture.width}x{picture.height}")
        draw.append(median_time(lambda s=state, p=seat: board_picture(s, p), args.repeat))
        rules.append(median_time(lambda s=state: engine.legal_actions(s), args.repeat))
    result = {
        "tiles": TILES,
        "positions": args.positions,
        "repeat": args.repeat,
        "draw_ms_median": round(statistics.median(draw) * 1e3, 1),
        "draw_ms_range": [round(min(draw) * 1e3, 1), round(max(draw) * 1e3, 1)],
        "legal_actions_ms_median": round(statistics.median(rules) * 1e3, 2),
        "ratio": round(statistics.median(draw) / statistics.median(rules), 1),
        "png_kb_median": round(statistics.median(sizes) / 1024, 1),
        "png_kb_range": [round(min(sizes) / 1024, 1), round(max(sizes) / 1024, 1)],
        "pixels": dims,
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
