"""The advanced rules: a tile may overlap earlier tiles only if one of them has
its colour, and when neither side of a new tile fits, earlier tiles are turned
over, the last first (shared/spec/make-a-snake.md, "Advanced rules").

``choice`` says how a taken tile may be connected: how many tiles must be turned
(``turn``) and which sides then fit. In the basic game it is always turn 0 and
either side.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .pieces import SIDES, START_HEADING, Side
from .snake import NECK, Laid, Snake, lay_tile, overlap


@dataclass(frozen=True, slots=True)
class Choice:
    """How a taken tile may be connected: turn the last ``turn`` tiles over, then
    lay it with one of ``sides`` up."""

    turn: int
    sides: tuple[Side, ...]
    blocked: bool = False
    """Advanced game only: no number of turned tiles makes it fit, so it is
    connected as in the basic game."""


BASIC = Choice(0, SIDES)


def fits(tile: Laid, before: Sequence[Laid]) -> bool:
    """Whether ``tile``, laid after the tiles ``before``, keeps the advanced rule:
    it overlaps no earlier tile, or at least one of its own colour. The tile it
    is connected to (the last of ``before``) and the head never count."""
    earlier = before[:-1]
    # one tile of its colour underneath allows any others
    if any(overlap(tile, t) for t in earlier if t.colour == tile.colour):
        return True
    return not any(overlap(tile, t) for t in earlier if t.colour != tile.colour)


def _fitting_sides(tile: str, tiles: Sequence[Laid]) -> tuple[Side, ...]:
    at, heading = (tiles[-1].end, tiles[-1].heading) if tiles else (NECK, START_HEADING)
    return tuple(s for s in SIDES if fits(lay_tile(tile, s, at, heading), tiles))


def choice(snake: Snake, tile: str, advanced: bool) -> Choice:
    """How ``tile`` may be connected to ``snake`` under the game's rules."""
    if not advanced:
        return BASIC
    sides = _fitting_sides(tile, snake.tiles)
    if sides:
        return Choice(0, sides)
    n = len(snake.tiles)
    for k in range(1, n + 1):
        tiles = snake.turned(k)
        # each turned tile must fit again, against the pieces before it, in order
        if all(fits(tiles[i], tiles[:i]) for i in range(n - k, n)):
            sides = _fitting_sides(tile, tiles)
            if sides:
                return Choice(k, sides)
    return Choice(0, SIDES, blocked=True)


def explain(tile: Laid, before: Sequence[Laid], chosen: Choice, advanced: bool) -> str:
    """Why ``tile``, laid after ``before`` (the snake as it would lie, turned
    tiles and all), may or may not be connected so, in words for the page."""
    return _sentence(_why(tile, before, chosen, advanced))


def _why(tile: Laid, before: Sequence[Laid], chosen: Choice, advanced: bool) -> str:
    if not advanced:
        return "the basic rules let a tile overlap any other"
    if chosen.blocked:
        return ("no number of tiles turned over makes it fit: it is connected as in "
                "the basic game, either side")
    turned = (f"with the last {chosen.turn} tile{'s' if chosen.turn != 1 else ''} turned "
              "over (neither side fitted as the snake lay), " if chosen.turn else "")
    earlier = before[:-1]
    hits = [t for t in earlier if overlap(tile, t)]
    own = [t.tile for t in hits if t.colour == tile.colour]
    others = [t.tile for t in hits if t.colour != tile.colour]
    if fits(tile, before):
        if not hits:
            return f"{turned}it overlaps no earlier tile"
        return (f"{turned}it overlaps {_listed(own)}, of its own colour"
                + (f", so {_listed(others)} too" if others else ""))
    return (f"{turned}it would overlap {_listed(others)} and no {tile.colour} tile: "
            "a tile may overlap only where a tile of its own colour is")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _listed(tiles: Sequence[str]) -> str:
    return tiles[0] if len(tiles) == 1 else ", ".join(tiles[:-1]) + " and " + tiles[-1]
