"""What a Marram turn mail shows besides the words: the hand, some moves spread
over the hand and the board, and the board's picture (``board_picture``)."""
from __future__ import annotations

from typing import Any

from engine.marram import GameState, Marram
from engine.marram.events import MarramEvent
from ui.marram.board_picture import board_picture, layout

SAMPLE_MOVES = 8


def sample_moves(rules: Marram, state: GameState, seat: int) -> list[str]:
    """A few legal moves in the notation, spread over every tile in the hand (and
    the flips) and over each one's places: the first ones would all be one tile at
    one place."""
    groups: dict[str, list[MarramEvent]] = {}
    for action in rules.legal_actions(state, seat):
        tile = action.get("tile")  # a place's or a flip's
        groups.setdefault(tile if isinstance(tile, str) and tile else action["type"],
                          []).append(action)
    quota = dict.fromkeys(groups, 0)
    while sum(quota.values()) < min(SAMPLE_MOVES, sum(map(len, groups.values()))):
        for key, actions in groups.items():  # one more for each group, in turn
            if quota[key] < len(actions) and sum(quota.values()) < SAMPLE_MOVES:
                quota[key] += 1
    return [rules.format_action(actions[i * len(actions) // quota[key]])
            for key, actions in groups.items() for i in range(quota[key])]


def turn_details(rules: Marram, state: GameState, seat: int) -> dict[str, Any]:
    plan = layout(state, seat)
    return {
        "hand": list(state.hands[seat]),
        "moves": sample_moves(rules, state, seat),
        "moves_intro": 'Some moves you could make (add "claim arc N" or "claim side N" to '
                       "put a token down):",
        "picture": {
            "alt": plan.alt(state), "width": plan.width, "height": plan.height,
            "text": "The HTML version of this mail has a picture of the board with the open "
                    "places\nand your hand.",
            "caption": "Each open place shows its position (x,y) as a move names it; the "
                       "numbers above and left of the board are the x and y of each column "
                       "and row. Your hand is drawn below the board, front and back, as "
                       "printed (rotation r0); r1 turns a tile a quarter clockwise.",
        },
    }


def picture(state: GameState, seat: int) -> bytes:
    return board_picture(state, seat).png
