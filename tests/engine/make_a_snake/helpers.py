"""Small positions for Make-a-snake's tests: exact parts, games with chosen
stacks, and the events of a turn."""
from __future__ import annotations

from fractions import Fraction

from engine.make_a_snake import GAME
from engine.make_a_snake.exact import Q2
from engine.make_a_snake.geometry import UNIT, Arc, Segment, Vec, add, scale
from engine.make_a_snake.pieces import COLOURS, stack_tiles
from engine.make_a_snake.state import State

R2 = 2 ** 0.5
"""√2, for the worked-out numbers in comments and expectations."""


def pt(x: int | Fraction | Q2, y: int | Fraction | Q2) -> Vec:
    return (x if isinstance(x, Q2) else Q2(x), y if isinstance(y, Q2) else Q2(y))


def seg(x0, y0, x1, y1) -> Segment:
    return Segment(pt(x0, y0), pt(x1, y1))


def arc(cx, cy, r: int, first: int, sweep: int) -> Arc:
    """The arc round (cx, cy) from the radius at angle ``first`` counter-clockwise
    through ``sweep`` degrees, laid counter-clockwise."""
    centre = pt(cx, cy)
    return Arc(centre, r, first, sweep, add(centre, scale(r, UNIT[first % 360])),
               add(centre, scale(r, UNIT[(first + sweep) % 360])))


def stacks(**tops: list[str]) -> dict[str, list[str]]:
    """Full stacks whose tops are the tiles named (``red=["red-4", "red-1"]``),
    the rest of each colour after them in shape order."""
    out = {}
    for colour in COLOURS:
        top = tops.get(colour, [])
        out[colour] = top + [t for t in stack_tiles(colour) if t not in top]
    return out


def config(players: int = 2, mode: str = "competitive", advanced: bool = False,
           **tops: list[str]) -> dict:
    return {"players": ["ann", "bob", "cat", "dan"][:players], "mode": mode,
            "advanced": advanced, "stacks": stacks(**tops)}


def new(players: int = 2, mode: str = "competitive", advanced: bool = False,
        **tops: list[str]) -> State:
    return GAME.start(config(players, mode, advanced, **tops))


def roll(a: str = "red", b: str = "green") -> dict:
    return {"type": "roll", "face": [a, b]}


def take(player: int, colour: str) -> dict:
    return {"type": "take", "player": player, "colour": colour}


def connect(player: int, side: str = "up", turn: int = 0) -> dict:
    return {"type": "connect", "player": player, "side": side, "turn": turn}


def play(state: State, *events: dict) -> State:
    """The state after the events (each read and folded as the platform does)."""
    for event in events:
        state = GAME.fold(GAME.copy(state), GAME.read_event(event))
    return state


def turn(player: int, colour: str, side: str = "up", face: tuple[str, str] | None = None,
         turned: int = 0) -> list[dict]:
    """A whole turn: the die shows ``face`` (the colour and another by default),
    the player takes ``colour`` and connects it."""
    if face is None:
        face = (colour, "yellow" if colour != "yellow" else "red")
    return [roll(*face), take(player, colour), connect(player, side, turned)]


def turns(players: int, moves: list[tuple[str, str]], first: int = 0) -> list[dict]:
    """Turns in seat order from ``first``: each (colour, side)."""
    events: list[dict] = []
    for i, (colour, side) in enumerate(moves):
        events += turn((first + i) % players, colour, side)
    return events


def other_colour(colour: str) -> str:
    return COLOURS[(COLOURS.index(colour) + 1) % len(COLOURS)]


def moves(state: State, *plan: str) -> State:
    """Whole turns by whoever's turn it is: each 'red' or 'red down' takes the
    top red tile (the die showing red and the next colour) and connects it;
    'timeout' lets the time run out after the roll."""
    for step in plan:
        if step == "timeout":
            state = play(state, roll(), {"type": "timeout", "player": state.current})
            continue
        colour, _, side = step.partition(" ")
        state = play(state, roll(colour, other_colour(colour)),
                     take(state.current, colour), connect(state.current, side or "up"))
    return state


def summary(state: State) -> dict:
    return GAME.summary(state)
