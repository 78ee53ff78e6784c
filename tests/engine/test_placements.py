"""The legal placements and flips, listed with the frontier's masks
(``board.FrontierIndex``) and the flips' yes-or-no check (``board.fits``), are
exactly those that the move's own check (``board.mismatch``, the reason a
refused move is given) lets through, position by position, in the same order:
every tile of the hand, face, rotation and sorted position; every spade tile
and rotation. Checked at every state of whole random games of each variant,
where beasts of every type, Beastly ``any`` segments, beasts leaving the board
and flipped tiles all occur (in the Pitchfork and three-player Animals games
here, flips of tiles some of whose beasts have left)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from engine.marram import apply, chance_event, chance_odds, make_config, new_game
from engine.marram import board as B
from engine.marram.actions import flips, legal_actions, placements
from engine.marram.catalogue import standard
from engine.marram.game import flip_problem
from engine.marram.selfplay import draw
from engine.marram.state import GameState


def placements_one_by_one(state: GameState, seat: int) -> list[dict[str, Any]]:
    out = []
    for tile_id in dict.fromkeys(state.hands[seat]):
        tile = state.config.catalogue[tile_id]
        for face in ("front", "back"):
            for rotation in range(4):
                o = tile.oriented(face, rotation)
                for pos in sorted(state.frontier):
                    if B.mismatch(state.board, state.features, o, pos) is None:
                        out.append({"type": "place", "player": seat, "tile": tile_id,
                                    "face": face, "at": [pos[0], pos[1]],
                                    "rotation": rotation})
    return out


def flips_one_by_one(state: GameState, seat: int) -> list[dict[str, Any]]:
    out = []
    for pos in sorted(state.board):
        if flip_problem(state, seat, pos) is not None:
            continue
        for rotation in range(4):
            o = B.flipped_oriented(state.board[pos], rotation)
            if B.flip_mismatch(state, pos, o) is None:
                out.append({"type": "flip", "player": seat, "at": [pos[0], pos[1]],
                            "rotation": rotation})
    return out


def random_game(variant: str, players: int, seed: int):
    """Every state of a random game (a legal action taken at random each time)
    where a player is to move rather than guess or wait for chance."""
    rng = random.Random(seed)
    deck = standard().deck_ids()
    rng.shuffle(deck)
    state = new_game(make_config(variant, "long", [f"p{i}" for i in range(players)],
                                 deck=deck))
    while not state.finished:
        odds = chance_odds(state)
        if odds:
            state = apply(state, chance_event(state, draw(odds, rng)))
            continue
        if not state.pending:
            yield state
        state = apply(state, rng.choice(legal_actions(state)))


@pytest.mark.parametrize(("variant", "players", "seed"),
                         [("classic", 2, 1), ("pitchfork", 2, 29), ("animals", 3, 0),
                          ("animals", 4, 4)])
def test_listed_moves_are_those_the_moves_own_check_allows(variant: str, players: int,
                                                          seed: int):
    states = placed = flipped = 0
    beastly = False
    for state in random_game(variant, players, seed):
        seat = state.current
        expected = placements_one_by_one(state, seat)
        assert placements(state, seat) == expected
        expected_flips = flips_one_by_one(state, seat)
        assert flips(state, seat) == expected_flips
        states += 1
        placed += len(expected)
        flipped += len(expected_flips)
        beastly = beastly or any(seg.type == "any" for t in state.board.values()
                                 for seg in t.o.segments)
    # whole games, with moves of both kinds to compare (not empty lists)
    assert states > 60 and placed > 500 and flipped > 0
    if variant == "animals":
        assert beastly
