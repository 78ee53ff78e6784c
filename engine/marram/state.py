"""The game state: plain data, folded from events by ``engine.game``."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, TypeVar, cast

from .catalogue import Catalogue
from .features import Features
from .rules import Rules
from .tiles import Oriented, TileDef
from .types import Face, Pos, Seat

T = TypeVar("T")

CreatureStatus = Literal["waiting", "on_board", "eaten", "escaped"]


class Award(TypedDict):
    """An entry of the score log: points awarded to a seat, and for what."""

    seat: Seat
    points: int
    feature: str
    """What scored, in words ("grass patch with 2 bulges", "the fly escaped")."""
    kind: str
    """The kind of feature (``scoring.feature_kind``), or the creature."""
    unfinished: bool
    """Scored unfinished at the end of the game."""
    event: int
    """The index of the event that awarded it (the events folded before it)."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    variant: str
    length: str
    players: tuple[str, ...]
    catalogue: Catalogue
    deck: tuple[str, ...]
    starter: str


@dataclass(slots=True)
class Placed:
    """A tile on the board."""

    tile: TileDef
    face: Face
    rotation: int
    inverted: bool
    """Terrain swapped by a flip of a tile that gained its spade."""
    o: Oriented
    region_nodes: list[int]
    seg_nodes: list[int | None]
    """The node of each segment, None once it has left the board."""
    spade: bool
    """Can be flipped, limits aside (Pitchfork: gained and lost as beasts leave)."""
    flips: int = 0
    token: tuple[Seat, str, int] | None = None
    """(seat, 'boot' | 'pitchfork', node)."""

    def copy(self) -> Placed:
        return Placed(
            self.tile, self.face, self.rotation, self.inverted, self.o,
            self.region_nodes[:], self.seg_nodes[:], self.spade, self.flips, self.token,
        )

    def live_segment(self, side: int) -> int | None:
        """The node of the segment crossing ``side``, if one is still there."""
        i = self.o.seg_at_side[side]
        return None if i is None else self.seg_nodes[i]


@dataclass(slots=True)
class Creature:
    name: str
    status: CreatureStatus = "waiting"
    at: Pos | None = None
    prev: Pos | None = None
    hops: int = 0
    guesses: dict[Seat, int | str] = field(default_factory=dict)
    outcome: int | str | None = None

    def copy(self) -> Creature:
        return Creature(self.name, self.status, self.at, self.prev, self.hops,
                        dict(self.guesses), self.outcome)


Pending = tuple[Any, ...]
"""('appear', creature) | ('guess', creature, seat) | ('hop', creature)."""


@dataclass(slots=True)
class GameState:
    config: GameConfig
    rules: Rules
    board: dict[Pos, Placed]
    frontier: set[Pos]
    features: Features
    drawn: int
    hands: list[list[str]]
    discarded: list[str]
    boots: list[int]
    pitchforks: list[int]
    spades: list[int]
    scores: list[int]
    current: Seat = 0
    moves_in_turn: int = 0
    flipped_this_turn: set[Pos] = field(default_factory=set)
    pass_streak: int = 0
    resigned: set[Seat] = field(default_factory=set)
    finished: bool = False
    winners: list[Seat] = field(default_factory=list)
    creatures: dict[str, Creature] = field(default_factory=dict)
    pending: list[Pending] = field(default_factory=list)
    lingering: int | None = None
    """Root of a completed blue snake kept as the board's only head (Pitchfork)."""
    log: list[Award] = field(default_factory=list)
    """What scored, for whom: one entry per award."""
    events: int = 0
    retired: list[int] = field(default_factory=list)
    """Tokens retired by flips, per seat."""
    completed: dict[str, int] = field(default_factory=dict)
    """Features completed so far, by kind (grass, sand, blue, orange, worm, freak)."""
    kept: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """What ``once`` has worked out from the state, at ``kept_at`` events."""
    kept_at: int = field(default=-1, repr=False, compare=False)

    def copy(self) -> GameState:
        """An independent copy. The tiles on the board are shared, as features
        are (``Features.copy``): a fold that changes a laid tile replaces it with
        its own copy first (``board.own_tile``), so copies cost little, and the
        bots make thousands."""
        return GameState(
            self.config, self.rules,
            dict(self.board),
            set(self.frontier), self.features.copy(), self.drawn,
            [h[:] for h in self.hands], self.discarded[:],
            self.boots[:], self.pitchforks[:], self.spades[:], self.scores[:],
            self.current, self.moves_in_turn, set(self.flipped_this_turn), self.pass_streak,
            set(self.resigned), self.finished, self.winners[:],
            {k: c.copy() for k, c in self.creatures.items()},
            self.pending[:], self.lingering, self.log[:], self.events, self.retired[:],
            dict(self.completed),
        )

    def once(self, name: str, make: Callable[[GameState], T]) -> T:
        """``make(self)``, worked out once while no event folds into the state (an
        event counts in ``events``; a copy starts with nothing kept): after a
        move, the check that the player to move can lay a tile and their legal
        moves use the same frontier index, and each player's view is the same
        but for ``you``. What it gives is shared: never change it."""
        if self.kept_at != self.events:
            self.kept, self.kept_at = {}, self.events
        if name not in self.kept:
            self.kept[name] = make(self)
        return cast(T, self.kept[name])

    @property
    def players(self) -> int:
        return len(self.config.players)

    @property
    def deck_left(self) -> int:
        return len(self.config.deck) - self.drawn

    def active_seats(self) -> list[Seat]:
        return [s for s in range(self.players) if s not in self.resigned]

    def nothing_to_lay(self) -> bool:
        return self.deck_left == 0 and not any(self.hands)

    def supply(self, token: str) -> list[int]:
        return self.boots if token == "boot" else self.pitchforks
