"""Marram's bots for random self-play: every player picks a legal action at
random (``random``), or prefers holes with more neighbours (``compact``).
``python -m engine selfplay`` plays them through the protocol; the figures check
that the standard tiles play well (few discarded hands, nearly every tile laid,
every kind of feature completed) and measure the engine's speed."""
from __future__ import annotations

import random
from typing import Any

from . import board as B
from .actions import flips
from .catalogue import parse_catalogue
from .game import awaiting, chance_event, chance_odds, make_config, new_game, step
from .record import Record
from .rules import CREATURE_MAX_HOPS
from .state import GameState
from .types import Pos

CLAIM_CHANCE = 0.6
FLIP_CHANCE = 0.08


def draw(odds: dict[Pos, Any], rng: random.Random) -> Pos:
    """An outcome drawn with the given odds."""
    outcomes = list(odds)
    return rng.choices(outcomes, weights=[float(odds[o]) for o in outcomes])[0]


POLICIES = ("random", "compact")
"""random: any hole, uniformly; compact: random, but holes with more laid
neighbours first, as people tend to play (it closes features more often)."""


def random_placement(state: GameState, rng: random.Random,
                     policy: str = "random") -> dict[str, Any] | None:
    seat = state.current
    board, feats = state.board, state.features
    frontier = list(state.frontier)
    rng.shuffle(frontier)
    if policy == "compact":
        frontier.sort(key=lambda p: -sum((p[0] + dx, p[1] + dy) in board
                                         for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))))
    options = [(t, f, r) for t in dict.fromkeys(state.hands[seat]) for f in ("front", "back")
               for r in range(4)]
    rng.shuffle(options)
    catalogue = state.config.catalogue
    for tile_id, face, rotation in options:
        o = catalogue[tile_id].oriented(face, rotation)  # type: ignore[arg-type]
        for pos in frontier:
            if B.fits(board, feats, o, pos):
                claim = _random_claim(state, o, pos, rng)
                return {"type": "place", "player": seat, "tile": tile_id, "face": face,
                        "at": [pos[0], pos[1]], "rotation": rotation, "claim": claim}
    return None


def _random_claim(state: GameState, o: Any, pos: Pos, rng: random.Random) -> dict[str, int] | None:
    if rng.random() > CLAIM_CHANCE:
        return None
    seat = state.current
    targets: list[dict[str, int]] = [{"arc": r.arcs[0]} for r in o.regions]
    targets += [{"side": seg.sides[0]} for seg in o.segments]
    claim = rng.choice(targets)
    token = "boot" if "arc" in claim or not state.rules.pitchforks_for_beasts else "pitchfork"
    if state.supply(token)[seat] <= 0 or B.claim_blocked(state, o, pos, claim):
        return None
    return claim


def random_action(state: GameState, rng: random.Random,
                  policy: str = "random") -> dict[str, Any]:
    wait = awaiting(state)
    if wait["kind"] == "chance":
        odds = chance_odds(state)
        assert odds
        return chance_event(state, draw(odds, rng))
    if wait["kind"] == "guess":
        hops = "escape" if rng.random() < 0.15 else rng.randint(1, CREATURE_MAX_HOPS)
        return {"type": "guess", "player": wait["player"], "creature": wait["creature"],
                "hops": hops}
    seat = state.current
    if state.spades[seat] and rng.random() < FLIP_CHANCE:
        options = flips(state, seat)
        if options:
            return {**rng.choice(options), "claim": None}
    move = random_placement(state, rng, policy)
    if move is not None:
        return move
    if state.spades[seat] and not state.hands[seat] and rng.random() < 0.5:
        options = flips(state, seat)
        if options:
            return {**rng.choice(options), "claim": None}
    return {"type": "pass", "player": seat}


def play(variant: str, length: str, players: int, seed: int,
         catalogue: Any = "standard", starter: str | None = None, policy: str = "random",
         ) -> tuple[GameState, Record, int]:
    """One random game: its final state, its record and the hands discarded."""
    rng = random.Random(seed)
    names = [f"p{i + 1}" for i in range(players)]
    cat = parse_catalogue(catalogue)
    starter = starter or cat.starter
    assert starter is not None
    deck = [t for t in cat.tiles if t != starter]
    rng.shuffle(deck)
    config = make_config(variant, length, names, cat, deck, starter)
    state = new_game(config)
    record = Record(config)
    discards = 0
    while not state.finished:
        event = random_action(state, rng, policy)
        if event["type"] == "pass" and state.hands[event["player"]]:
            discards += 1
        step(state, event)
        record.events.append(event)
    return state, record, discards
