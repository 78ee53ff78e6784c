"""What differs between the variants, as data (rule book: supplies, values,
short-game targets, flips). The mechanics read these tables; they never
branch on the variant's name except through them."""
from __future__ import annotations

from dataclasses import dataclass

from .types import Length, Variant

RULES_VERSION = "1"
"""Bumped whenever a rules fix could change the outcome of a stored game."""

VARIANTS: tuple[Variant, ...] = ("classic", "pitchfork", "animals")
LENGTHS: tuple[Length, ...] = ("short", "long")
HAND_SIZE = 3
MOVES_PER_TURN = 2


@dataclass(frozen=True, slots=True)
class PatchValues:
    bulge: int
    gold: int
    silver: int
    flower: int


@dataclass(frozen=True, slots=True)
class Rules:
    variant: Variant
    length: Length
    players: int
    boots: int
    pitchforks: int
    spades: int
    target: int | None
    """Short game: the score that ends the game at once."""
    patch: PatchValues
    pitchforks_for_beasts: bool
    """Pitchfork and Animals claim beasts with pitchforks, patches with boots."""
    beasts_leave: bool
    """Completed beasts leave the board; bare tiles gain the spade."""
    flips_per_tile: int
    no_reflip_in_turn: bool
    creatures: bool


CLASSIC_PATCH = PatchValues(bulge=5, gold=5, silver=3, flower=4)
PITCHFORK_PATCH = PatchValues(bulge=3, gold=4, silver=2, flower=3)
END_PATCH = PatchValues(bulge=2, gold=1, silver=1, flower=1)
"""Unfinished patches at the end of the game."""

BEAST_SEGMENT_VALUE = {"blue": 3, "orange": 1, "worm": 2}
FREAK_VALUE = 3
END_SEGMENT_VALUE = 1

# spades by player count: (2, 3, 4)
_SPADES = {
    ("classic", "long"): (4, 3, 2),
    ("classic", "short"): (4, 3, 2),
    ("pitchfork", "long"): (10, 7, 5),
    ("pitchfork", "short"): (8, 5, 4),
    ("animals", "long"): (10, 7, 5),
}
_TARGETS = {"classic": (80, 60, 50), "pitchfork": (120, 80, 60)}

CREATURE_THRESHOLDS = {"fly": 20, "frog": 30}
CREATURE_MAX_HOPS = 30
GUESS_POINTS = 12
EXACT_GUESS_BONUS = 12


def rules_for(variant: str, length: str, players: int) -> Rules:
    """The rules of a game; ValueError names what is not a game of Marram."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: expected one of {', '.join(VARIANTS)}")
    if length not in LENGTHS:
        raise ValueError(f"unknown length {length!r}: expected short or long")
    if (variant, length) not in _SPADES:
        raise ValueError("Animals is played as a long game only")
    if not 2 <= players <= 4:
        raise ValueError(f"Marram is for 2 to 4 players, got {players}")
    classic = variant == "classic"
    return Rules(
        variant=variant,
        length=length,
        players=players,
        boots=7 if classic else (3 if length == "short" else 5),
        pitchforks=0 if classic else 5,
        spades=_SPADES[(variant, length)][players - 2],
        target=_TARGETS[variant][players - 2] if length == "short" else None,
        patch=CLASSIC_PATCH if classic else PITCHFORK_PATCH,
        pitchforks_for_beasts=not classic,
        beasts_leave=not classic,
        flips_per_tile=3 if classic else 1,
        no_reflip_in_turn=classic,
        creatures=variant == "animals",
    )
