"""The state of a game, rebuilt by folding its events (``rules.step``).

Where every tile is: the stack (``config.deck`` from ``next_draw`` on), a
seat's three drawn tiles during the setup (``drawn``, less the kept one), the
middle (``middle``, groups of real tiles; ``face_down`` says which one lies face
down) or an ark. Secrets live here in the clear; ``view`` strips them."""
from __future__ import annotations

from dataclasses import dataclass, field

from .record import Config
from .tiles import Seat, Tile


@dataclass(slots=True)
class State:
    config: Config
    next_draw: int = 0
    drawn: list[list[Tile]] = field(default_factory=list)
    """Each seat's three tiles of the setup, in draw order; empty once revealed."""
    kept: list[Tile | None] = field(default_factory=list)
    """Each seat's secret choice of the setup (None: still to choose)."""
    setup: bool = True
    arks: list[list[Tile]] = field(default_factory=list)
    crates: list[int] = field(default_factory=list)
    middle: list[list[Tile]] = field(default_factory=list)
    """The groups in their listed order (group numbers), each sorted."""
    face_down: Tile | None = None
    round: int = 1
    start_player: Seat = 0
    """The seat holding the starting flag."""
    in_round: list[Seat] = field(default_factory=list)
    """The seats still in the round, in seat order."""
    current: Seat | None = None
    final_turn: bool = False
    """The only seat left in the round is making its one more turn."""
    flag_taken: bool = False
    """Somebody took in this round already (and took the starting flag)."""
    resigned: list[Seat] = field(default_factory=list)
    finished: bool = False
    end: str | None = None
    """Why the game ended: "ark" (an ark of 10), "empty" (no tile left) or "resign"."""
    unseen: list[list[Tile]] = field(default_factory=list)
    """Each ark's tiles the other seats never saw face up: its secret keep and
    the face-down tiles it took (what a computer player must guess)."""

    @classmethod
    def new(cls, config: Config) -> State:
        """Seat 0 holds the flag; each seat draws three tiles, seat 0 the first three."""
        n = config.seats
        drawn = [list(config.deck[3 * s:3 * s + 3]) for s in range(n)]
        return cls(config, next_draw=3 * n, drawn=drawn, kept=[None] * n,
                   arks=[[] for _ in range(n)], crates=[1] * n,
                   unseen=[[] for _ in range(n)])

    def copy(self) -> State:
        return State(self.config, self.next_draw, [d[:] for d in self.drawn], self.kept[:],
                     self.setup, [a[:] for a in self.arks], self.crates[:],
                     [g[:] for g in self.middle], self.face_down, self.round,
                     self.start_player, self.in_round[:], self.current, self.final_turn,
                     self.flag_taken, self.resigned[:], self.finished, self.end,
                     [u[:] for u in self.unseen])

    @property
    def seats(self) -> int:
        return self.config.seats

    def stack(self) -> int:
        """The tiles left in the draw stack (their number is public, not their order)."""
        return len(self.config.deck) - self.next_draw

    def draw(self) -> Tile:
        tile = self.config.deck[self.next_draw]
        self.next_draw += 1
        return tile

    def active(self) -> list[Seat]:
        """The seats still in the game, in seat order."""
        return [s for s in range(self.seats) if s not in self.resigned]
