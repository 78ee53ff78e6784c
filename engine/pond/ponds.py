"""The four option sets of the note (shared/spec/pond.md): the size of the pond,
the eggs in each spawn and the target pile. A record may also spell a set out
as ``{"size", "eggs", "target"}``."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import RecordError
from ..protocol import JSON

MIN_SIZE, MAX_SIZE = 3, 12
MAX_EGGS = 99


@dataclass(frozen=True, slots=True)
class Pond:
    size: int
    eggs: int
    """Eggs in each player's spawn at the start."""
    target: int
    """Pieces in a pile that end the game."""


NAMED: dict[str, Pond] = {
    "big": Pond(5, 15, 10),        # the seed's regular game (the default)
    "small": Pond(4, 11, 7),       # the seed's Small Pond
    "small-13": Pond(4, 13, 10),   # later variations on BGA
    "small-14": Pond(4, 14, 10),
}
DEFAULT = "big"
CUSTOM = "custom"
"""The name ``options`` gives a set that a record spelled out."""


def name_of(pond: Pond) -> str | None:
    return next((name for name, p in NAMED.items() if p == pond), None)


def _number(raw: Mapping[str, JSON], key: str, low: int, high: int) -> int:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RecordError(f"the pond's {key!r} must be a whole number from {low} to {high}, "
                          f"not {value!r}")
    return value


def spelled_out(raw: Mapping[str, JSON]) -> Pond:
    """A set given as ``{"size", "eggs", "target"}`` (RecordError when it makes no game)."""
    unknown = sorted(set(raw) - {"size", "eggs", "target"})
    if unknown:
        raise RecordError(f"the pond has no option {unknown[0]!r}: it has size, eggs, target")
    return Pond(_number(raw, "size", MIN_SIZE, MAX_SIZE), _number(raw, "eggs", 1, MAX_EGGS),
                _number(raw, "target", 1, 2 * MAX_EGGS))


def pond_from_json(raw: JSON) -> Pond:
    """The record's ``config.options``: a name, a spelled-out set, or absent (big)."""
    if raw is None:
        return NAMED[DEFAULT]
    if isinstance(raw, str):
        if raw not in NAMED:
            raise RecordError(f"unknown Pond options {raw!r}: one of " + ", ".join(NAMED)
                              + ', or {"size", "eggs", "target"}')
        return NAMED[raw]
    if isinstance(raw, dict):
        return spelled_out(raw)
    raise RecordError('Pond\'s options are a name or {"size", "eggs", "target"}, '
                      f"not {raw!r}")


def pond_to_json(pond: Pond) -> JSON:
    """Canonical: the name when the set has one, else the set spelled out."""
    name = name_of(pond)
    if name is not None:
        return name
    return {"size": pond.size, "eggs": pond.eggs, "target": pond.target}
