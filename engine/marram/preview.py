"""What a move would score, before it is made: the query behind the game page's
"completes the grass patch: +10 for you" and ``GET /api/games/{id}/preview/``.

The move is applied to a copy of the state (``apply`` is pure), and the answer
is read off the difference: the awards the move adds to the score log, the
features it completes (scored or not), and whether it ends the game. Nothing
else of the copy leaves this module: the move may end the turn, and the copy
then holds the next tiles drawn from the deck, which nobody may see.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .game import apply
from .state import GameState


def score_preview(state: GameState, action: Mapping[str, Any]) -> dict[str, Any]:
    """The score changes ``action`` would make, per seat and with their reasons.

    Raises IllegalAction (and changes nothing) when the move is not legal now.
    The answer: ``awards`` (the score log's new entries: seat, points, feature,
    kind), ``gains`` (points per seat, every seat listed), ``scores`` (after the
    move), ``completed`` (the kinds of the features the move completes, with how
    many, scored or not) and ``ends_game``.
    """
    after = apply(state, action)
    awards = [dict(entry) for entry in after.log[len(state.log):]]
    completed = {kind: n - state.completed.get(kind, 0)
                 for kind, n in after.completed.items() if n > state.completed.get(kind, 0)}
    return {
        "awards": awards,
        "gains": [new - old for new, old in zip(after.scores, state.scores, strict=True)],
        "scores": list(after.scores),
        "completed": completed,
        "ends_game": after.finished,
    }
