"""Bots for self-play and absent players. Listing every split of a group of 13
tiles makes 8190 events, so the random bot picks without listing: first the
kind of action (keep; take or split, evenly, among those possible; else pass),
then one of that kind uniformly.

The computer players of ``engine.bots`` need more: the tiles a seat cannot see
redrawn (``determinize``), an ark's worth before the end (``evaluate``) and a
short list of sensible actions instead of thousands of splits (``candidates``)."""
from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Final

from .events import Event, Keep, Pass, Split, Take
from .moves import awaited, legal_actions, splits
from .rounds import final_winners
from .rules import step
from .scoring import HERD_POINTS, score_ark
from .state import State
from .tiles import FACE_DOWN, NUMBERS, TARGET_ARK, Seat, Tile, shown, species_of, tiles_of

POLICIES: Final = ("random", "greedy")


def random_action(state: State, seat: Seat, rng: random.Random) -> Event:
    if seat not in awaited(state):
        raise ValueError(f"nothing is awaited of player {seat}")
    if state.setup:
        return Keep(type="keep", player=seat, tile=rng.choice(state.drawn[seat]))
    takes = [g for g, group in enumerate(state.middle) if len(group) <= state.crates[seat]]
    splittable = [g for g, group in enumerate(state.middle) if len(group) >= 2]
    kinds = [k for k, options in (("take", takes), ("split", splittable)) if options]
    if not kinds:
        return Pass(type="pass", player=seat)
    if rng.choice(kinds) == "take":
        return Take(type="take", player=seat, group=rng.choice(takes))
    g = rng.choice(splittable)
    tiles = shown(state.middle[g], state.face_down)
    mask = rng.randrange(1, (1 << len(tiles)) - 1)
    return Split(type="split", player=seat, group=g,
                 part=[t for i, t in enumerate(tiles) if mask >> i & 1])


# ---------------------------------------------------------------- the computer players

PAIR_VALUE: Final = 3.0
"""Two tiles of a species score nothing, but a third makes a herd worth 15:
what a pair is worth while a tile of its species may still come."""
CRATE_VALUE: Final = 2.0
"""A crate in hand before the end: its point, and a tile it may still buy."""
NEXT_TAKE: Final = 0.9
"""The share of its best take counted for the seat to move."""
LATER_TAKE: Final = 0.5
"""The same for a seat still in the round that moves later."""
SPLITS_IN_FULL: Final = 5
"""Groups of up to this many tiles offer every split to the bots; larger ones
only the sensible parts (``candidates``)."""


def determinize(state: State, seat: Seat, rng: random.Random) -> State:
    """A copy of ``state`` with every tile ``seat`` cannot see redrawn by ``rng``
    from the tiles it cannot account for: the stack, the face-down tile, the
    other seats' three tiles at the setup, their secret keeps and the face-down
    tiles they took. What each seat saw face up (the middle, the groups the
    others took, the seat's own ark and tiles) stays. The unknown tiles are
    sorted before the shuffle and laid into places listed from public facts
    alone, so nothing of the true deal reaches the result."""
    out = state.copy()
    others = [s for s in range(state.seats) if s != seat]
    known = set(state.arks[seat]) | set(state.drawn[seat])
    known |= {t for group in state.middle for t in group if t != state.face_down}
    for s in others:
        secret = set(state.unseen[s])
        known |= {t for t in state.arks[s] if t not in secret}
    everything = [t for species in state.config.species for t in tiles_of(species)]
    pool = sorted(t for t in everything if t not in known)
    rng.shuffle(pool)
    it = iter(pool)
    for s in others:
        if state.setup and state.drawn[s]:
            out.drawn[s] = [next(it) for _ in state.drawn[s]]
            if state.kept[s] is not None:
                out.kept[s] = out.drawn[s][0]
        secret = set(state.unseen[s])
        public = [t for t in state.arks[s] if t not in secret]
        # the first unseen tile is the keep: during the setup it is one of the
        # three just guessed
        keep = out.kept[s] if state.setup else None
        guessed = [keep if i == 0 and keep is not None else next(it)
                   for i in range(len(state.unseen[s]))]
        if state.kept[s] is not None:
            out.kept[s] = guessed[0]
        out.arks[s] = public + guessed
        out.unseen[s] = guessed
    if state.face_down is not None:
        face_down = next(it)
        out.middle = [[face_down if t == state.face_down else t for t in group]
                      for group in state.middle]
        out.middle = [sorted(group) for group in out.middle]
        out.face_down = face_down
    stack = [next(it) for _ in range(state.stack())]
    rest = list(it)
    assert not rest, "every unknown tile has one place"
    drawn = sorted(t for t in everything if t not in stack)
    out.config = replace(state.config, deck=tuple(drawn) + tuple(stack))
    out.next_draw = len(drawn)
    return out


def ark_value(state: State, seat: Seat) -> float:
    """What the seat's ark and crates are worth: its score once the game is over;
    before, each lone tile its number, each herd 5 a tile, a pair ``PAIR_VALUE``
    while a tile of its species is left outside the arks (less as the largest
    ark nears 10 tiles), each crate ``CRATE_VALUE``. (The search's hottest
    call: species are counted by their letter, and the arks are counted only
    when the seat holds a pair.)"""
    ark, crates = state.arks[seat], state.crates[seat]
    if state.finished:
        return float(score_ark(ark, crates).points)
    counts: dict[str, int] = {}
    first: dict[str, Tile] = {}
    for t in ark:
        s = t[0]
        n = counts.get(s, 0)
        counts[s] = n + 1
        if not n:
            first[s] = t
    value = CRATE_VALUE * crates
    on_arks: dict[str, int] | None = None
    for species, n in counts.items():
        if n == 1:
            value += int(first[species][1])
        elif n >= 3:
            value += HERD_POINTS * n
        else:
            if on_arks is None:
                on_arks = {}
                for a in state.arks:
                    for t in a:
                        on_arks[t[0]] = on_arks.get(t[0], 0) + 1
            # a pair's hope of a third fades as the arks near the end of the game
            if on_arks[species] < len(NUMBERS):
                hope = max(0, TARGET_ARK - max(len(a) for a in state.arks)) / TARGET_ARK
                value += PAIR_VALUE * hope
    return value


def best_take(state: State, seat: Seat) -> float:
    """What the best group the seat can pay for would add to its ark's value
    (0 when none would add anything)."""
    before = ark_value(state, seat)
    best = 0.0
    ark, crates = state.arks[seat], state.crates[seat]
    for group in state.middle:
        if len(group) <= crates:
            state.arks[seat], state.crates[seat] = ark + group, crates - len(group)
            best = max(best, ark_value(state, seat) - before)
    state.arks[seat], state.crates[seat] = ark, crates
    return best


def evaluate(state: State, seat: Seat) -> float:
    """The seat's ark value less the best other seat's, counting for each seat
    still in the round part of the best group it could take now (most for the
    seat to move: the groups a split leaves are the next seat's to take); plus
    or minus a thousand once the game is won or lost."""
    if seat in state.resigned:
        return -1000.0
    values = {s: ark_value(state, s) for s in state.active()}
    if not state.finished and not state.setup:
        for s in state.in_round:
            weight = NEXT_TAKE if s == state.current else LATER_TAKE
            values[s] += weight * best_take(state, s)
    others = [v for s, v in values.items() if s != seat]
    value = values[seat] - (max(others) if others else 0.0)
    if state.finished:
        value += 1000.0 if seat in final_winners(state) else -1000.0
    return value


def candidates(state: State, seat: Seat) -> list[Event]:
    """The actions a bot weighs: every take; every split of a small group; of a
    larger one, each tile alone, each species' tiles together and the tiles of
    the species the seat holds (a part and the rest of the group). Listed
    without listing every split of a large group (``legal_actions`` would)."""
    if state.setup or seat not in awaited(state):
        return legal_actions(state, seat)
    out: list[Event] = [Take(type="take", player=seat, group=g)
                        for g, group in enumerate(state.middle)
                        if len(group) <= state.crates[seat]]
    if not any(len(group) >= 2 for group in state.middle):
        return out or [Pass(type="pass", player=seat)]
    mine = {species_of(t) for t in state.arks[seat]}
    for g, group in enumerate(state.middle):
        if len(group) < 2:
            continue
        tiles = shown(group, state.face_down)
        if len(tiles) <= SPLITS_IN_FULL:
            out.extend(splits(state, seat, g))
            continue
        parts: list[list[str]] = [[t] for t in tiles]
        by_species: dict[str, list[str]] = {}
        for t in tiles:
            if t != FACE_DOWN:
                by_species.setdefault(species_of(t), []).append(t)
        parts += [p for p in by_species.values() if len(p) > 1]
        wanted = [t for t in tiles if t != FACE_DOWN and species_of(t) in mine]
        parts += [wanted, [t for t in tiles if t not in wanted]]
        seen: set[tuple[str, ...]] = set()
        for part in parts:
            key = tuple(sorted(part))
            if 0 < len(part) < len(tiles) and key not in seen:
                seen.add(key)
                out.append(Split(type="split", player=seat, group=g, part=sorted(part)))
    return out


def greedy_action(state: State, seat: Seat, rng: random.Random) -> Event:
    """The strong bot's playouts' policy: the candidate (``candidates``) with the
    best value for the seat once played (``evaluate``), as the medium bot picks
    it; ties broken by ``rng``. It reads ``state`` as it is: the search hands it
    a determinization, never the true state."""
    actions = candidates(state, seat)
    if len(actions) == 1:
        return actions[0]
    best: list[Event] = []
    best_value = -math.inf
    for action in actions:
        after = state.copy()
        step(after, action)
        value = evaluate(after, seat)
        if value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)
