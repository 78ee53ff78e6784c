"""Tile geometry: faces, the derived back, rotation, and the precomputed
oriented face that the board works with (spec: "A tile face", "A tile")."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import RecordError
from .types import Arc, BeastType, Face, ItemKind, Rotation, Side, side_arcs

BEAST_KINDS: dict[str, dict[str, int]] = {
    "blue": {"head": 1, "tail": 1, "body": 2},
    "orange": {"end": 1, "body": 2},
    "worm": {"end": 1, "body": 2, "saddle": 2},
    "any": {"body": 2},
}
ITEM_TERRAIN = {"gold": "G", "silver": "G", "flower": "S"}
SWAP = str.maketrans("GS", "SG")


@dataclass(frozen=True, slots=True)
class Segment:
    type: BeastType
    kind: str
    sides: tuple[Side, ...]


@dataclass(frozen=True, slots=True)
class Item:
    arc: Arc
    kind: ItemKind


@dataclass(frozen=True, slots=True)
class FaceDef:
    terrain: str
    links: tuple[tuple[Arc, Arc], ...] = ()
    items: tuple[Item, ...] = ()
    beasts: tuple[Segment, ...] = ()

    def swapped(self) -> FaceDef:
        """Grass and sand exchanged; links and beasts stay (a spade tile's back)."""
        return FaceDef(self.terrain.translate(SWAP), self.links, self.items, self.beasts)

    def mirrored(self) -> FaceDef:
        """Mirrored east-west: arc p goes to (2 - p) mod 8; beasts keep their sides."""
        terrain = ["G"] * 8
        for p, t in enumerate(self.terrain):
            terrain[(2 - p) % 8] = t
        links = tuple(((2 - a) % 8, (2 - b) % 8) for a, b in self.links)
        items = tuple(Item((2 - i.arc) % 8, i.kind) for i in self.items)
        return FaceDef("".join(terrain), links, items, self.beasts)


@dataclass(frozen=True, slots=True)
class Region:
    terrain: str
    arcs: tuple[Arc, ...]
    gold: int
    silver: int
    flower: int


@dataclass(frozen=True, slots=True)
class Oriented:
    """A face turned on the board: everything the board needs, precomputed."""

    terrain: str
    regions: tuple[Region, ...]
    region_of_arc: tuple[int, ...]
    side_regions: tuple[tuple[int, ...], ...]
    side_cw: tuple[str, ...]
    """Terrain triple along each side, read clockwise."""
    side_rev: tuple[str, ...]
    """The same, read anticlockwise: what a neighbour's side must equal."""
    segments: tuple[Segment, ...]
    """Segments with their sides rotated, indexed as in the face definition."""
    seg_at_side: tuple[int | None, ...]
    side_kinds: tuple[tuple[str, str | None], ...]
    """Each side as a neighbour must meet it: (terrain read clockwise, the type of
    the beast crossing it or None)."""


def orient(face: FaceDef, rotation: Rotation) -> Oriented:
    shift = 2 * rotation
    terrain = "".join(face.terrain[(p - shift) % 8] for p in range(8))
    parent = list(range(8))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for p in range(8):
        q = (p + 1) % 8
        if terrain[p] == terrain[q]:
            parent[find(p)] = find(q)
    for a, b in face.links:
        parent[find((a + shift) % 8)] = find((b + shift) % 8)
    roots: dict[int, int] = {}
    region_of_arc = []
    for p in range(8):
        region_of_arc.append(roots.setdefault(find(p), len(roots)))
    counts = [{"gold": 0, "silver": 0, "flower": 0} for _ in roots]
    for item in face.items:
        counts[region_of_arc[(item.arc + shift) % 8]][item.kind] += 1
    regions = tuple(
        Region(
            terrain[region_of_arc.index(r)],
            tuple(p for p in range(8) if region_of_arc[p] == r),
            counts[r]["gold"],
            counts[r]["silver"],
            counts[r]["flower"],
        )
        for r in range(len(roots))
    )
    side_regions = tuple(
        tuple(dict.fromkeys(region_of_arc[a] for a in side_arcs(s))) for s in range(4)
    )
    side_cw = tuple("".join(terrain[a] for a in side_arcs(s)) for s in range(4))
    segments = tuple(
        Segment(seg.type, seg.kind, tuple((s + rotation) % 4 for s in seg.sides))
        for seg in face.beasts
    )
    seg_at_side: list[int | None] = [None] * 4
    for i, seg in enumerate(segments):
        for s in seg.sides:
            seg_at_side[s] = i
    return Oriented(
        terrain,
        regions,
        tuple(region_of_arc),
        side_regions,
        side_cw,
        tuple(t[::-1] for t in side_cw),
        segments,
        tuple(seg_at_side),
        tuple((side_cw[s], None if i is None else segments[i].type)
              for s, i in enumerate(seg_at_side)),
    )


@dataclass(slots=True)
class TileDef:
    id: str
    spade: bool
    front: FaceDef
    _cache: dict[tuple[str, bool, int], Oriented] = field(default_factory=dict, repr=False)
    views: dict[tuple[object, ...], object] = field(default_factory=dict, repr=False)
    """Static parts of the player view, per orientation and per face as printed
    (engine.marram.view fills it and reads it back)."""

    def face(self, face: Face, inverted: bool = False) -> FaceDef:
        """A face as defined; ``inverted`` swaps its terrain (a tile that gained a spade)."""
        if face == "front":
            f = self.front
        elif self.spade:
            f = self.front.swapped()
        else:
            f = self.front.mirrored()
        return f.swapped() if inverted else f

    def oriented(self, face: Face, rotation: Rotation, inverted: bool = False) -> Oriented:
        key = (face, inverted, rotation)
        o = self._cache.get(key)
        if o is None:
            o = self._cache[key] = orient(self.face(face, inverted), rotation)
        return o

    @property
    def beasts(self) -> tuple[Segment, ...]:
        return self.front.beasts

    def to_json(self) -> dict[str, Any]:
        f = self.front
        front: dict[str, Any] = {"terrain": f.terrain}
        if f.links:
            front["links"] = [list(link) for link in f.links]
        if f.items:
            front["items"] = [{"arc": i.arc, "kind": i.kind} for i in f.items]
        if f.beasts:
            front["beasts"] = [
                {"type": b.type, "kind": b.kind, "sides": list(b.sides)} for b in f.beasts
            ]
        return {"spade": self.spade, "front": front}


def _int(value: Any, lo: int, hi: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise RecordError(f"{what} must be an integer from {lo} to {hi}, got {value!r}")
    checked: int = value
    return checked


def parse_tile(tile_id: str, raw: Any) -> TileDef:
    """Read a tile definition, checking only its shape (geometry: catalogue check)."""
    where = f"tile {tile_id!r}"
    if not isinstance(raw, dict) or not isinstance(raw.get("front"), dict):
        raise RecordError(f"{where}: expected {{'spade': bool, 'front': {{...}}}}")
    spade = raw.get("spade", False)
    if not isinstance(spade, bool):
        raise RecordError(f"{where}: 'spade' must be true or false")
    front = raw["front"]
    terrain = front.get("terrain")
    if not isinstance(terrain, str) or len(terrain) != 8 or set(terrain) - {"G", "S"}:
        raise RecordError(f"{where}: terrain must be 8 letters G or S, got {terrain!r}")
    links = []
    for link in front.get("links") or []:
        if not isinstance(link, list) or len(link) != 2:
            raise RecordError(f"{where}: a link is a pair of arcs, got {link!r}")
        arc = f"{where} link arc"
        links.append((_int(link[0], 0, 7, arc), _int(link[1], 0, 7, arc)))
    items = []
    for item in front.get("items") or []:
        if not isinstance(item, dict) or item.get("kind") not in ITEM_TERRAIN:
            raise RecordError(f"{where}: an item is {{'arc': k, 'kind': gold|silver|flower}}, "
                              f"got {item!r}")
        items.append(Item(_int(item.get("arc"), 0, 7, f"{where} item arc"), item["kind"]))
    beasts = []
    for seg in front.get("beasts") or []:
        if not isinstance(seg, dict) or seg.get("type") not in BEAST_KINDS:
            raise RecordError(f"{where}: a beast segment needs a type blue|orange|worm|any, "
                              f"got {seg!r}")
        kinds = BEAST_KINDS[seg["type"]]
        if seg.get("kind") not in kinds:
            raise RecordError(f"{where}: a {seg['type']} segment cannot be a {seg.get('kind')!r}")
        sides = seg.get("sides")
        if not isinstance(sides, list) or len(sides) != kinds[seg["kind"]]:
            raise RecordError(f"{where}: a {seg['type']} {seg['kind']} crosses "
                              f"{kinds[seg['kind']]} side(s), got {sides!r}")
        beasts.append(Segment(seg["type"], seg["kind"],
                              tuple(_int(s, 0, 3, f"{where} side") for s in sides)))
    used = [s for b in beasts for s in b.sides]
    if len(used) != len(set(used)):
        raise RecordError(f"{where}: a side carries at most one segment")
    return TileDef(tile_id, spade, FaceDef(terrain, tuple(links), tuple(items), tuple(beasts)))
