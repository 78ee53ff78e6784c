"""What a Pond turn mail shows besides the words: a few moves in the notation
(eggs and moves, spread over the pond), the pond in letters for plain-text
readers, and the pond's picture (``board_picture``) for the HTML part."""
from __future__ import annotations

from typing import Any

from engine.pond import GAME, GameState, PondEvent, PondGame
from ui.pond.board_picture import alt_text, board_picture, layout

SAMPLE_MOVES = 6


def sample_moves(state: GameState, seat: int) -> list[str]:
    """A few legal actions in the notation: eggs and moves in turn, each spread
    over the list (the first ones would all be eggs in the north row)."""
    groups: dict[str, list[PondEvent]] = {}
    for action in GAME.legal_actions(state, seat):
        groups.setdefault(action["type"], []).append(action)
    picked: list[PondEvent] = []
    quota = {kind: min(len(actions), SAMPLE_MOVES // len(groups) + 1)
             for kind, actions in groups.items()}
    for kind, actions in groups.items():
        n = quota[kind]
        picked += [actions[i * len(actions) // n] for i in range(n)]
    return [GAME.format_action(a) for a in picked[:SAMPLE_MOVES]]


def pond_rows(state: GameState) -> list[str]:
    """The pond in letters with its coordinates: ``e t f`` light, ``E T F`` dark."""
    size = state.pond.size
    head = "    " + " ".join(str(x) for x in range(size))
    return [head, *(f"{y:>2}  " + " ".join(row) for y, row in enumerate(state.board.rows()))]


def turn_details(rules: PondGame, state: GameState, seat: int) -> dict[str, Any]:
    plan = layout(state, seat)
    return {
        "moves": sample_moves(state, seat),
        "pond_rows": pond_rows(state),
        "board_text": "pond/mail_board.txt",
        "board_html": "pond/mail_board.html",
        "picture": {"alt": alt_text(state, seat), "width": plan.width, "height": plan.height},
    }


def picture(state: GameState, seat: int) -> bytes:
    return board_picture(state, seat).png
