"""The state of a game of Make-a-snake: the stacks, the snakes, whose turn and
what it awaits. Opaque to the platform; ``rules`` changes it, ``view`` shows it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .advanced import Choice
from .pieces import COLOURS, Colour, Mode
from .snake import Snake

Phase = Literal["roll", "take", "connect", "over"]
"""What the turn awaits: the server's roll, the player's take or connect; or nothing."""

End = Literal["stacks", "resign", "won", "lost"]
"""Why a game ended: the stacks ran down (competitive), resignations left one
seat in the turn order (competitive) or none (the lollipop hunt), the lollipop
hunt was won or lost."""


@dataclass(slots=True)
class State:
    players: tuple[str, ...]
    mode: Mode
    advanced: bool
    stacks: dict[Colour, tuple[str, ...]]
    """Each stack as dealt, top first (the record's config; secret until the end)."""
    drawn: dict[Colour, int] = field(default_factory=lambda: dict.fromkeys(COLOURS, 0))
    """How many tiles have been taken from the top of each stack."""
    snakes: list[Snake] = field(default_factory=list)
    """One per seat; one for everybody in the lollipop hunt."""
    current: int = 0
    phase: Phase = "roll"
    die: tuple[Colour, Colour] | None = None
    taken: str | None = None
    """The tile taken this turn, until it is connected."""
    choice: Choice | None = None
    """How the taken tile may be connected (the advanced rules), worked out once."""
    resigned: set[int] = field(default_factory=set)
    last_round: bool = False
    """A take has left two stacks with tiles, or fewer."""
    end: End | None = None
    winners: tuple[int, ...] = ()
    distances: list[int | None] = field(default_factory=list)
    """By snake, in hundredths of a centimetre (exactly rounded); None without a tail."""
    touched: tuple[int, ...] = ()
    """The lollipop hunt: the lollipops the snake touches as it lies now."""
    events: int = 0

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    @property
    def lollipop(self) -> bool:
        return self.mode == "lollipop"

    def left(self, colour: Colour) -> int:
        return len(self.stacks[colour]) - self.drawn[colour]

    def top(self, colour: Colour) -> str:
        return self.stacks[colour][self.drawn[colour]]

    def stacks_with_tiles(self) -> list[Colour]:
        return [c for c in COLOURS if self.left(c) > 0]

    def snake_of(self, seat: int) -> Snake:
        return self.snakes[0] if self.lollipop else self.snakes[seat]

    def active(self) -> list[int]:
        """The seats still in the turn order, in seat order."""
        return [s for s in range(len(self.players)) if s not in self.resigned]

    def copy(self) -> State:
        return State(self.players, self.mode, self.advanced, self.stacks, dict(self.drawn),
                     [s.copy() for s in self.snakes], self.current, self.phase, self.die,
                     self.taken, self.choice, set(self.resigned), self.last_round, self.end,
                     self.winners, list(self.distances), self.touched, self.events)
