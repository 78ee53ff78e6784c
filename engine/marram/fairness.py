"""Fair chance in Marram: the shared seed, commitment and draws
(``engine.fairness``), and the check of a finished Marram game whose deck was
shuffled from a given tile list."""
from __future__ import annotations

from typing import Any

from ..fairness import (
    SEED_BYTES,
    check_commitment,
    check_draws,
    commitment,
    deck_from_seed,
    draw,
    new_seed,
    seed_from_record,
)
from .adapter import GAME
from .game import new_game
from .record import parse_record

__all__ = ["SEED_BYTES", "commitment", "deck_from_seed", "draw", "new_seed",
           "seed_from_record", "verify"]


def verify(raw: dict[str, Any], seed: str, published: str, tiles: list[str]) -> list[str]:
    """Problems found checking a finished game against its commitment; empty if fair.
    ``tiles`` is the catalogue's tile list that the deck was shuffled from."""
    problems = check_commitment(seed, published)
    if problems == ["the seed is not hexadecimal"]:
        return problems
    record = parse_record(raw)
    if list(record.config.deck) != deck_from_seed(seed, tiles):
        problems.append("the deck is not the one the seed gives")
    return problems + check_draws(GAME, new_game(record.config), record.events, seed)
