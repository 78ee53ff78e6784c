"""What an Animals on Board turn mail shows besides the words: the seat's
tiles, a few moves in the notation, and the picture of the table
(``board_picture``), all from what the seat may see."""
from __future__ import annotations

from typing import Any

from engine.animals_on_board import GAME, AnimalsOnBoard, State
from engine.animals_on_board.events import Event
from engine.animals_on_board.view import seat_view
from ui.animals_on_board.board_picture import board_picture, draw_view
from ui.animals_on_board.species import name_of

SAMPLE_MOVES = 6


def sample_moves(state: State, seat: int) -> list[str]:
    """A few legal moves: every keep, else a take of each group the seat can pay
    for and a one-tile split of each group (the full list of splits is long)."""
    actions = GAME.legal_actions(state, seat)
    takes = [a for a in actions if a["type"] != "split"]
    firsts: dict[int, Event] = {}
    for a in actions:
        if a["type"] == "split":
            firsts.setdefault(a["group"], a)
    picked = (takes + list(firsts.values()))[:SAMPLE_MOVES]
    return [GAME.format_action(a) for a in picked]


def turn_details(rules: AnimalsOnBoard, state: State, seat: int) -> dict[str, Any]:
    """The mail's parts (notifications/email/board.txt and .html): no hand; the
    seat's own tiles (its three at the start, else its ark) said with the picture."""
    names = list(state.config.players)
    picture = draw_view(seat_view(state, seat), names)
    own = state.drawn[seat] if state.setup else sorted(state.arks[seat])
    tiles = (("Your three tiles: " if state.setup else "Your ark: ")
             + (", ".join(f"{t} ({name_of(t)})" for t in own) or "empty")
             + f". Your food crates: {state.crates[seat]}.")
    return {
        "hand": None,
        "moves": sample_moves(state, seat),
        "moves_intro": "Some moves you could make (groups are numbered from 0; "
                       "write the face-down tile as ?):",
        "picture": {"alt": picture.alt, "width": picture.width, "height": picture.height,
                    "text": f"{tiles}\nThe HTML version of this mail has a picture of "
                            "the table.",
                    "caption": f"{tiles} Each group of the middle is drawn with its "
                               "number and price; the striped tile is the face-down one "
                               "(write it ?). Each tile shows its species' sign, its "
                               "number and how the notation writes it (its letter and "
                               "number)."},
    }


def picture(state: State, seat: int) -> bytes:
    return board_picture(state, seat).png
