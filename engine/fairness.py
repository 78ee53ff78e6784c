"""Fair chance from one secret seed, verifiable by anyone once it is revealed.

At the start a server draws a 32-byte seed and publishes ``commitment(seed)``
(SHA-256). The deck order and every chance outcome (where the fly and the frog
appear, where they hop) are derived from the seed:

- the deck: a Fisher-Yates shuffle of the catalogue's tiles, in catalogue order,
  where step i swaps with index ``u(seed, "deck", i) mod (i + 1)``;
- the chance event that becomes event number ``n`` of the record: the outcomes
  sorted by position, each with its exact odds; the outcome is the first whose
  cumulative odds exceed ``u(seed, "draw", n) / 2**256``.

``u(seed, label, i)`` is HMAC-SHA256(seed, f"{label}:{i}") read as a big-endian
integer. When the game ends the seed is revealed and ``verify`` replays the
record, checking the commitment, the deck and every chance event.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from fractions import Fraction
from typing import Any

from .errors import RecordError
from .game import chance_event, chance_odds, new_game, step
from .record import parse_record
from .types import Pos

SEED_BYTES = 32


def new_seed() -> str:
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def _u(seed: str, label: str, i: int) -> int:
    digest = hmac.new(bytes.fromhex(seed), f"{label}:{i}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest, "big")


def deck_from_seed(seed: str, tiles: list[str]) -> list[str]:
    deck = list(tiles)
    for i in range(len(deck) - 1, 0, -1):
        j = _u(seed, "deck", i) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def draw(seed: str, event_index: int, odds: dict[Pos, Fraction]) -> Pos:
    """The outcome of the chance event that becomes event ``event_index``."""
    point = Fraction(_u(seed, "draw", event_index), 2**256)
    total = Fraction(0)
    outcomes = sorted(odds)
    for pos in outcomes:
        total += odds[pos]
        if point < total:
            return pos
    return outcomes[-1]


def verify(raw: dict[str, Any], seed: str, published: str, tiles: list[str]) -> list[str]:
    """Problems found checking a finished game against its commitment; empty if fair.
    ``tiles`` is the catalogue's tile list that the deck was shuffled from."""
    problems = []
    try:
        bytes.fromhex(seed)
    except ValueError:
        return ["the seed is not hexadecimal"]
    if commitment(seed) != published:
        problems.append("the seed does not match the published commitment")
    record = parse_record(raw)
    if list(record.config.deck) != deck_from_seed(seed, tiles):
        problems.append("the deck is not the one the seed gives")
    state = new_game(record.config)
    for i, event in enumerate(record.events):
        odds = chance_odds(state)
        if odds is not None:
            expected = chance_event(state, draw(seed, i, odds))
            if {k: event.get(k) for k in expected} != expected:
                problems.append(f"event {i}: the seed gives {expected}, the record has {event}")
        try:
            step(state, event)
        except ValueError as e:
            problems.append(f"event {i} is illegal: {e}")
            break
    return problems


def seed_from_record(raw: dict[str, Any]) -> tuple[str, str]:
    fair = raw.get("fairness") if isinstance(raw, dict) else None
    if not isinstance(fair, dict) or not {"seed", "commitment"} <= set(fair):
        raise RecordError("the record has no revealed seed: only finished games exported "
                          "by a server carry 'fairness': {'seed', 'commitment'}")
    seed = str(fair["seed"])
    if len(seed) != 2 * SEED_BYTES or not all(c in "0123456789abcdef" for c in seed):
        raise RecordError(f"the revealed seed must be {2 * SEED_BYTES} lowercase hex digits")
    return seed, str(fair["commitment"])
