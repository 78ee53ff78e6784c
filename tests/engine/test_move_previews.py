"""Marram's move previews (engine.marram.view.move_previews): how a tile would
lie after each move a seat may make, which the game page draws instead of
turning tiles itself. Each preview must be the tile exactly as the engine lays
it when the move is made, but for a beast the move completes, which leaves the
board after the tile is laid."""
from __future__ import annotations

import random
from typing import Any

import pytest

from engine.marram import GAME
from engine.marram.view import move_previews, tile_view
from engine.replay import apply

DRAWN = ("tile", "face", "rotation", "inverted", "terrain", "regions", "items", "spade",
         "flips_left", "token")


def drawn(tile: dict[str, Any]) -> dict[str, Any]:
    """What the board draws of a tile (its beasts without their feature ids)."""
    return {**{k: tile[k] for k in DRAWN},
            "beasts": [{k: b.get(k) for k in ("type", "kind", "sides", "feature_type")}
                       for b in tile["beasts"]]}


def laid(state: Any, at: list[int]) -> dict[str, Any]:
    """The tile at ``at``, drawn in full."""
    return tile_view(state, tuple(at), state.board[tuple(at)])


def states_with_flips(variant: str, seed: str, wanted: int = 4) -> list[Any]:
    """States of a random game where the seat to move may flip a tile."""
    rng = random.Random(seed)
    state = GAME.start(GAME.setup({"variant": variant, "length": "long"},
                                  ["ann", "bob"], seed * 16))
    found: list[Any] = []
    for _ in range(600):
        awaiting = GAME.awaiting(state)
        if awaiting.finished or len(found) >= wanted:
            break
        event = GAME.automatic(state)
        if event is None and awaiting.chance is not None:
            chance = GAME.chance(state)
            assert chance is not None
            event = chance.outcomes[0][0]
        if event is None:
            seat = awaiting.players[0]
            actions = GAME.legal_actions(state, seat)
            if any(a["type"] == "flip" for a in actions):
                found.append((GAME.copy(state), seat))
            event = rng.choice(actions)
        state = GAME.fold(state, event)
    return found


@pytest.mark.parametrize("variant,seed", [("classic", "c1a5"), ("pitchfork", "f0f0"),
                                          ("animals", "a17e")])
def test_each_preview_is_the_tile_as_the_move_lays_it(variant, seed):
    found = states_with_flips(variant, seed)
    assert found, "the random game never offered a flip"
    flips = places = left = 0
    for state, seat in found:
        previews = move_previews(state, seat)
        for action in GAME.legal_actions(state, seat):
            if action["type"] not in ("place", "flip"):
                continue
            after = apply(GAME, state, {**action, "claim": None})
            if action["type"] == "place":
                shown = previews["place"][action["tile"]][action["face"]][action["rotation"]]
                places += 1
            else:
                entry = next(f for f in previews["flip"] if f["at"] == action["at"])
                shown = entry["rotations"][action["rotation"]]
                flips += 1
            expected = drawn(laid(after, action["at"]))
            if action["type"] == "place":  # a tile from the hand is in no feature yet
                for beast in expected["beasts"]:
                    beast["feature_type"] = None
            preview = drawn(shown)
            if len(expected["beasts"]) < len(preview["beasts"]):
                # a beast the move completed left the board (and, in Pitchfork, its
                # tile gained a spade): the preview shows the tile as it is laid,
                # before that; the rest is the same
                assert all(b in preview["beasts"] for b in expected["beasts"])
                for key in ("beasts", "spade", "flips_left"):
                    del preview[key], expected[key]
                left += 1
            assert preview == expected, action
    assert flips and places and left < places + flips
