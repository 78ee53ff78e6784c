"""Patches and beasts as a union-find over tile regions and beast segments.

A node is one region or one segment of one laid tile; a feature is the set of
nodes joined across shared sides. Each root carries the feature's totals
(open sides, bulges, items, segment kinds, claims), so completion is known the
moment the last open side closes. Placing a tile only merges; a flip can split
features, so the features through the flipped tile are rebuilt from their nodes.

Copies share their features, copy on write: a state copied before a move (the
pure ``apply``) copies only the few features the move changes, not the hundreds
on the board. So every change to a feature goes through ``Features.own`` (or
``edit``), which hands back a feature this copy alone holds.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .types import Pos, Seat


@dataclass(slots=True)
class Feature:
    beast: bool
    terrain: str
    """'G' or 'S' for a patch; '' for a beast."""
    nodes: list[int]
    open: int = 0
    claims: list[tuple[int, Seat]] = field(default_factory=list)
    """(node, seat) of every token on the feature."""
    bulges: int = 0
    gold: int = 0
    silver: int = 0
    flower: int = 0
    btype: str = "any"
    """A beast's one concrete type, 'any' while it has none."""
    heads: int = 0
    tails: int = 0
    ends: int = 0
    bodies: int = 0
    saddles: int = 0
    owner: object = field(default=None, compare=False, repr=False)
    """The Features that may change it in place (see Features.own)."""

    def absorb(self, other: Feature) -> None:
        self.nodes += other.nodes
        self.open += other.open
        self.claims += other.claims
        if self.beast:
            if self.btype == "any":
                self.btype = other.btype
            self.heads += other.heads
            self.tails += other.tails
            self.ends += other.ends
            self.bodies += other.bodies
            self.saddles += other.saddles
        else:
            self.bulges += other.bulges
            self.gold += other.gold
            self.silver += other.silver
            self.flower += other.flower

    def copy(self) -> Feature:
        return Feature(
            self.beast, self.terrain, self.nodes[:], self.open, self.claims[:],
            self.bulges, self.gold, self.silver, self.flower,
            self.btype, self.heads, self.tails, self.ends, self.bodies, self.saddles,
        )

    @property
    def complete(self) -> bool:
        return self.open == 0

    @property
    def size(self) -> int:
        return len(self.nodes)

    def holders(self, players: int) -> list[int]:
        """Tokens per seat."""
        counts = [0] * players
        for _, seat in self.claims:
            counts[seat] += 1
        return counts

    def kind_name(self) -> str:
        if self.beast:
            return {"blue": "blue snake", "orange": "orange snake", "worm": "worm"}.get(
                self.btype, "beastly beast"
            )
        return "grass patch" if self.terrain == "G" else "sand patch"


@dataclass(slots=True)
class Features:
    parent: list[int] = field(default_factory=list)
    node_pos: list[Pos] = field(default_factory=list)
    node_ref: list[int] = field(default_factory=list)
    """The region index (patch node) or segment index (beast node) on its tile."""
    node_beast: list[bool] = field(default_factory=list)
    roots: dict[int, Feature] = field(default_factory=dict)
    _token: object = field(default_factory=object, compare=False, repr=False)
    """Stamped on the features this instance owns; a new one disowns them all."""

    def copy(self) -> Features:
        """A copy sharing every feature with this one: from now on both sides copy
        a feature before changing it."""
        self._token = object()  # ours are shared now too
        return Features(self.parent[:], self.node_pos[:], self.node_ref[:],
                        self.node_beast[:], dict(self.roots))

    def own(self, root: int) -> Feature:
        """The feature at ``root``, to change: copied first if it may be shared."""
        feature = self.roots[root]
        if feature.owner is not self._token:
            feature = self.roots[root] = feature.copy()
            feature.owner = self._token
        return feature

    def edit(self, n: int) -> Feature:
        """The feature node ``n`` belongs to, to change (see own)."""
        return self.own(self.find(n))

    def new_node(self, pos: Pos, ref: int, feature: Feature) -> int:
        n = len(self.parent)
        self.parent.append(n)
        self.node_pos.append(pos)
        self.node_ref.append(ref)
        self.node_beast.append(feature.beast)
        feature.nodes, feature.owner = [n], self._token
        self.roots[n] = feature
        return n

    def find(self, n: int) -> int:
        parent = self.parent
        root = n
        while parent[root] != root:
            root = parent[root]
        while parent[n] != root:
            parent[n], n = root, parent[n]
        return root

    def of(self, n: int) -> Feature:
        """The feature node ``n`` belongs to, to read (to change it: edit)."""
        return self.roots[self.find(n)]

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        if len(self.roots[ra].nodes) < len(self.roots[rb].nodes):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.own(ra).absorb(self.roots[rb])
        del self.roots[rb]

    def reset(self, n: int, feature: Feature) -> None:
        """Make n a root of its own again, with its own totals (during a rebuild)."""
        self.parent[n] = n
        feature.nodes, feature.owner = [n], self._token
        self.roots[n] = feature

    def drop(self, root: int) -> Feature:
        """Forget a feature whose nodes have left the board."""
        feature = self.roots.pop(root)
        for n in feature.nodes:
            self.parent[n] = n
        return feature
