"""What a feature is worth, and who takes it (rule book: "Scoring after each
move", "End-game scoring")."""
from __future__ import annotations

from .features import Feature
from .rules import (
    BEAST_SEGMENT_VALUE,
    END_PATCH,
    END_SEGMENT_VALUE,
    FREAK_VALUE,
    PatchValues,
)


def is_regular(f: Feature) -> bool:
    """A complete beast of its species' shape; anything else (loops too) is a freak."""
    if f.btype == "blue":
        return f.heads == 1 and f.tails == 1 and f.bodies >= 1 and not f.ends and not f.saddles
    if f.btype == "orange":
        return f.ends == 2 and not (f.heads or f.tails or f.saddles)
    if f.btype == "worm":
        return f.ends == 2 and f.saddles == 1 and not (f.heads or f.tails)
    return False


def feature_kind(f: Feature) -> str:
    """What a feature counts as once completed: grass, sand, blue, orange, worm or freak."""
    if f.beast:
        return f.btype if is_regular(f) else "freak"
    return "grass" if f.terrain == "G" else "sand"


def completed_value(f: Feature, patch: PatchValues) -> int:
    if f.beast:
        return BEAST_SEGMENT_VALUE[f.btype] * f.size if is_regular(f) else FREAK_VALUE
    return f.bulges * patch.bulge + f.gold * patch.gold + f.silver * patch.silver \
        + f.flower * patch.flower


def unfinished_value(f: Feature) -> int:
    if f.beast:
        return END_SEGMENT_VALUE * f.size
    return f.bulges * END_PATCH.bulge + f.gold + f.silver + f.flower


def describe(f: Feature) -> str:
    if f.beast:
        shape = "freak " if f.complete and not is_regular(f) else ""  # unfinished: not yet
        return f"{shape}{f.kind_name()} of {f.size} segment{'s' * (f.size != 1)}"
    items = [f"{n} {k}" for n, k in ((f.gold, "gold"), (f.silver, "silver"),
                                      (f.flower, "flower")) if n]
    return f"{f.kind_name()} with {f.bulges} bulge{'s' * (f.bulges != 1)}" + (
        f" and {', '.join(items)}" if items else "")


def majority(counts: list[int]) -> list[int]:
    """Seats holding the most tokens (none if nobody holds one); ties all score."""
    top = max(counts, default=0)
    return [s for s, c in enumerate(counts) if c == top] if top else []
