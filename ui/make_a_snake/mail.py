"""What a Make-a-snake turn mail shows besides the words: the moves it may make
in the notation and the table's picture (``picture``)."""
from __future__ import annotations

from typing import Any

from engine.make_a_snake import MakeASnake
from engine.make_a_snake.state import State
from ui.make_a_snake.picture import table_picture


def turn_details(rules: MakeASnake, state: State, seat: int) -> dict[str, Any]:
    drawn = table_picture(state, seat)
    connecting = state.phase == "connect"
    return {
        "hand": None,
        "moves": [rules.format_action(a) for a in rules.legal_actions(state, seat)],
        "moves_intro": ("The moves you may make (write one on the first line of your reply):"),
        "picture": {
            "alt": drawn.alt, "width": drawn.width, "height": drawn.height,
            "caption": ("Each snake is drawn to scale on a grid of 10 cm squares, grown "
                        "from its head"
                        + ("; your tile is shown both ways up, labelled up and down, "
                           "a cross on a side the rules refuse." if connecting else ".")),
            "text": "The HTML version of this mail has a picture of the snakes to scale"
                    + (" with your tile shown both ways up." if connecting else "."),
        },
    }


def picture(state: State, seat: int) -> bytes:
    return table_picture(state, seat).png
