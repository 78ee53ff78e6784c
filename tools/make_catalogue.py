#!/usr/bin/env python3
"""Generate the standard Marram tile catalogue (engine/data/standard.json).

DESIGN_NOTES_PLACEHOLDER
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from typing import Any, Iterator

Tile = dict[str, Any]
Face = dict[str, Any]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_PATH = os.path.join(ROOT, "engine", "data", "standard.json")

SEED = 0x4D617272616D  # "Marram"; the only source of randomness below.


# --------------------------------------------------------------------------
# A tiny deterministic PRNG (splitmix64), so the output never depends on the
# Python version's `random` module.
# --------------------------------------------------------------------------
class Rng:
    def __init__(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n

    def choice(self, seq: list[Any]) -> Any:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: list[Any]) -> None:
        for i in range(len(seq) - 1, 0, -1):
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def random(self) -> float:
        return (self.next() >> 11) / float(1 << 53)


# --------------------------------------------------------------------------
# Geometry helpers (spec: shared/spec/marram-model.md)
# --------------------------------------------------------------------------
X_MIXED = "S"  # middle arc of a side whose corners differ (the usual rule)


def terrain_from_corners(corners: str, odd: tuple[int, ...] = ()) -> str:
    """corners: 4 letters for arcs 0, 2, 4, 6 (NW, NE, SE, SW).

    The middle arc of side s is the colour of its corners when they agree,
    otherwise X_MIXED ("S"), except on the sides listed in `odd`, where a
    mixed side gets the other colour ("G")."""
    arcs = [""] * 8
    for s in range(4):
        a, b = corners[s], corners[(s + 1) % 4]
        arcs[2 * s] = a
        if a == b:
            arcs[2 * s + 1] = a
        else:
            arcs[2 * s + 1] = swap_letter(X_MIXED) if s in odd else X_MIXED
    return "".join(arcs)


def swap_letter(c: str) -> str:
    return "S" if c == "G" else "G"


def swap_terrain(t: str) -> str:
    return "".join(swap_letter(c) for c in t)


def runs_of(terrain: str) -> list[int]:
    """Run index of each arc (circular runs of equal letters)."""
    if len(set(terrain)) == 1:
        return [0] * 8
    start = next(p for p in range(8) if terrain[p] != terrain[p - 1])
    run = [0] * 8
    r = -1
    for i in range(8):
        p = (start + i) % 8
        if terrain[p] != terrain[p - 1]:
            r += 1
        run[p] = r
    return run


def regions_of(face: Face) -> list[int]:
    """Region index of each arc: runs merged by links."""
    run = runs_of(face["terrain"])
    parent = list(range(max(run) + 1))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in face.get("links", []):
        parent[find(run[a])] = find(run[b])
    roots: dict[int, int] = {}
    out = []
    for p in range(8):
        out.append(roots.setdefault(find(run[p]), len(roots)))
    return out


def rotate_face(face: Face, r: int) -> Face:
    r %= 4
    t = face["terrain"]
    nt = [""] * 8
    for p in range(8):
        nt[(p + 2 * r) % 8] = t[p]
    out: Face = {"terrain": "".join(nt)}
    if "links" in face:
        out["links"] = [[(a + 2 * r) % 8, (b + 2 * r) % 8] for a, b in face["links"]]
    if "items" in face:
        out["items"] = [{"arc": (i["arc"] + 2 * r) % 8, "kind": i["kind"]} for i in face["items"]]
    if "beasts" in face:
        out["beasts"] = [
            {"type": b["type"], "kind": b["kind"], "sides": [(s + r) % 4 for s in b["sides"]]}
            for b in face["beasts"]
        ]
    return out


def back_face(tile: Tile) -> Face:
    f = tile["front"]
    if tile["spade"]:
        out: Face = {"terrain": swap_terrain(f["terrain"])}
        if "links" in f:
            out["links"] = [list(l) for l in f["links"]]
        if "beasts" in f:
            out["beasts"] = [dict(b, sides=list(b["sides"])) for b in f["beasts"]]
        return out
    t = f["terrain"]
    out = {"terrain": "".join(t[(2 - p) % 8] for p in range(8))}
    if "links" in f:
        out["links"] = [[(2 - a) % 8, (2 - b) % 8] for a, b in f["links"]]
    if "items" in f:
        out["items"] = [{"arc": (2 - i["arc"]) % 8, "kind": i["kind"]} for i in f["items"]]
    if "beasts" in f:
        out["beasts"] = [dict(b, sides=list(b["sides"])) for b in f["beasts"]]
    return out


def side_triple(terrain: str, s: int) -> str:
    return terrain[2 * s] + terrain[2 * s + 1] + terrain[(2 * s + 2) % 8]


def side_beasts(face: Face) -> list[str | None]:
    out: list[str | None] = [None] * 4
    for b in face.get("beasts", []):
        for s in b["sides"]:
            out[s] = b["type"]
    return out


def side_class(triple: str) -> str:
    """Orientation-free name of a side pattern."""
    a, m, c = triple
    if a == c:
        return a + m + c
    return ("mixed-mid" + m)


# --------------------------------------------------------------------------
# The catalogue
# --------------------------------------------------------------------------
# Corner classes (NW, NE, SE, SW); every rotation of a tile is playable, so
# one representative per class is enough (the generator still rotates the
# printed face at random so that the data does not look stamped).
CLASSES = {
    "0G": "SSSS",   # all sand
    "1G": "GSSS",   # one grass corner
    "2A": "GGSS",   # grass half, sand half
    "2D": "GSGS",   # diagonal corners
    "3G": "GGGS",   # one sand corner
    "4G": "GGGG",   # all grass
}

# Mixed sides of each class (side index s whose corners differ).
def mixed_sides(corners: str) -> list[int]:
    return [s for s in range(4) if corners[s] != corners[(s + 1) % 4]]


# Beast segment kinds, with side counts.
KIND_SIDES = {
    ("blue", "head"): 1, ("blue", "tail"): 1, ("blue", "body"): 2,
    ("orange", "end"): 1, ("orange", "body"): 2,
    ("worm", "end"): 1, ("worm", "body"): 2, ("worm", "saddle"): 2,
    ("any", "body"): 2,
}

# ---- tunable mix (see the docstring for the reasoning) ----
N_TILES = 95
# Spade tiles: (terrain kind, beasts); "half" = half grass / half sand with one
# odd side, flipped by a half turn; "pin" = pinwheel with a link, flipped by a
# quarter turn (the flip moves the link from the grass to the sand diagonal).
SPADE_TILES: list[tuple[str, list[tuple[str, str, tuple[int, ...]]], list[list[int]]]] = [
    ("half", [], []),
    ("half", [], []),
    ("half", [], []),
    ("pin", [], [[0, 4]]),
    ("pin", [], [[2, 6]]),
    ("pin", [], [[0, 4]]),
    ("half", [("orange", "body", (0, 2))], []),
    ("half", [("orange", "body", (1, 3))], []),
    ("half", [("worm", "body", (0, 2))], []),
]

# Non-spade tiles. Number of beast segments per tile -> number of tiles
# (the beastly tiles are counted apart, below).
SEGMENTS_PER_TILE = {0: 9, 1: 58, 2: 12, 3: 2}
# Beastly tiles ("any" bodies): any-body segments on each beastly tile.
BEASTLY = [1, 1, 1, 1, 2]
# Segment pool for the non-spade beast tiles (must total the segments above).
SEGMENT_POOL = {
    ("blue", "head"): 12, ("blue", "tail"): 12, ("blue", "body"): 11,
    ("orange", "end"): 18, ("orange", "body"): 10,
    ("worm", "end"): 14, ("worm", "saddle"): 7, ("worm", "body"): 4,
}
# Corner class of every non-spade tile (must total 95 - spade tiles).
CLASS_COUNTS = {"0G": 3, "4G": 3, "1G": 16, "3G": 16, "2A": 10, "2D": 38}
# Links on the diagonal ("2D") non-spade tiles: grass link, sand link.
DIAG_LINKS = {"G": 7, "S": 7}
# Non-spade tiles that get one odd mixed side (middle "G"), so that the odd
# sides that every spade tile must have can be answered.
N_ODD_TILES = 4
ITEMS = {"gold": 4, "silver": 6, "flower": 8}

STARTER: Tile = {
    "spade": False,
    "front": {
        "terrain": terrain_from_corners("GGSS"),
        "beasts": [{"type": "blue", "kind": "body", "sides": [0, 2]}],
    },
}


def spade_face(kind: str, beasts: list[tuple[str, str, tuple[int, ...]]], links: list[list[int]]) -> Face:
    if kind == "half":
        terrain = terrain_from_corners("GGSS", odd=(3,))  # GGGSSSSG
    else:
        terrain = "GGSSGGSS"  # pinwheel: each middle follows the corner before it
    face: Face = {"terrain": terrain}
    if links:
        face["links"] = [list(l) for l in links]
    if beasts:
        face["beasts"] = [{"type": t, "kind": k, "sides": list(s)} for t, k, s in beasts]
    return face


# Side layouts for segment groups (before a random rotation). Bodies are never
# laid across each other: two bodies on one tile are two bends.
def layouts(n_sides: list[int], rng: Rng) -> list[list[int]]:
    """Choose sides for segments needing n_sides[i] sides each."""
    order = sorted(range(len(n_sides)), key=lambda i: -n_sides[i])
    need = [n_sides[i] for i in order]
    two = need.count(2)
    result: list[list[int]] = [[] for _ in need]
    if two == 2:
        sides_pairs = [[0, 1], [2, 3]]
        free: list[int] = []
    elif two == 1:
        if rng.random() < 0.5:
            sides_pairs = [[0, 2]]  # straight
            free = [1, 3]
        else:
            sides_pairs = [[0, 1]]  # bend
            free = [2, 3]
    else:
        sides_pairs = []
        free = [0, 1, 2, 3]
    rng.shuffle(free)
    k = 0
    for idx, n in enumerate(need):
        if n == 2:
            result[idx] = sides_pairs[k]
            k += 1
        else:
            result[idx] = [free.pop()]
    out: list[list[int]] = [[] for _ in need]
    for pos, i in enumerate(order):
        out[i] = result[pos]
    return out


def build_catalogue() -> dict[str, Any]:
    rng = Rng(SEED)
    tiles: list[Tile] = []

    # ---- spade tiles
    for kind, beasts, links in SPADE_TILES:
        tiles.append({"spade": True, "front": spade_face(kind, beasts, links)})

    # ---- terrain classes for the non-spade tiles
    n_plain = N_TILES - len(SPADE_TILES)
    classes: list[str] = []
    for name, n in CLASS_COUNTS.items():
        classes += [name] * n
    assert len(classes) == n_plain, (len(classes), n_plain)
    rng.shuffle(classes)

    # ---- beast content for the non-spade tiles
    pool: list[tuple[str, str]] = []
    for key, n in SEGMENT_POOL.items():
        pool += [key] * n
    rng.shuffle(pool)
    counts: list[int] = []
    for n, k in SEGMENTS_PER_TILE.items():
        counts += [n] * k
    assert sum(counts) == len(pool), (sum(counts), len(pool))
    # fill the tiles with the most segments first; a tile has 4 sides
    contents: list[list[tuple[str, str]]] = []
    for n in sorted(counts, reverse=True):
        segs: list[tuple[str, str]] = []
        for _ in range(n):
            used = sum(KIND_SIDES[k] for k in segs)
            left = n - len(segs) - 1  # segments still to come after this one
            j = next(j for j in range(len(pool) - 1, -1, -1)
                     if used + KIND_SIDES[pool[j]] + left <= 4)
            segs.append(pool.pop(j))
        contents.append(segs)
    for n in BEASTLY:
        contents.append([("any", "body")] * n)
    assert len(contents) == n_plain, (len(contents), n_plain)
    rng.shuffle(contents)

    # ---- build faces
    diag_links = ["G"] * DIAG_LINKS["G"] + ["S"] * DIAG_LINKS["S"]
    odd_left = N_ODD_TILES
    plain_faces: list[Face] = []
    for i in range(n_plain):
        corners = CLASSES[classes[i]]
        odd: tuple[int, ...] = ()
        mixed = mixed_sides(corners)
        if odd_left and mixed and classes[i] != "2D":
            odd = (rng.choice(mixed),)
            odd_left -= 1
        face: Face = {"terrain": terrain_from_corners(corners, odd)}
        if classes[i] == "2D" and diag_links:
            which = diag_links.pop()
            face["links"] = [[0, 4]] if which == "G" else [[2, 6]]
        segs = contents[i]
        if segs:
            sides = layouts([KIND_SIDES[k] for k in segs], rng)
            face["beasts"] = [
                {"type": t, "kind": k, "sides": sorted(sd)} for (t, k), sd in zip(segs, sides)
            ]
        plain_faces.append(face)
    assert odd_left == 0 and not diag_links

    # ---- items: coins on grass, flowers on sand, one item a tile
    item_list = []
    for kind, n in ITEMS.items():
        item_list += [kind] * n
    order = list(range(n_plain))
    rng.shuffle(order)
    for kind in item_list:
        want = "S" if kind == "flower" else "G"
        for j, i in enumerate(order):
            face = plain_faces[i]
            arcs = [p for p in (0, 2, 4, 6) if face["terrain"][p] == want]
            if arcs and "items" not in face:
                face["items"] = [{"arc": rng.choice(arcs), "kind": kind}]
                order.pop(j)
                break
        else:
            raise ValueError("no tile for item %s" % kind)

    for face in plain_faces:
        tiles.append({"spade": False, "front": rotate_face(face, rng.below(4))})

    rng.shuffle(tiles)
    out: dict[str, Tile] = {"S0": STARTER}
    for n, t in enumerate(tiles, 1):
        out["T%02d" % n] = normalise(t)
    return {"format": "marram-catalogue", "version": 1, "starter": "S0", "tiles": out}


def normalise(tile: Tile) -> Tile:
    f = tile["front"]
    face: Face = {"terrain": f["terrain"]}
    if f.get("links"):
        face["links"] = [sorted(l) for l in f["links"]]
    if f.get("items"):
        face["items"] = f["items"]
    if f.get("beasts"):
        face["beasts"] = [{"type": b["type"], "kind": b["kind"], "sides": sorted(b["sides"])} for b in f["beasts"]]
    return {"spade": tile["spade"], "front": face}


def dump(cat: dict[str, Any]) -> str:
    lines = ["{", '  "format": %s,' % json.dumps(cat["format"]), '  "version": %d,' % cat["version"],
             '  "starter": %s,' % json.dumps(cat["starter"]), '  "tiles": {']
    items = list(cat["tiles"].items())
    for n, (tid, tile) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        lines.append("    %s: %s%s" % (json.dumps(tid), json.dumps(tile, separators=(", ", ": ")), comma))
    lines += ["  }", "}", ""]
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Counts for the docstring
# --------------------------------------------------------------------------
def summary(cat: dict[str, Any]) -> str:
    tiles = {k: v for k, v in cat["tiles"].items() if k != cat["starter"]}
    segs = Counter(len(t["front"].get("beasts", [])) for t in tiles.values())
    kinds = Counter((b["type"], b["kind"]) for t in tiles.values() for b in t["front"].get("beasts", []))
    sides_by_type = Counter(b["type"] for t in tiles.values() for b in t["front"].get("beasts", []) for _ in b["sides"])
    spade = [t for t in tiles.values() if t["spade"]]
    spade_beasts = Counter(
        "+".join(sorted({b["type"] for b in t["front"]["beasts"]})) for t in spade if t["front"].get("beasts")
    )
    beastly = sum(1 for t in tiles.values() if any(b["type"] == "any" for b in t["front"].get("beasts", [])))
    items = Counter(i["kind"] for t in tiles.values() for i in t["front"].get("items", []))
    links = Counter(t["front"]["terrain"][l[0]] for t in tiles.values() for l in t["front"].get("links", []))
    corner_cls = Counter(
        "".join(sorted(t["front"]["terrain"][p] for p in (0, 2, 4, 6))) for t in tiles.values()
    )
    side_pat: Counter[str] = Counter()
    for t in tiles.values():
        for face in (t["front"], back_face(t)):
            for s in range(4):
                side_pat[side_class(side_triple(face["terrain"], s))] += 1
    beast_sides = sum(sides_by_type.values())
    out = []
    out.append("tiles: %d (+ starter %s)" % (len(tiles), cat["starter"]))
    out.append("tiles by number of beast segments: " + ", ".join("%d: %d" % (k, segs[k]) for k in sorted(segs)))
    out.append("spade tiles: %d (with beasts: %s)" % (len(spade), dict(spade_beasts)))
    out.append("beastly tiles: %d" % beastly)
    out.append("segments: " + ", ".join("%s %s %d" % (t, k, n) for (t, k), n in sorted(kinds.items())))
    out.append("beast sides: %d of %d (%s)" % (beast_sides, 4 * len(tiles), dict(sorted(sides_by_type.items()))))
    out.append("items: %s" % dict(sorted(items.items())))
    out.append("links: %s" % dict(sorted(links.items())))
    out.append("corner classes (sorted corners): %s" % dict(sorted(corner_cls.items())))
    out.append("side patterns over both faces: %s" % dict(sorted(side_pat.items())))
    return "\n".join(out)


# --------------------------------------------------------------------------
# Throwaway simulation: random legal placement with the spec's matching rules
# --------------------------------------------------------------------------
DIRS = [(0, -1), (1, 0), (0, 1), (-1, 0)]


class Orient:
    __slots__ = ("terrain", "triples", "need", "beast", "segs", "region", "nregions")

    def __init__(self, face: Face) -> None:
        self.terrain = face["terrain"]
        self.triples = [side_triple(self.terrain, s) for s in range(4)]
        # what a neighbour across side s must show on its side s+2
        self.need = [t[::-1] for t in self.triples]
        self.beast = side_beasts(face)
        self.segs = [(b["type"], b["kind"], tuple(b["sides"])) for b in face.get("beasts", [])]
        self.region = regions_of(face)
        self.nregions = max(self.region) + 1


def orientations(tile: Tile) -> list[Orient]:
    out = []
    seen = set()
    for face in (tile["front"], back_face(tile)):
        for r in range(4):
            f = rotate_face(face, r)
            key = json.dumps(f, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            out.append(Orient(f))
    return out


class Board:
    def __init__(self) -> None:
        self.tiles: dict[tuple[int, int], Orient] = {}
        self.seg_parent: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self.seg_type: dict[tuple[int, int, int], str] = {}
        self.frontier: set[tuple[int, int]] = set()

    def find(self, k: tuple[int, int, int]) -> tuple[int, int, int]:
        p = self.seg_parent
        while p[k] != k:
            p[k] = p[p[k]]
            k = p[k]
        return k

    def seg_at(self, pos: tuple[int, int], side: int) -> tuple[int, int, int] | None:
        o = self.tiles[pos]
        for i, (_, _, sides) in enumerate(o.segs):
            if side in sides:
                return (pos[0], pos[1], i)
        return None

    def fits(self, pos: tuple[int, int], o: Orient) -> bool:
        x, y = pos
        nbrs = []
        for s in range(4):
            n = self.tiles.get((x + DIRS[s][0], y + DIRS[s][1]))
            if n is None:
                continue
            if n.triples[(s + 2) % 4] != o.need[s]:
                return False
            a, b = o.beast[s], n.beast[(s + 2) % 4]
            if (a is None) != (b is None):
                return False
            if a is not None and a != b and a != "any" and b != "any":
                return False
            if a is not None:
                nbrs.append(s)
        if not nbrs:
            return True
        # the join through each segment holds at most one concrete type
        for t, _, sides in o.segs:
            types = set() if t == "any" else {t}
            for s in sides:
                if s in nbrs:
                    k = self.seg_at((x + DIRS[s][0], y + DIRS[s][1]), (s + 2) % 4)
                    assert k is not None
                    rt = self.seg_type[self.find(k)]
                    if rt != "any":
                        types.add(rt)
            if len(types) > 1:
                return False
        return True

    def place(self, pos: tuple[int, int], o: Orient) -> None:
        x, y = pos
        self.tiles[pos] = o
        self.frontier.discard(pos)
        for s in range(4):
            q = (x + DIRS[s][0], y + DIRS[s][1])
            if q not in self.tiles:
                self.frontier.add(q)
        for i, (t, _, sides) in enumerate(o.segs):
            k = (x, y, i)
            self.seg_parent[k] = k
            self.seg_type[k] = t
            for s in sides:
                q = (x + DIRS[s][0], y + DIRS[s][1])
                if q in self.tiles:
                    other = self.seg_at(q, (s + 2) % 4)
                    assert other is not None
                    ra, rb = self.find(k), self.find(other)
                    if ra != rb:
                        ta, tb = self.seg_type[ra], self.seg_type[rb]
                        self.seg_parent[ra] = rb
                        self.seg_type[rb] = tb if tb != "any" else ta

    def legal(self, o_list: list[Orient]) -> Iterator[tuple[tuple[int, int], Orient]]:
        for pos in self.frontier:
            for o in o_list:
                if self.fits(pos, o):
                    yield pos, o

    # ---- end-of-game feature analysis
    def features(self) -> dict[str, int]:
        parent: dict[Any, Any] = {}

        def find(k: Any) -> Any:
            while parent[k] != k:
                parent[k] = parent[parent[k]]
                k = parent[k]
            return k

        def union(a: Any, b: Any) -> None:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb

        tiles = self.tiles
        for pos, o in tiles.items():
            for r in range(o.nregions):
                parent[("r", pos, r)] = ("r", pos, r)
            for i in range(len(o.segs)):
                parent[("b", pos, i)] = ("b", pos, i)
        open_nodes = set()
        for (x, y), o in tiles.items():
            for s in range(4):
                q = (x + DIRS[s][0], y + DIRS[s][1])
                n = tiles.get(q)
                arcs = (2 * s, 2 * s + 1, (2 * s + 2) % 8)
                if n is None:
                    for p in arcs:
                        open_nodes.add(("r", (x, y), o.region[p]))
                    for i, (_, _, sides) in enumerate(o.segs):
                        if s in sides:
                            open_nodes.add(("b", (x, y), i))
                    continue
                s2 = (s + 2) % 4
                narcs = (2 * s2 + 2) % 8, 2 * s2 + 1, 2 * s2
                for p, pn in zip(arcs, narcs):
                    union(("r", (x, y), o.region[p]), ("r", q, n.region[pn]))
                for i, (_, _, sides) in enumerate(o.segs):
                    if s in sides:
                        for j, (_, _, nsides) in enumerate(n.segs):
                            if s2 in nsides:
                                union(("b", (x, y), i), ("b", q, j))
        open_roots = {find(k) for k in open_nodes}
        res: Counter[str] = Counter()
        # patches
        terrain_of = {}
        for pos, o in tiles.items():
            for p in range(8):
                terrain_of[find(("r", pos, o.region[p]))] = o.terrain[p]
        for root, terr in terrain_of.items():
            key = "grass" if terr == "G" else "sand"
            res[key + "_patches"] += 1
            if root not in open_roots:
                res[key + "_complete"] += 1
        # bulges: grid point (x, y) is the NW corner of tile (x, y)
        for (x, y), o in tiles.items():
            around = [((x - 1, y - 1), 4), ((x, y - 1), 6), ((x, y), 0), ((x - 1, y), 2)]
            if all(p in tiles for p, _ in around):
                res["points_surrounded"] += 1
                roots = {find(("r", p, tiles[p].region[a])) for p, a in around}
                if len(roots) == 1:
                    res["bulges"] += 1
                    if next(iter(roots)) not in open_roots:
                        res["bulges_complete"] += 1
        # beasts
        beasts: dict[Any, list[tuple[str, str]]] = {}
        for pos, o in tiles.items():
            for i, (t, k, _) in enumerate(o.segs):
                beasts.setdefault(find(("b", pos, i)), []).append((t, k))
        for root, segs in beasts.items():
            types = {t for t, _ in segs if t != "any"}
            typ = types.pop() if types else "any"
            res["beasts"] += 1
            res["beasts_" + typ] += 1
            if root in open_roots:
                continue
            kinds = Counter(k for _, k in segs)
            regular = False
            if typ == "blue":
                regular = kinds["head"] == 1 and kinds["tail"] == 1 and kinds["body"] >= 1
            elif typ == "orange":
                regular = kinds["end"] == 2
            elif typ == "worm":
                regular = kinds["end"] == 2 and kinds["saddle"] == 1
            res[(typ if regular else "freak") + "_complete"] += 1
            if not regular:
                res["freak_" + typ] += 1
        return dict(res)


def simulate(cat: dict[str, Any], games: int, seed: int, players: int, policy: str) -> dict[str, float]:
    rng = Rng(seed)
    ids = [k for k in cat["tiles"] if k != cat["starter"]]
    ors = {k: orientations(cat["tiles"][k]) for k in ids}
    start = Orient(cat["tiles"][cat["starter"]]["front"])
    tot: Counter[str] = Counter()
    first_stuck: list[int] = []
    for _ in range(games):
        deck = list(ids)
        rng.shuffle(deck)
        b = Board()
        b.place((0, 0), start)
        hands: list[list[str]] = [[] for _ in range(players)]
        for h in hands:
            while len(h) < 3 and deck:
                h.append(deck.pop())
        stuck_at = None
        passes = 0
        player = 0
        while True:
            hand = hands[player]
            moved = False
            for _move in range(2):
                while True:
                    if not hand:
                        break
                    tot["hands_looked"] += 1
                    if policy == "engine":
                        # like engine/selfplay.py: a random (tile, face, rotation) that fits
                        # somewhere, then a random position where it fits
                        cand = [(tid, o) for tid in hand for o in ors[tid]]
                        rng.shuffle(cand)
                        opts = []
                        for tid, o in cand:
                            at = [p for p in b.frontier if b.fits(p, o)]
                            if at:
                                opts = [(tid, rng.choice(sorted(at)), o)]
                                break
                    else:
                        opts = []
                    for tid in (hand if policy != "engine" else []):
                        for pos, o in b.legal(ors[tid]):
                            opts.append((tid, pos, o))
                    if opts:
                        if policy == "slot":
                            slot = rng.choice(sorted({p for _, p, _ in opts}))
                            opts = [t for t in opts if t[1] == slot]
                        elif policy == "compact":
                            def nn(pos: tuple[int, int]) -> int:
                                return sum((pos[0] + dx, pos[1] + dy) in b.tiles for dx, dy in DIRS)
                            best = max(nn(p) for _, p, _ in opts)
                            opts = [t for t in opts if nn(t[1]) == best]
                        tid, pos, o = opts[rng.below(len(opts))]
                        hand.remove(tid)
                        b.place(pos, o)
                        tot["laid"] += 1
                        moved = True
                        break
                    # nothing fits: discard the hand, deal a fresh one
                    tot["discards"] += 1
                    tot["discarded_tiles"] += len(hand)
                    if stuck_at is None:
                        stuck_at = len(b.tiles) - 1
                    hand.clear()
                    while len(hand) < 3 and deck:
                        hand.append(deck.pop())
                if not hand:
                    break
            while len(hand) < 3 and deck:
                hand.append(deck.pop())
            if not moved and not deck and all(not h for h in hands):
                break
            if not moved:
                passes += 1
                if passes >= players and not deck:
                    break
            else:
                passes = 0
            player = (player + 1) % players
        all_or = [o for k in ids for o in ors[k]]
        for pos in b.frontier:
            nb = sum((pos[0] + dx, pos[1] + dy) in b.tiles for dx, dy in DIRS)
            if nb >= 2:
                tot["holes"] += 1
                if not any(b.fits(pos, o) for o in all_or):
                    tot["dead_holes"] += 1
        first_stuck.append(stuck_at if stuck_at is not None else len(b.tiles) - 1)
        for k, v in b.features().items():
            tot[k] += v
        tot["games"] += 1
    g = tot["games"]
    out: dict[str, float] = {k: v / g for k, v in sorted(tot.items()) if k not in ("games",)}
    out["discard_rate"] = tot["discards"] / max(1, tot["hands_looked"])
    out["first_stuck_mean"] = sum(first_stuck) / len(first_stuck)
    out["first_stuck_min"] = min(first_stuck)
    out["games_never_stuck"] = sum(1 for s in first_stuck if s == len(ids)) / len(first_stuck)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--simulate", action="store_true", help="estimate fit rates with random play")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--policy", choices=["engine", "uniform", "slot", "compact"], default="engine")
    ap.add_argument("--summary", action="store_true", help="print the catalogue counts")
    ap.add_argument("--out", default=OUT_PATH)
    args = ap.parse_args(argv)
    cat = build_catalogue()
    if args.summary:
        print(summary(cat))
    if args.simulate:
        res = simulate(cat, args.games, args.seed, args.players, args.policy)
        for k, v in res.items():
            print("%-22s %.3f" % (k, v))
        return 0
    text = dump(cat)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(text)
    sys.path.insert(0, ROOT)
    try:
        from engine.catalogue_check import check_catalogue  # type: ignore
    except Exception:  # the checker is optional for the generator
        return 0
    problems = check_catalogue(cat["tiles"], cat["starter"])
    for p in problems:
        print("problem:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
