"""Small positions for Pond's tests, drawn as the note's summary draws a board:
one string a row, north first, ``.`` empty, ``e t f`` light and ``E T F`` dark.
Positions are ``(x, y)``, x east and y south, as in the record."""
from __future__ import annotations

from typing import Any

from engine.pond import GAME, PIECES, Face, GameState
from engine.replay import apply

LETTERS = {"e": Face.EGG, "t": Face.TADPOLE, "f": Face.FROG}


def position(*rows: str, to_move: int = 0, spawns: tuple[int, int] | None = None,
             piles: tuple[int, int] = (0, 0), options: Any = "small-13") -> GameState:
    """A game whose board is ``rows`` (4 rows for the small ponds, 5 for the big)."""
    state = GAME.start({"players": ["ann", "bob"], "options": options})
    assert len(rows) == state.pond.size and all(len(r) == state.pond.size for r in rows)
    for y, row in enumerate(rows):
        for x, letter in enumerate(row):
            if letter != ".":
                state.board[(x, y)] = PIECES[int(letter.isupper())][LETTERS[letter.lower()]]
    if spawns is not None:
        state.spawns = list(spawns)
    state.piles = list(piles)
    state.current = to_move
    state.seen = {state.key(): 1}
    return state


def egg(player: int, x: int, y: int) -> dict[str, Any]:
    return {"type": "egg", "player": player, "at": [x, y]}


def move(player: int, origin: tuple[int, int], to: tuple[int, int]) -> dict[str, Any]:
    return {"type": "move", "player": player, "from": list(origin), "to": list(to)}


def play(state: GameState, *events: dict[str, Any]) -> GameState:
    """The state after ``events``, each through the protocol (the original untouched)."""
    for event in events:
        state = apply(GAME, state, GAME.read_event(event))
    return state


def rows(state: GameState) -> list[str]:
    return state.board.rows()
