"""Writes the positions that the home page and the rules pages draw: game
records played by the engine's self-play from fixed seeds and stopped at the
moment each picture shows. The pages replay them through the engine, so every
picture is a position the rules allow.

- Marram's (ui/marram/data/pictures/*.json), of the standard tiles, with the
  tiles the picture outlines ("outline", beside the record's own keys); the deck
  is cut to the tiles drawn.
- Each other game's home page picture (ui/<key>/data/pictures/home.json), played
  through the game protocol only, a few moves in.

    python tools/make_pictures.py
"""
from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import registry  # noqa: E402
from engine.fairness import draw_event  # noqa: E402
from engine.marram import make_config, new_game, standard, step  # noqa: E402
from engine.marram.record import FORMAT, VERSION, config_to_json  # noqa: E402
from engine.marram.scoring import feature_kind  # noqa: E402
from engine.marram.selfplay import random_action  # noqa: E402
from engine.marram.state import GameState  # noqa: E402
from engine.protocol import JSON, AnyGame  # noqa: E402
from engine.selfplay import secret_seed  # noqa: E402

OUT = ROOT / "ui" / "marram" / "data" / "pictures"
PLAYERS = ["ann", "bob"]
PLAYERS_BY_SEAT = ["ann", "bob", "cyd", "dee"]

Stop = Callable[[GameState, GameState, dict[str, Any]], bool]
"""(before, after, event): whether the picture is the position after the event."""

Outline = Callable[[GameState, GameState, dict[str, Any]], list[list[int]]]
"""(before, after, event): the tiles the picture outlines."""


def nothing(before: GameState, after: GameState, event: dict[str, Any]) -> list[list[int]]:
    return []


def moved_tile(before: GameState, after: GameState, event: dict[str, Any]) -> list[list[int]]:
    return [event["at"]]


def feature_tiles(kind: str) -> Outline:
    """The tiles of the feature of that kind that the event's tile completed."""
    def outline(before: GameState, after: GameState, event: dict[str, Any]) -> list[list[int]]:
        placed = after.board[tuple(event["at"])]
        feats = after.features
        for node in placed.region_nodes + placed.seg_nodes:
            if node is None:
                continue
            f = feats.of(node)
            if f.complete and feature_kind(f) == kind:
                return sorted(list(p) for p in {feats.node_pos[n] for n in f.nodes})
        return [event["at"]]
    return outline


def bared_tiles(before: GameState, after: GameState, event: dict[str, Any]) -> list[list[int]]:
    """The tiles that lost beasts' pieces in the event."""
    def gone(state: GameState, pos: tuple[int, int]) -> int:
        return sum(n is None for n in state.board[pos].seg_nodes) if pos in state.board else 0
    return sorted([list(p) for p in after.board if gone(after, p) > gone(before, p)])


def fly_tile(before: GameState, after: GameState, event: dict[str, Any]) -> list[list[int]]:
    at = after.creatures["fly"].at
    return [list(at)] if at else []


def completes(kind: str, least_points: int = 1) -> Stop:
    def stop(before: GameState, after: GameState, event: dict[str, Any]) -> bool:
        new = after.log[len(before.log):]
        return any(e["kind"] == kind and e["points"] >= least_points for e in new)
    return stop


def tiles_laid(n: int) -> Stop:
    return lambda before, after, event: len(after.board) >= n and bool(
        any(t.token for t in after.board.values()))


def flipped(before: GameState, after: GameState, event: dict[str, Any]) -> bool:
    return event["type"] == "flip" and len(after.board) >= 8


def fly_on_board(before: GameState, after: GameState, event: dict[str, Any]) -> bool:
    return event["type"] == "hop" and after.creatures["fly"].hops >= 2


def beast_left(before: GameState, after: GameState, event: dict[str, Any]) -> bool:
    gone = sum(n is None for t in after.board.values() for n in t.seg_nodes)
    return gone > sum(n is None for t in before.board.values() for n in t.seg_nodes) \
        and len(after.board) <= 30


PICTURES: dict[str, tuple[str, Stop, Outline]] = {
    # name: (variant, when to stop, what to outline)
    "home": ("classic", tiles_laid(14), nothing),
    "patch": ("classic", completes("grass", 10), feature_tiles("grass")),
    "blue-snake": ("classic", completes("blue"), feature_tiles("blue")),
    "flip": ("classic", flipped, moved_tile),
    "pitchfork": ("pitchfork", beast_left, bared_tiles),
    "animals": ("animals", fly_on_board, fly_tile),
}


def picture(variant: str, stop: Stop, outline: Outline, limit: int = 40) -> dict[str, Any]:
    """The first of the seeds 1, 2, ... whose game reaches the stop within
    ``limit`` tiles: its record up to that event."""
    catalogue = standard()
    for seed in range(1, 500):
        rng = random.Random(seed)
        deck = [t for t in catalogue.deck_ids() if t != catalogue.starter]
        rng.shuffle(deck)
        config = make_config(variant, "long", PLAYERS, catalogue, deck)
        state = new_game(config)
        events: list[dict[str, Any]] = []
        while not state.finished and len(state.board) <= limit:
            event = random_action(state, rng, "compact")
            before = state.copy()
            step(state, event)
            events.append(event)
            if stop(before, state, event):
                used = config_to_json(config)
                used["deck"] = deck[:state.drawn]
                return {"format": FORMAT, "version": VERSION, "config": used,
                        "events": events, "outline": outline(before, state, event),
                        "seed": seed}
    raise SystemExit(f"no seed gives a {variant} picture")


HOME_POSITIONS: dict[str, tuple[int, int]] = {
    # key: (players, the players' moves the position is after)
    "pond": (2, 14),
    "make_a_snake": (2, 32),
    "animals_on_board": (3, 26),
}
"""The home page's picture of each game but Marram: a game of its default options."""


def home_position(game: AnyGame, players: int, moves: int, seed: int = 1) -> dict[str, Any]:
    """The record of a self-play game (random bots, chance drawn as the server
    draws it) up to the players' ``moves``-th move."""
    rng = random.Random(seed)
    secret = secret_seed(seed)
    options = {o.name: o.default for o in game.options_declared}
    config = game.setup(options, PLAYERS_BY_SEAT[:players], secret)
    state = game.start(config)
    events: list[JSON] = []
    made = 0
    while made < moves and not (wait := game.awaiting(state)).finished:
        event = game.automatic(state)
        if event is None and wait.chance is not None:
            chance = game.chance(state)
            assert chance is not None, f"{game.title} awaits {wait.chance} without odds"
            event = draw_event(secret, len(events), chance)
        elif event is None:
            event = game.bot_action(state, rng.choice(wait.players), rng, "random")
            made += 1
        state = game.fold(state, event)
        events.append(dict(event))
    return {"format": game.record_format, "version": game.record_version, "config": config,
            "events": events}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (variant, stop, outline) in PICTURES.items():
        record = picture(variant, stop, outline)
        seed = record.pop("seed")
        (OUT / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
        print(f"{name}: seed {seed}, {len(record['events'])} events")
    for key, (players, moves) in HOME_POSITIONS.items():
        record = home_position(registry.get(key), players, moves)
        out = ROOT / "ui" / key / "data" / "pictures"
        out.mkdir(parents=True, exist_ok=True)
        (out / "home.json").write_text(json.dumps(record, indent=1) + "\n")
        print(f"{key} home: {len(record['events'])} events")


if __name__ == "__main__":
    main()
