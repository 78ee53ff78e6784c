"""Board mechanics: matching, laying and flipping tiles, and keeping the
features up to date. These functions trust their input (``game`` checks it)
and change the state in place; ``game.apply`` works on a copy."""
from __future__ import annotations

from collections.abc import Iterator

from .features import Feature, Features
from .state import GameState, Placed
from .tiles import Oriented, TileDef
from .types import STEP, Pos

SIDE_NAMES = ("north", "east", "south", "west")
_DX = tuple(d[0] for d in STEP)
_DY = tuple(d[1] for d in STEP)


def fits(board: dict[Pos, Placed], feats: Features, o: Oriented, pos: Pos,
         gone: frozenset[int] = frozenset()) -> bool:
    """Whether ``o`` can lie at ``pos`` against its neighbours (assumed):
    ``mismatch(...) is None`` without writing the reason, which costs more than
    the check when, as in random play, the bots' playouts and the listing of
    flips, most tries fail. ``gone`` as for ``mismatch``."""
    x, y = pos
    beastly = False
    for s in range(4):
        nb = board.get((x + _DX[s], y + _DY[s]))
        if nb is None:
            continue
        s2 = (s + 2) % 4
        if o.side_cw[s] != nb.o.side_rev[s2]:
            return False
        i = o.seg_at_side[s]
        if i in gone:
            i = None
        theirs = nb.live_segment(s2)
        if i is None or theirs is None:
            if i is not None or theirs is not None:
                return False
            continue
        mine, their_type = o.segments[i].type, feats.of(theirs).btype
        if mine != their_type:
            if mine != "any" and their_type != "any":
                return False
            beastly = True
    return not beastly or _mixed_beast(board, feats, o, pos, gone) is None


def mismatch(board: dict[Pos, Placed], feats: Features, o: Oriented, pos: Pos,
             gone: frozenset[int] = frozenset()) -> str | None:
    """Why ``o`` cannot lie at ``pos`` against its neighbours, or None if it can.
    ``gone``: segments of the tile that have left the board (a flipped tile)."""
    x, y = pos
    beastly = False
    for s in range(4):
        nb = board.get((x + _DX[s], y + _DY[s]))
        if nb is None:
            continue
        s2 = (s + 2) % 4
        if o.side_cw[s] != nb.o.side_rev[s2]:
            return (f"the {SIDE_NAMES[s]} side shows {o.side_cw[s]} where the tile at "
                    f"[{x + _DX[s]}, {y + _DY[s]}] needs {nb.o.side_rev[s2]} (patch for patch)")
        i = o.seg_at_side[s]
        if i in gone:
            i = None
        theirs = nb.live_segment(s2)
        if i is None and theirs is None:
            continue
        if i is None or theirs is None:
            return (f"the {SIDE_NAMES[s]} side must carry a beast exactly when the tile at "
                    f"[{x + _DX[s]}, {y + _DY[s]}] does (snake for snake, worm for worm)")
        mine, their_type = o.segments[i].type, feats.of(theirs).btype
        if mine != their_type:
            if mine != "any" and their_type != "any":
                return (f"the {SIDE_NAMES[s]} side has a {mine} segment against a "
                        f"{their_type} beast")
            beastly = True
    if beastly:
        return _mixed_beast(board, feats, o, pos, gone)
    return None


def _mixed_beast(board: dict[Pos, Placed], feats: Features, o: Oriented, pos: Pos,
                 gone: frozenset[int]) -> str | None:
    """A Beastly tile takes one type: no join may hold two concrete types."""
    x, y = pos
    groups: list[tuple[set[str], set[int]]] = []
    for i, seg in enumerate(o.segments):
        if i in gone:
            continue
        types: set[str] = {seg.type}
        types.discard("any")
        roots: set[int] = set()
        for s in seg.sides:
            nb = board.get((x + _DX[s], y + _DY[s]))
            theirs = nb.live_segment((s + 2) % 4) if nb else None
            if theirs is not None:
                root = feats.find(theirs)
                roots.add(root)
                types |= {feats.roots[root].btype} - {"any"}
        for g in [g for g in groups if g[1] & roots]:
            groups.remove(g)
            types |= g[0]
            roots |= g[1]
        groups.append((types, roots))
    for types, _ in groups:
        if len(types) > 1:
            return f"a Beastly tile would join a {' and a '.join(sorted(types))} into one beast"
    return None


Kind = tuple[str, "str | None"]
"""A side as a neighbour must meet it (``Oriented.side_kinds``)."""


def asked_by(nb: Placed, side: int, feats: Features) -> Kind:
    """What the laid tile ``nb`` asks of a tile across its ``side``: that side's
    terrain read the other way, and the type of the beast crossing it (None: no
    beast, or one that has left the board)."""
    theirs = nb.live_segment(side)
    return nb.o.side_rev[side], None if theirs is None else feats.of(theirs).btype


_AROUND = tuple((s, dx, dy, (s + 2) % 4) for s, (dx, dy) in enumerate(STEP))
"""Each side with the step to the neighbour across it and that neighbour's side."""

class FrontierIndex:
    """The frontier's positions, sorted, and which of them each kind of tile side
    would meet: bit ``i`` of a mask stands for ``positions[i]``. Built once for a
    state, so that every orientation of every tile in a hand is tried against the
    whole frontier in a few mask operations (``matches``), not position by
    position; the sides of a hand's orientations are of a handful of kinds, each
    worked out once (``side``)."""

    __slots__ = ("positions", "_free", "_asked", "_sides")

    def __init__(self, state: GameState) -> None:
        get, feats = state.board.get, state.features
        positions = self.positions = sorted(state.frontier)
        # by side: the positions with no neighbour there (any side meets them), and
        # the positions whose neighbour there asks for each kind of side
        free = [0, 0, 0, 0]
        asked: list[dict[Kind, int]] = [{}, {}, {}, {}]
        for i, (x, y) in enumerate(positions):
            bit = 1 << i
            for s, dx, dy, s2 in _AROUND:
                nb = get((x + dx, y + dy))
                if nb is None:
                    free[s] |= bit
                    continue
                kind = asked_by(nb, s2, feats)
                wanted = asked[s]
                wanted[kind] = wanted.get(kind, 0) | bit
        self._free = free
        self._asked = asked
        self._sides: list[dict[Kind, tuple[int, int]]] = [{}, {}, {}, {}]

    def side(self, s: int, kind: Kind) -> tuple[int, int]:
        """(met, beastly) for a tile's side ``s`` of this kind: the positions it
        meets, as ``meets`` would judge that side alone, and of those the ones it
        meets only through a Beastly ``any`` (``_mixed_beast`` decides them)."""
        found = self._sides[s].get(kind)
        if found is None:
            terrain, mine = kind
            met, beastly = self._free[s], 0
            for (their_terrain, theirs), mask in self._asked[s].items():
                if their_terrain != terrain or (theirs is None) != (mine is None):
                    continue
                if theirs == mine:
                    met |= mask
                elif mine == "any" or theirs == "any":
                    met |= mask
                    beastly |= mask
            found = self._sides[s][kind] = (met, beastly)
        return found

    def matches(self, state: GameState, o: Oriented) -> Iterator[Pos]:
        """The positions where ``o`` can lie (``meets``), in sorted order."""
        met, beastly = -1, 0
        for s, kind in enumerate(o.side_kinds):
            side_met, side_beastly = self.side(s, kind)
            met &= side_met
            beastly |= side_beastly
        positions = self.positions
        while met:
            low = met & -met
            met ^= low
            pos = positions[low.bit_length() - 1]
            if low & beastly and _mixed_beast(state.board, state.features, o, pos,
                                              frozenset()) is not None:
                continue
            yield pos


def iter_placements(state: GameState, hand: list[str]) -> Iterator[tuple[str, str, int, Pos]]:
    """Every legal (tile, face, rotation, position) for the tiles of a hand, in that
    order of keys (positions sorted). The state's frontier index is made once
    (``GameState.once``)."""
    index = state.once("frontier_index", FrontierIndex)
    catalogue = state.config.catalogue
    for tile_id in dict.fromkeys(hand):
        tile = catalogue[tile_id]
        for face in ("front", "back"):
            for rotation in range(4):
                for pos in index.matches(state, tile.oriented(face, rotation)):
                    yield tile_id, face, rotation, pos


def base_feature(state: GameState, pos: Pos, placed: Placed, ref: int, beast: bool) -> Feature:
    """The totals of one node on its own, read from the board."""
    board = state.board
    x, y = pos
    o = placed.o
    if beast:
        seg = o.segments[ref]
        f = Feature(True, "", [], btype=seg.type)
        f.open = sum(1 for s in seg.sides if (x + _DX[s], y + _DY[s]) not in board)
        kind = seg.kind
        if kind == "head":
            f.heads = 1
        elif kind == "tail":
            f.tails = 1
        elif kind == "end":
            f.ends = 1
        elif kind == "saddle":
            f.saddles = 1
        else:
            f.bodies = 1
        return f
    region = o.regions[ref]
    f = Feature(False, region.terrain, [], gold=region.gold, silver=region.silver,
                flower=region.flower)
    f.open = sum(
        1 for s in range(4)
        if ref in o.side_regions[s] and (x + _DX[s], y + _DY[s]) not in board
    )
    if (o.region_of_arc[0] == ref and (x - 1, y - 1) in board and (x, y - 1) in board
            and (x - 1, y) in board):
        f.bulges = 1
    return f


def _add_nodes(state: GameState, pos: Pos, placed: Placed) -> None:
    """Give a tile's regions and remaining segments nodes of their own."""
    feats = state.features
    gone = [n is None for n in placed.seg_nodes] or [False] * len(placed.o.segments)
    placed.region_nodes = [
        feats.new_node(pos, r, base_feature(state, pos, placed, r, False))
        for r in range(len(placed.o.regions))
    ]
    placed.seg_nodes = [
        None if g else feats.new_node(pos, i, base_feature(state, pos, placed, i, True))
        for i, g in enumerate(gone)
    ]


def _join(feats: Features, a: Placed, s: int, b: Placed) -> None:
    """Union the arcs and the segment across a's side s and b's opposite side."""
    s2 = (s + 2) % 4
    ra, rb = a.o.region_of_arc, b.o.region_of_arc
    an, bn = a.region_nodes, b.region_nodes
    for i in range(3):
        feats.union(an[ra[(2 * s + i) % 8]], bn[rb[(2 * s2 + 2 - i) % 8]])
    sa = a.live_segment(s)
    if sa is not None:
        sb = b.live_segment(s2)
        if sb is not None:
            feats.union(sa, sb)


def lay(state: GameState, tile: TileDef, face: str, rotation: int, pos: Pos) -> Placed:
    """Put a tile on the board and merge its features with its neighbours'."""
    board, feats = state.board, state.features
    o = tile.oriented(face, rotation)  # type: ignore[arg-type]
    placed = Placed(tile, face, rotation, False, o, [], [], tile.spade)  # type: ignore[arg-type]
    board[pos] = placed
    state.frontier.discard(pos)
    x, y = pos
    _add_nodes(state, pos, placed)
    for s in range(4):
        q = (x + _DX[s], y + _DY[s])
        nb = board.get(q)
        if nb is None:
            state.frontier.add(q)
            continue
        s2 = (s + 2) % 4
        for r in nb.o.side_regions[s2]:
            feats.edit(nb.region_nodes[r]).open -= 1
        theirs = nb.live_segment(s2)
        if theirs is not None:
            feats.edit(theirs).open -= 1
        _join(feats, placed, s, nb)
    # bulges at the tile's other three corners, each owned by the tile south-east of it
    for gx, gy in ((x + 1, y), (x + 1, y + 1), (x, y + 1)):
        owner = board.get((gx, gy))
        if owner is not None and (gx - 1, gy - 1) in board and (gx, gy - 1) in board \
                and (gx - 1, gy) in board:
            feats.edit(owner.region_nodes[owner.o.region_of_arc[0]]).bulges += 1
    return placed


def flipped_face(placed: Placed) -> tuple[str, bool]:
    """(face, inverted) after a flip: a spade tile turns over; a tile that gained
    the spade keeps its face with grass and sand swapped."""
    if placed.tile.spade:
        return ("back" if placed.face == "front" else "front"), placed.inverted
    return placed.face, not placed.inverted


def flipped_oriented(placed: Placed, rotation: int) -> Oriented:
    face, inverted = flipped_face(placed)
    return placed.tile.oriented(face, rotation, inverted)  # type: ignore[arg-type]


def flip_mismatch(state: GameState, pos: Pos, o: Oriented) -> str | None:
    """Why the tile at pos, flipped to ``o``, would not fit its neighbours."""
    placed = state.board[pos]
    gone = frozenset(i for i, n in enumerate(placed.seg_nodes) if n is None)
    why = mismatch(state.board, state.features, o, pos, gone)
    return None if why is None else f"flipped that way, {why}"


def own_tile(state: GameState, pos: Pos) -> Placed:
    """The tile at ``pos``, to change: a copy of its own replaces it on the
    board first, since copies of a state share their laid tiles."""
    placed = state.board[pos] = state.board[pos].copy()
    return placed


def turn_over(state: GameState, pos: Pos, rotation: int) -> Placed:
    """Flip the tile at pos: retire its token and rebuild the features through it."""
    feats, board = state.features, state.board
    placed = own_tile(state, pos)
    old_nodes = placed.region_nodes + [n for n in placed.seg_nodes if n is not None]
    old_set = set(old_nodes)
    members: set[int] = set()
    for root in {feats.find(n) for n in old_nodes}:
        members.update(feats.roots.pop(root).nodes)
    members -= old_set
    for n in old_nodes:
        feats.parent[n] = n
    if placed.token is not None:
        state.retired[placed.token[0]] += 1
        placed.token = None
    face, inverted = flipped_face(placed)
    placed.face, placed.inverted, placed.rotation = face, inverted, rotation  # type: ignore[assignment]
    placed.o = placed.tile.oriented(face, rotation, inverted)  # type: ignore[arg-type]
    placed.flips += 1
    for n in members:
        p = feats.node_pos[n]
        feats.reset(n, base_feature(state, p, board[p], feats.node_ref[n], feats.node_beast[n]))
        token = board[p].token
        if token is not None and token[2] == n:
            feats.own(n).claims.append((n, token[0]))
    _add_nodes(state, pos, placed)
    tiles = {feats.node_pos[n] for n in members}
    tiles.add(pos)
    for p in tiles:
        a = board[p]
        for s in (1, 2):  # each shared side once, from its west or north tile
            nb = board.get((p[0] + _DX[s], p[1] + _DY[s]))
            if nb is not None:
                _join(feats, a, s, nb)
        for s in (0, 3):
            q = (p[0] + _DX[s], p[1] + _DY[s])
            if q not in tiles and q in board:
                _join(feats, a, s, board[q])
    return placed


def remove_beast(state: GameState, root: int) -> None:
    """A completed beast leaves the board (Pitchfork and Animals)."""
    feats = state.features
    feature = feats.drop(root)
    touched: dict[Pos, Placed] = {}
    for n in feature.nodes:
        p = feats.node_pos[n]
        tile = touched.get(p) or own_tile(state, p)
        tile.seg_nodes[feats.node_ref[n]] = None
        touched[p] = tile
    for tile in touched.values():
        if any(n is not None for n in tile.seg_nodes):
            tile.spade = False  # a spade tile loses its spade while part of its beasts is gone
        else:
            tile.spade = tile.token is None
    if state.lingering == root:
        state.lingering = None


def blue_heads(state: GameState) -> dict[Pos, list[int]]:
    """Tiles with a blue head on the board, and the heads' nodes."""
    out: dict[Pos, list[int]] = {}
    for p, t in state.board.items():
        for i, seg in enumerate(t.o.segments):
            if seg.kind == "head" and t.seg_nodes[i] is not None:
                out.setdefault(p, []).append(t.seg_nodes[i])  # type: ignore[arg-type]
    return out


def claim_blocked(state: GameState, o: Oriented, pos: Pos, claim: dict[str, int]) -> bool:
    """Whether the feature a claim on a tile about to be laid at pos would join
    already holds a token (computed before laying it)."""
    board, feats = state.board, state.features
    x, y = pos
    # the tile's nodes and the neighbouring roots they touch, as a small graph
    # a side claim's segment was checked to exist before this is called
    touches: dict[tuple[str, int | None], set[int]] = {}
    for s in range(4):
        nb = board.get((x + _DX[s], y + _DY[s]))
        if nb is None:
            continue
        s2 = (s + 2) % 4
        for i in range(3):
            mine = ("r", o.region_of_arc[(2 * s + i) % 8])
            theirs = nb.region_nodes[nb.o.region_of_arc[(2 * s2 + 2 - i) % 8]]
            touches.setdefault(mine, set()).add(feats.find(theirs))
        i_seg = o.seg_at_side[s]
        theirs_seg = nb.live_segment(s2)
        if i_seg is not None and theirs_seg is not None:
            touches.setdefault(("b", i_seg), set()).add(feats.find(theirs_seg))
    start = ("r", o.region_of_arc[claim["arc"]]) if "arc" in claim \
        else ("b", o.seg_at_side[claim["side"]])
    seen, roots, todo = {start}, set(), [start]
    while todo:
        node = todo.pop()
        for root in touches.get(node, ()):
            if root in roots:
                continue
            roots.add(root)
            if feats.roots[root].claims:
                return True
            todo += [m for m, rs in touches.items() if root in rs and m not in seen]
            seen.update(m for m, rs in touches.items() if root in rs)
    return False
