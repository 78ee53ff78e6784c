"""Fair chance from one secret seed, verifiable by anyone once it is revealed.
The same for every game.

At the start a server draws a 32-byte seed and publishes ``commitment(seed)``
(SHA-256). Every hidden order and every chance outcome is derived from the seed:

- a deck (or any hidden order, under its own ``label``): a Fisher-Yates shuffle
  of the items in the game's fixed order, where step i swaps with index
  ``u(seed, label, i) mod (i + 1)``; Marram's deck is ``shuffle(seed, tiles)``;
- the chance event that becomes event number ``n`` of the record: the outcomes
  in the game's fixed order (``Chance.outcomes``; Marram's are sorted by
  position), each with its exact odds; the outcome is the first whose
  cumulative odds exceed ``u(seed, "draw", n) / 2**256``. A seat may leave
  (``Game.resign``) while a draw is due: its leaving event takes number ``n``,
  is no draw and is not checked against the seed, and the draw still due after
  it is the one for its own number, ``n + 1``.

``u(seed, label, i)`` is HMAC-SHA256(seed, f"{label}:{i}") read as a big-endian
integer. When the game ends the seed is revealed and ``verify`` replays the
record, checking the commitment, the config and every chance event.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from .errors import IllegalAction, RecordError
from .protocol import Chance, Game

T = TypeVar("T")
S = TypeVar("S")
E = TypeVar("E", bound=Mapping[str, object])


class _Sortable(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


Outcome = TypeVar("Outcome", bound=_Sortable)

SEED_BYTES = 32


def new_seed() -> str:
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def _u(seed: str, label: str, i: int) -> int:
    digest = hmac.new(bytes.fromhex(seed), f"{label}:{i}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest, "big")


def shuffle(seed: str, items: Sequence[T], label: str = "deck") -> list[T]:
    """``items`` in the order the seed gives them; each hidden order of a game
    (a deck, a stack per colour) has its own ``label``."""
    deck = list(items)
    for i in range(len(deck) - 1, 0, -1):
        j = _u(seed, label, i) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deck_from_seed(seed: str, tiles: list[str]) -> list[str]:
    return shuffle(seed, tiles, "deck")


def _pick(seed: str, event_index: int, odds: Sequence[Fraction]) -> int:
    point = Fraction(_u(seed, "draw", event_index), 2**256)
    total = Fraction(0)
    for i, share in enumerate(odds):
        total += share
        if point < total:
            return i
    return len(odds) - 1


def draw_event(seed: str, event_index: int, chance: Chance[E]) -> E:
    """The event recording the outcome of the chance event that becomes event
    ``event_index``, drawn from the seed in the order of ``chance.outcomes``."""
    if not chance.outcomes:
        raise ValueError(f"nothing to draw: {chance.what} has no possible outcome")
    i = _pick(seed, event_index, [share for _, share in chance.outcomes])
    return chance.outcomes[i][0]


def draw(seed: str, event_index: int, odds: Mapping[Outcome, Fraction]) -> Outcome:
    """The outcome of the chance event that becomes event ``event_index``, the
    outcomes taken in their sorted order."""
    outcomes = sorted(odds)
    return outcomes[_pick(seed, event_index, [odds[o] for o in outcomes])]


def check_commitment(seed: str, published: str) -> list[str]:
    try:
        bytes.fromhex(seed)
    except ValueError:
        return ["the seed is not hexadecimal"]
    if commitment(seed) != published:
        return ["the seed does not match the published commitment"]
    return []


def leaving_types(game: Game[S, E], state: S, seats: int) -> frozenset[object]:
    """The types of the events by which one of the ``seats`` leaves the game now in
    ``state`` (``game.resign``): a player may leave at any time, even while a
    chance draw is due."""
    return frozenset(e["type"] for s in range(seats) for e in game.resign(state, s))


def check_draws(game: Game[S, E], start: S, events: Sequence[object], seed: str) -> list[str]:
    """Replay ``events`` from ``start`` (left untouched), checking that every chance
    event is the one the seed gives; stops at the first illegal event.

    Where a draw is due, the event must be that draw, drawn for its own index,
    unless it is a leaving event (``leaving_types``): a seat that leaves is no
    draw and is not checked against the seed, and the draw still due after it
    (if any) is checked at the index it is recorded at, as the server draws it."""
    problems = []
    players = game.config(start).get("players")
    seats = len(players) if isinstance(players, list) else 0
    state = game.copy(start)
    for i, raw in enumerate(events):
        chance = game.chance(state)
        got = raw if isinstance(raw, dict) else {}
        if (chance is not None and chance.outcomes
                and got.get("type") not in leaving_types(game, state, seats)):
            expected = draw_event(seed, i, chance)
            if {k: got.get(k) for k in expected} != expected:
                problems.append(f"event {i}: the seed gives {expected}, the record has {raw}")
        try:
            state = game.fold(state, game.read_event(raw))
        except IllegalAction as e:
            problems.append(f"event {i} is illegal: {e}")
            break
    return problems


def verify(game: Game[S, E], raw: Mapping[str, object], seed: str, published: str) -> list[str]:
    """Problems found checking a finished game of ``game`` against its commitment:
    the seed, the config the seed deals (``game.setup``) and every chance event.
    Empty if fair; RecordError for a record that cannot be read at all."""
    problems = check_commitment(seed, published)
    if problems == ["the seed is not hexadecimal"]:
        return problems
    config = raw.get("config")
    if not isinstance(config, dict):
        raise RecordError("'config' must be an object")
    events = raw.get("events", [])
    if not isinstance(events, list):
        raise RecordError("'events' must be a list")
    start = game.start(config)
    written = game.config(start)
    dealt = game.setup(game.options(start), tuple(map(str, config.get("players", []))), seed)
    for key in sorted(set(written) | set(dealt)):
        if written.get(key) != dealt.get(key):
            problems.append(f"the {key} is not the one the seed gives")
    return problems + check_draws(game, start, events, seed)


def seed_from_record(raw: Mapping[str, object]) -> tuple[str, str]:
    fair = raw.get("fairness") if isinstance(raw, dict) else None
    if not isinstance(fair, dict) or not {"seed", "commitment"} <= set(fair):
        raise RecordError("the record has no revealed seed: only finished games exported "
                          "by a server carry 'fairness': {'seed', 'commitment'}")
    seed = str(fair["seed"])
    if len(seed) != 2 * SEED_BYTES or not all(c in "0123456789abcdef" for c in seed):
        raise RecordError(f"the revealed seed must be {2 * SEED_BYTES} lowercase hex digits")
    return seed, str(fair["commitment"])
