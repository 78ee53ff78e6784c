#!/usr/bin/env python3
"""Generate the standard Marram tile catalogue (engine/marram/data/standard.json).

    python tools/make_catalogue.py              # write the catalogue (and check it)
    python tools/make_catalogue.py --summary    # print the counts below
    python tools/make_catalogue.py --simulate [--policy engine|uniform|compact]

Deterministic: a fixed seed drives a tiny built-in PRNG (splitmix64), so the
output never depends on the Python version. Geometry and tile format follow
shared/spec/marram-model.md; the mix follows the BGA rule book.

Design
------
Terrain is built from the 4 corner arcs. The middle arc of a side is the colour
of its corners when they agree, else sand ("S"): a fixed symmetric function, so
for nearly every tile two sides match exactly when their corners match. Only
four side patterns exist: GGG, SSS, mixed with a sand middle (the usual one) and
mixed with a grass middle ("odd"). A patch is then the set of same-coloured
grid points joined along grid edges (plus diagonal links), and a bulge is one
grid point, so the corner colouring decides everything.

* Small patches. Completing a patch needs every one of its grid points
  surrounded by four tiles, which random play rarely does for big patches. So
  the corner classes lean towards the chequerboard ("2D": grass NW and SE, sand
  NE and SW): most patches are one-bulge circles, and links on a third of the
  2D tiles join diagonal corners into dumbbells and chains. The other classes
  (one grass corner, one sand corner, half and half, all grass, all sand) make
  larger, irregular patches. A chequerboard-leaning world also makes mixed
  sides, which every class has, the usual side to match, so tiles fit often.
  Tried: 38 of 86 plain tiles 2D gave 0.7 grass + 0.8 sand patches completed a
  game in random play; 57 of 86 gives about 1.5 + 1.6.
* Spade tiles must be flip-compatible (the back, grass and sand swapped, shows
  the same side triples in some rotation). That forces every spade tile to have
  at least one odd side (with a symmetric middle rule a swapped mixed side
  always has the other middle). Two shapes do it: "half" (GGGSSSSG, one odd
  side, fits back by a half turn) and "pinwheel" (GGSSGGSS, two odd sides,
  fits back by a quarter turn; its link moves from the grass diagonal to the
  sand one when flipped, so the flip changes the patches). Beasts on a spade
  tile must look the same after that turn: the orange and worm spade tiles are
  half tiles with a straight body. Six plain tiles also get one odd side so
  that an odd side left open by a spade tile can be answered. Only 9 spade
  tiles, so odd sides stay rare (36 of 760 face sides).
* Beast sides are kept moderate (138 of 380 sides, about 36%): most beast
  tiles carry one segment, and a side with a beast only takes the same type.
  Two bodies on one tile are two bends, never a crossing; segments on one tile
  are of different types where the pool allows.
* Balance: blue heads = tails (12 each), blue bodies 11 plus 6 "any" bodies;
  orange 18 ends to 12 bodies (9 snakes, about one body each); worms 14 ends,
  7 saddles (one a worm) and 5 bodies. More bodies make longer, rarer beasts;
  more ends make more freaks (two heads, a head meeting a tail, worms with no
  saddle); sweeps of these counts moved random-play completions by less than
  the noise, so the counts stay close to the rule book's "balanced".
* The starter is half grass (north) and half sand with a blue body from north
  to south: two bare mixed sides (the commonest pattern) and two blue sides.

Counts (python tools/make_catalogue.py --summary)
-------------------------------------------------
tiles: 95 (+ starter S0)
tiles by number of beast segments: 0: 15, 1: 65, 2: 13, 3: 2
spade tiles: 9 (6 plain: 3 half, 3 pinwheel with a link; 2 orange, 1 worm)
beastly tiles: 5 (6 "any" bodies)
segments: blue head 12, tail 12, body 11; orange end 18, body 12;
    worm end 14, saddle 7, body 5; any body 6
beast sides: 138 of 380 (blue 46, orange 42, worm 38, any 12)
items: gold 4, silver 6, flower 8 (on 18 non-spade tiles)
links: 21 (grass 11, sand 10)
corner classes: 2D 60, 2A 13, 1G 9, 3G 9, 0G 2, 4G 2
side patterns over both faces: GGG 78, SSS 78, mixed (sand middle) 568,
    mixed (grass middle, "odd") 36

Simulated random play (--simulate, 2 players, 1000 games a policy)
-------------------------------------------------------------------
The throwaway simulation uses only the spec's matching rules (terrain triples,
beast type presence, one concrete type a beast) and no flips. "engine" copies
engine/marram/selfplay.py (a random tile, face and rotation that fits somewhere, then
a random position where it fits); "compact" always takes a position with the
most neighbours, a stand-in for players who fill holes.

                                  engine   compact
  hands with nothing to lay       0.05%    0.10%   (0.05 / 0.10 discards a game)
  tiles laid (of 95)              94.9     94.8
  tiles laid before first stuck   91.7     89.8    (96% / 91% of games never stuck)
  grid points surrounded          8.1      37.3
  completed a game: grass patch   1.5      6.6
                    sand patch    1.6      7.1
                    blue (regular) 0.24    0.86
                    orange (reg.) 1.7      3.4
                    worm (regular) 0.10    0.41
                    freak         3.3      5.9

Random play grows a sparse, branching board (only about 8 grid points get all
four tiles), so most features stay open; regular blue snakes and worms need 3+
tiles in a chain and are the rarest. Holes with two or more neighbours that no
tile in the catalogue can fill are common in random play (about half of them):
two diagonal tiles may give a grid point different colours, and holes between
several beasts need rare combinations.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

Tile = dict[str, Any]
Face = dict[str, Any]
Seg = tuple[str, str, tuple[int, ...]]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from engine.marram.catalogue_check import runs  # noqa: E402  (the checker's geometry, shared)

OUT_PATH = os.path.join(ROOT, "engine", "marram", "data", "standard.json")

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


def regions_of(face: Face) -> list[int]:
    """Region index of each arc: runs merged by links."""
    run = runs(face["terrain"])
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
            out["links"] = [list(lk) for lk in f["links"]]
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

def corner_class(terrain: str) -> str:
    """Name of the CLASSES entry that the face's corners are a rotation of."""
    corners = terrain[0] + terrain[2] + terrain[4] + terrain[6]
    for name, c in CLASSES.items():
        if any(corners == c[r:] + c[:r] for r in range(4)):
            return name
    raise ValueError(corners)


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
SPADE_TILES: list[tuple[str, list[Seg], list[list[int]]]] = [
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
CLASS_COUNTS = {"0G": 2, "4G": 2, "1G": 9, "3G": 9, "2A": 7, "2D": 57}
# Links on the diagonal ("2D") non-spade tiles: grass link, sand link.
DIAG_LINKS = {"G": 9, "S": 9}
# Non-spade tiles that get one odd mixed side (middle "G"), so that the odd
# sides that every spade tile must have can be answered.
N_ODD_TILES = 6
ITEMS = {"gold": 4, "silver": 6, "flower": 8}

STARTER: Tile = {
    "spade": False,
    "front": {
        "terrain": terrain_from_corners("GGSS"),
        "beasts": [{"type": "blue", "kind": "body", "sides": [0, 2]}],
    },
}


def spade_face(kind: str, beasts: list[Seg], links: list[list[int]]) -> Face:
    # "half": GGGSSSSG, flipped by a half turn; "pin": GGSSGGSS (each middle
    # follows the corner before it), flipped by a quarter turn
    terrain = terrain_from_corners("GGSS", odd=(3,)) if kind == "half" else "GGSSGGSS"
    face: Face = {"terrain": terrain}
    if links:
        face["links"] = [list(lk) for lk in links]
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
        face = rotate_face(spade_face(kind, beasts, links), rng.below(4))
        tiles.append({"spade": True, "front": face})

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
            fits = [j for j in range(len(pool) - 1, -1, -1)
                    if used + KIND_SIDES[pool[j]] + left <= 4]
            # prefer a segment of another type than those already on the tile
            fresh = [j for j in fits if all(pool[j][0] != t for t, _ in segs)]
            j = rng.choice(fresh or fits)
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
                {"type": t, "kind": k, "sides": sorted(sd)}
                for (t, k), sd in zip(segs, sides, strict=True)
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
            raise ValueError(f"no tile for item {kind}")

    for face in plain_faces:
        tiles.append({"spade": False, "front": rotate_face(face, rng.below(4))})

    rng.shuffle(tiles)
    out: dict[str, Tile] = {"S0": STARTER}
    for n, t in enumerate(tiles, 1):
        out[f"T{n:02d}"] = normalise(t)
    return {"format": "marram-catalogue", "version": 1, "starter": "S0", "tiles": out}


def normalise(tile: Tile) -> Tile:
    f = tile["front"]
    face: Face = {"terrain": f["terrain"]}
    if f.get("links"):
        face["links"] = [sorted(lk) for lk in f["links"]]
    if f.get("items"):
        face["items"] = f["items"]
    if f.get("beasts"):
        face["beasts"] = [{"type": b["type"], "kind": b["kind"], "sides": sorted(b["sides"])}
                          for b in f["beasts"]]
    return {"spade": tile["spade"], "front": face}


def dump(cat: dict[str, Any]) -> str:
    lines = ["{", f'  "format": {json.dumps(cat["format"])},', f'  "version": {cat["version"]},',
             f'  "starter": {json.dumps(cat["starter"])},', '  "tiles": {']
    items = list(cat["tiles"].items())
    for n, (tid, tile) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        text = json.dumps(tile, separators=(", ", ": "))
        lines.append(f"    {json.dumps(tid)}: {text}{comma}")
    lines += ["  }", "}", ""]
    return "\n".join(lines)


# --------------------------------------------------------------------------
# Counts for the docstring
# --------------------------------------------------------------------------
def summary(cat: dict[str, Any]) -> str:
    tiles = {k: v for k, v in cat["tiles"].items() if k != cat["starter"]}
    segs = Counter(len(t["front"].get("beasts", [])) for t in tiles.values())
    segments = [b for t in tiles.values() for b in t["front"].get("beasts", [])]
    kinds = Counter((b["type"], b["kind"]) for b in segments)
    sides_by_type = Counter(b["type"] for b in segments for _ in b["sides"])
    spade = [t for t in tiles.values() if t["spade"]]
    spade_beasts = Counter("+".join(sorted({b["type"] for b in t["front"]["beasts"]}))
                           for t in spade if t["front"].get("beasts"))
    beastly = sum(1 for t in tiles.values()
                  if any(b["type"] == "any" for b in t["front"].get("beasts", [])))
    items = Counter(i["kind"] for t in tiles.values() for i in t["front"].get("items", []))
    links = Counter(t["front"]["terrain"][lk[0]]
                    for t in tiles.values() for lk in t["front"].get("links", []))
    corner_cls = Counter(corner_class(t["front"]["terrain"]) for t in tiles.values())
    side_pat: Counter[str] = Counter()
    for t in tiles.values():
        for face in (t["front"], back_face(t)):
            for s in range(4):
                side_pat[side_class(side_triple(face["terrain"], s))] += 1
    beast_sides = sum(sides_by_type.values())
    out = []
    out.append(f"tiles: {len(tiles)} (+ starter {cat['starter']})")
    out.append("tiles by number of beast segments: "
               + ", ".join(f"{k}: {segs[k]}" for k in sorted(segs)))
    out.append(f"spade tiles: {len(spade)} (with beasts: {dict(spade_beasts)})")
    out.append(f"beastly tiles: {beastly}")
    out.append("segments: " + ", ".join(f"{t} {k} {n}" for (t, k), n in sorted(kinds.items())))
    out.append(f"beast sides: {beast_sides} of {4 * len(tiles)} "
               f"({dict(sorted(sides_by_type.items()))})")
    out.append(f"items: {dict(sorted(items.items()))}")
    out.append(f"links: {dict(sorted(links.items()))}")
    out.append(f"corner classes: {dict(sorted(corner_cls.items()))}")
    out.append(f"side patterns over both faces: {dict(sorted(side_pat.items()))}")
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
                for p, pn in zip(arcs, narcs, strict=False):
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
        for x, y in tiles:
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


def simulate(cat: dict[str, Any], games: int, seed: int, players: int,
             policy: str) -> dict[str, float]:
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
                        # like engine/marram/selfplay.py: a random (tile, face, rotation) that fits
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
                            nn = {p: sum((p[0] + dx, p[1] + dy) in b.tiles for dx, dy in DIRS)
                                  for _, p, _ in opts}
                            best = max(nn.values())
                            opts = [t for t in opts if nn[t[1]] == best]
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
            print(f"{k:<22} {v:.3f}")
        return 0
    text = dump(cat)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(text)
    sys.path.insert(0, ROOT)
    try:
        from engine.marram.catalogue_check import check_catalogue  # type: ignore
    except Exception:  # the checker is optional for the generator
        return 0
    problems = check_catalogue(cat["tiles"], cat["starter"])
    for p in problems:
        print("problem:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
