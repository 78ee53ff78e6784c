"""Validation of a tile catalogue (pure Python, no I/O, no engine imports).

``check_tile`` checks one tile against the tile model of
shared/spec/marram-model.md; ``check_catalogue`` checks every tile, the
starter and, by default, the mix of the standard catalogue (the rule book's
95 tiles). Both return human-readable problems; an empty list means valid.
Custom catalogues (tests, records) pass ``mix=False`` to skip the mix rules.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

TERRAINS = ("G", "S")
ITEM_TERRAIN = {"gold": "G", "silver": "G", "flower": "S"}
# (type, kind) -> number of sides
SEGMENT_SIDES: dict[tuple[str, str], int] = {
    ("blue", "head"): 1, ("blue", "tail"): 1, ("blue", "body"): 2,
    ("orange", "end"): 1, ("orange", "body"): 2,
    ("worm", "end"): 1, ("worm", "body"): 2, ("worm", "saddle"): 2,
    ("any", "body"): 2,
}
BEAST_TYPES = ("blue", "orange", "worm", "any")
TILE_KEYS = {"spade", "front"}
FACE_KEYS = {"terrain", "links", "items", "beasts"}
STANDARD_TILES = 95


# ---------------------------------------------------------------- geometry
def runs(terrain: str) -> list[int]:
    """Run index of each of the 8 arcs (circular runs of one terrain)."""
    if len(set(terrain)) == 1:
        return [0] * 8
    start = next(p for p in range(8) if terrain[p] != terrain[p - 1])
    out = [0] * 8
    r = -1
    for i in range(8):
        p = (start + i) % 8
        if terrain[p] != terrain[p - 1]:
            r += 1
        out[p] = r
    return out


def chords_cross(a: int, b: int, c: int, d: int) -> bool:
    """Chords (a, b) and (c, d) of the 8-arc circle cross: exactly one of c, d
    lies strictly between a and b going round. Chords sharing an end do not."""
    if len({a, b, c, d}) < 4:
        return False

    def between(x: int) -> bool:
        return 0 < (x - a) % 8 < (b - a) % 8

    return between(c) != between(d)


def side_triple(terrain: str, s: int) -> str:
    return terrain[2 * s] + terrain[2 * s + 1] + terrain[(2 * s + 2) % 8]


def swapped(terrain: str) -> str:
    return terrain.translate(str.maketrans("GS", "SG"))


def rotated(terrain: str, r: int) -> str:
    out = [""] * 8
    for p in range(8):
        out[(p + 2 * r) % 8] = terrain[p]
    return "".join(out)


def side_types(beasts: list[dict[str, Any]]) -> list[str | None]:
    out: list[str | None] = [None] * 4
    for b in beasts:
        for s in b["sides"]:
            out[s] = b["type"]
    return out


def flip_rotations(face: dict[str, Any]) -> list[int]:
    """Rotations r of a spade tile's back (terrain swapped, links and beasts
    kept) that show, on every side, the front's terrain triple and beast type."""
    terrain = face["terrain"]
    back = swapped(terrain)
    beasts = side_types(face.get("beasts", []))
    ok = []
    for r in range(4):
        t = rotated(back, r)
        if all(side_triple(t, s) == side_triple(terrain, s) for s in range(4)) and all(
            beasts[(s - r) % 4] == beasts[s] for s in range(4)
        ):
            ok.append(r)
    return ok


# ---------------------------------------------------------------- one tile
def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_tile(tile_id: str, tile: Any) -> list[str]:
    """Problems with one tile definition (empty when valid): its shape, then its
    links, items and beasts, then whether a spade tile survives its flip."""
    where = f"tile {tile_id}"
    p, face = _shape_problems(where, tile)
    if face is None:
        return p
    terrain: str = face["terrain"]
    spade = tile.get("spade") is True
    p += _links_problems(where, terrain, _listed(where, face, "links", p))
    p += _items_problems(where, terrain, spade, _listed(where, face, "items", p))
    beast_problems, good_beasts = _beasts_problems(where, _listed(where, face, "beasts", p))
    p += beast_problems
    # spade tiles must fit in their own place after a flip
    if spade and not p and not flip_rotations({**face, "beasts": good_beasts}):
        p.append(f"{where}: spade tile is not flip-compatible (no rotation of the back "
                 f"shows the front's terrain and beasts on every side)")
    return p


def _shape_problems(where: str, tile: Any) -> tuple[list[str], dict[str, Any] | None]:
    """The tile's keys, its spade flag and its front's keys and terrain; the front,
    or None when it is too broken to check further."""
    if not isinstance(tile, dict):
        return [f"{where}: not an object"], None
    p: list[str] = []
    extra = set(tile) - TILE_KEYS
    if extra:
        p.append(f"{where}: unknown keys {sorted(extra)}")
    if not isinstance(tile.get("spade"), bool):
        p.append(f"{where}: 'spade' must be true or false")
    face = tile.get("front")
    if not isinstance(face, dict):
        return p + [f"{where}: 'front' must be an object"], None
    extra = set(face) - FACE_KEYS
    if extra:
        p.append(f"{where}: unknown face keys {sorted(extra)}")
    terrain = face.get("terrain")
    if not (isinstance(terrain, str) and len(terrain) == 8 and set(terrain) <= set(TERRAINS)):
        return p + [f"{where}: terrain must be 8 letters G/S, got {terrain!r}"], None
    return p, face


def _listed(where: str, face: dict[str, Any], key: str, p: list[str]) -> list[Any]:
    """The face's list under ``key`` (none: empty); anything else is a problem,
    added to ``p``, and read as empty."""
    found = face.get(key, [])
    if isinstance(found, list):
        return found
    p.append(f"{where}: {key} must be a list")
    return []


def _links_problems(where: str, terrain: str, links: list[Any]) -> list[str]:
    """Each link joins two runs of one terrain; no two join the same runs; a grass
    link and a sand link never cross."""
    run = runs(terrain)
    p: list[str] = []
    good_links: list[tuple[int, int]] = []
    for link in links:
        problem = _link_problem(link, terrain, run)
        if problem:
            p.append(f"{where}: {problem}")
        else:
            good_links.append((link[0], link[1]))
    seen_pairs: set[frozenset[int]] = set()
    for a, b in good_links:
        key = frozenset((run[a], run[b]))
        if key in seen_pairs:
            p.append(f"{where}: link {[a, b]} repeats another link")
        seen_pairs.add(key)
    for i, (a, b) in enumerate(good_links):
        for c, d in good_links[i + 1:]:
            if terrain[a] != terrain[c] and chords_cross(a, b, c, d):
                p.append(f"{where}: grass and sand links {[a, b]} and {[c, d]} cross")
    return p


def _link_problem(link: Any, terrain: str, run: list[int]) -> str | None:
    if not (isinstance(link, list) and len(link) == 2 and all(_is_int(a) for a in link)):
        return f"link {link!r} must be two arcs"
    a, b = link
    if not (0 <= a < 8 and 0 <= b < 8):
        return f"link {link} has an arc outside 0..7"
    if terrain[a] != terrain[b]:
        return f"link {link} joins grass to sand"
    if run[a] == run[b]:
        return f"link {link} joins a run to itself"
    return None


def _items_problems(where: str, terrain: str, spade: bool, items: list[Any]) -> list[str]:
    """A spade tile carries no items; each item is of a known kind, on its terrain."""
    p: list[str] = []
    if spade and items:
        p.append(f"{where}: a spade tile carries no items")
    for item in items:
        problem = _item_problem(item, terrain)
        if problem:
            p.append(f"{where}: {problem}")
    return p


def _item_problem(item: Any, terrain: str) -> str | None:
    if not (isinstance(item, dict) and set(item) == {"arc", "kind"}):
        return f"item {item!r} must be {{'arc', 'kind'}}"
    arc, kind = item["arc"], item["kind"]
    if not (_is_int(arc) and 0 <= arc < 8):
        return f"item arc {arc!r} outside 0..7"
    if kind not in ITEM_TERRAIN:
        return f"unknown item kind {kind!r}"
    if terrain[arc] != ITEM_TERRAIN[kind]:
        return f"{kind} on arc {arc} lies on {'sand' if terrain[arc] == 'S' else 'grass'}"
    return None


def _beasts_problems(where: str, beasts: list[Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """Each segment is a known type and kind on as many distinct sides as its kind
    has; no side carries two segments. Also the segments that passed."""
    p: list[str] = []
    used: dict[int, int] = {}
    good_beasts: list[dict[str, Any]] = []
    for i, seg in enumerate(beasts):
        problem = _segment_problem(seg)
        if problem:
            p.append(f"{where}: {problem}")
            continue
        clash = False
        for s in seg["sides"]:
            if s in used:
                p.append(f"{where}: side {s} carries two segments")
                clash = True
            used[s] = i
        if not clash:
            good_beasts.append(seg)
    return p, good_beasts


def _segment_problem(seg: Any) -> str | None:
    if not (isinstance(seg, dict) and set(seg) == {"type", "kind", "sides"}):
        return f"segment {seg!r} must be {{'type', 'kind', 'sides'}}"
    typ, kind, sides = seg["type"], seg["kind"], seg["sides"]
    if typ not in BEAST_TYPES:
        return f"unknown beast type {typ!r}"
    n = SEGMENT_SIDES.get((typ, kind))
    if n is None:
        return f"{typ} segments have no kind {kind!r}"
    if not (isinstance(sides, list) and all(_is_int(s) for s in sides)):
        return f"{typ} {kind} sides must be a list of side numbers"
    if len(sides) != n:
        return f"{typ} {kind} needs {n} side(s), has {len(sides)}"
    if any(not 0 <= s < 4 for s in sides):
        return f"{typ} {kind} has a side outside 0..3: {sides}"
    if len(set(sides)) != len(sides):
        return f"{typ} {kind} repeats a side: {sides}"
    return None


# ---------------------------------------------------------------- catalogue
def beast_types(tile: dict[str, Any]) -> set[str]:
    return {b["type"] for b in tile["front"].get("beasts", [])}


def check_mix(tiles: dict[str, Any], starter: str) -> list[str]:
    """The standard catalogue's mix, from the rule book (assumes valid tiles)."""
    p: list[str] = []
    deck = {k: v for k, v in tiles.items() if k != starter}
    want = {f"T{n:02d}" for n in range(1, STANDARD_TILES + 1)}
    if set(deck) != want:
        missing, extra = sorted(want - set(deck)), sorted(set(deck) - want)
        p.append(f"the catalogue must hold tiles T01..T{STANDARD_TILES} and the starter"
                 + (f"; missing {missing}" if missing else "")
                 + (f"; unexpected {extra}" if extra else ""))
    nseg = Counter(len(t["front"].get("beasts", [])) for t in deck.values())
    if any(n > 3 for n in nseg):
        p.append("a tile carries more than 3 beast segments")
    if sum(nseg[n] for n in (1, 2, 3)) * 2 <= len(deck):
        p.append("most tiles must carry 1 to 3 beast segments")
    plain = [k for k, t in deck.items()
             if not t["front"].get("beasts") and not t["front"].get("items")]
    if not plain:
        p.append("some tiles must show only terrain")
    kinds = Counter((b["type"], b["kind"])
                    for t in deck.values() for b in t["front"].get("beasts", []))
    items = Counter(i["kind"] for t in deck.values() for i in t["front"].get("items", []))
    for kind in ("gold", "silver", "flower"):
        if not items[kind]:
            p.append(f"some tiles must carry a {kind}")
    spade = {k: t for k, t in deck.items() if t["spade"]}
    if not spade:
        p.append("some tiles must carry a spade")
    with_beasts = Counter("+".join(sorted(beast_types(t)))
                          for t in spade.values() if beast_types(t))
    if with_beasts != Counter({"worm": 1, "orange": 2}):
        p.append("spade tiles with beasts must be exactly one worm tile and two orange-snake "
                 f"tiles, found {dict(with_beasts)}")
    if not any("any" in beast_types(t) for t in deck.values()):
        p.append("some tiles must be Beastly (type 'any' segments)")
    # balance of beast kinds
    heads, tails, bodies = kinds["blue", "head"], kinds["blue", "tail"], kinds["blue", "body"]
    if min(heads, tails, bodies) == 0:
        p.append("blue snakes need heads, tails and bodies")
    elif (max(heads, tails, bodies) > 2 * min(heads, tails, bodies)
          or abs(heads - tails) > max(2, heads // 5)):
        p.append(f"blue heads, tails and bodies are out of balance ({heads}, {tails}, {bodies})")
    for typ in ("orange", "worm"):
        ends = kinds[typ, "end"]
        bodies = kinds[typ, "body"] + kinds[typ, "saddle"]
        if ends == 0 or bodies == 0:
            p.append(f"{typ} beasts need ends and bodies")
        elif not (ends / 2 <= bodies <= ends * 2):
            p.append(f"{typ} ends and bodies are out of balance ({ends} ends, {bodies} bodies)")
    worms, saddles = kinds["worm", "end"] / 2, kinds["worm", "saddle"]
    if saddles == 0 or not (worms / 2 <= saddles <= worms * 2):
        p.append(f"worms need about one saddle each ({saddles} saddles for {worms:g} worms)")
    return p


def check_catalogue(tiles: dict[str, dict[str, Any]], starter: str, *,
                    mix: bool = True) -> list[str]:
    """Problems with a catalogue: every tile, the starter and (with ``mix``,
    the default) the standard catalogue's mix of tiles. Empty when valid."""
    if not isinstance(tiles, dict) or not tiles:
        return ["the catalogue must be a non-empty object of tiles"]
    p: list[str] = []
    for tid, tile in tiles.items():
        p += check_tile(str(tid), tile)
    if starter not in tiles:
        p.append(f"the starter {starter!r} is not in the catalogue")
    elif isinstance(tiles[starter], dict) and tiles[starter].get("spade") is not False:
        p.append(f"the starter {starter} must not carry a spade")
    if mix and not p:
        p += check_mix(tiles, starter)
    return p
