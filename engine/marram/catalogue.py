"""Tile catalogues: the project's standard set (``data/standard.json``) or a
custom mapping of tile ids to definitions, as records and tests give them."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..errors import RecordError
from .tiles import TileDef, parse_tile

STANDARD = "standard"


@dataclass(frozen=True, slots=True)
class Catalogue:
    name: str
    """'standard', or 'custom' for a catalogue given inline."""
    tiles: dict[str, TileDef]
    starter: str | None
    """The default starter (the standard set's); custom catalogues name it in the config."""

    def __getitem__(self, tile_id: str) -> TileDef:
        return self.tiles[tile_id]

    def deck_ids(self) -> list[str]:
        """Every tile but the starter, in catalogue order."""
        return [t for t in self.tiles if t != self.starter]

    def to_json(self) -> str | dict[str, Any]:
        if self.name == STANDARD:
            return STANDARD
        return {tid: t.to_json() for tid, t in self.tiles.items()}


def standard_raw() -> dict[str, Any]:
    text = resources.files("engine.marram").joinpath("data/standard.json").read_text()
    raw: dict[str, Any] = json.loads(text)
    return raw


@cache
def standard() -> Catalogue:
    raw = standard_raw()
    tiles = {tid: parse_tile(tid, t) for tid, t in raw["tiles"].items()}
    return Catalogue(STANDARD, tiles, raw["starter"])


def parse_catalogue(raw: Any) -> Catalogue:
    if raw == STANDARD or raw is None:
        return standard()
    if not isinstance(raw, dict) or not raw:
        raise RecordError("catalogue must be \"standard\" or an object mapping tile ids to tiles")
    return Catalogue("custom", {str(tid): parse_tile(str(tid), t) for tid, t in raw.items()}, None)


def check(raw: dict[str, Any] | None = None) -> list[str]:
    """Problems with a catalogue (the standard one by default); empty when valid."""
    from .catalogue_check import check_catalogue

    raw = raw if raw is not None else standard_raw()
    problems = check_catalogue(raw["tiles"], raw["starter"])
    if not problems:
        for tid, t in raw["tiles"].items():
            try:
                parse_tile(tid, t)
            except RecordError as e:
                problems.append(str(e))
    return problems
