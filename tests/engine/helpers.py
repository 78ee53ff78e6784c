"""Build exact positions with a custom catalogue, as the spec's examples do.

Deals follow the record format: seat 0 draws the first three tiles of the
deck, seat 1 the next three, and so on; ``deal`` pads hands with plain filler
tiles so that tests only name what matters.
"""
from __future__ import annotations

from typing import Any

from engine.marram import apply, make_config, new_game
from engine.marram.state import GameState


def tile(terrain: str = "GGGGGGGG", *beasts: dict, items: list[tuple[int, str]] = (),
         links: list[tuple[int, int]] = (), spade: bool = False) -> dict[str, Any]:
    front: dict[str, Any] = {"terrain": terrain}
    if beasts:
        front["beasts"] = list(beasts)
    if items:
        front["items"] = [{"arc": a, "kind": k} for a, k in items]
    if links:
        front["links"] = [list(link) for link in links]
    return {"spade": spade, "front": front}


def seg(type_: str, kind: str, *sides: int) -> dict[str, Any]:
    return {"type": type_, "kind": kind, "sides": list(sides)}


FILLER = tile("SSSSSSSS")


def deal(hands: list[list[str]], rest: list[str] = ()) -> list[str]:
    """A deck that deals these hands (padded to three with fillers) then ``rest``."""
    deck: list[str] = []
    n = 0
    for hand in hands:
        pad = []
        for _ in range(3 - len(hand)):
            n += 1
            pad.append(f"F{n}")
        deck += list(hand) + pad
    return deck + list(rest)


def game(tiles: dict[str, dict], hands: list[list[str]], rest: list[str] = (),
         variant: str = "classic", length: str = "long", starter: str = "S0") -> GameState:
    deck = deal(hands, rest)
    catalogue = dict(tiles)
    for t in deck:
        catalogue.setdefault(t, FILLER)
    return new_game(make_config(variant, length, [f"p{i}" for i in range(len(hands))],
                                catalogue, deck, starter))


def place(state: GameState, player: int, tile_id: str, at: tuple[int, int], rotation: int = 0,
          face: str = "front", claim: dict | None = None) -> GameState:
    return apply(state, {"type": "place", "player": player, "tile": tile_id, "face": face,
                         "at": list(at), "rotation": rotation, "claim": claim})


def flip(state: GameState, player: int, at: tuple[int, int], rotation: int = 0,
         claim: dict | None = None) -> GameState:
    return apply(state, {"type": "flip", "player": player, "at": list(at),
                         "rotation": rotation, "claim": claim})


def pass_(state: GameState, player: int) -> GameState:
    return apply(state, {"type": "pass", "player": player})
