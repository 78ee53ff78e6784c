"""The final standings: each player's place, points, and where the points came
from (rule book: "Scoring after each move", "End-game scoring", the fly and the
frog), read from the state's score log, which records every award with its kind.

Places follow the points, ties sharing a place ("1, 1, 3"); a player who
resigned keeps their points but cannot be among the winners, so they are listed
after everyone still in the game, without a place.
"""
from __future__ import annotations

from typing import Any

from .state import Award, GameState

SOURCES: tuple[str, ...] = (
    "grass", "sand", "blue", "orange", "worm", "freak", "end_game", "fly", "frog",
)
"""Where points come from: completed features by kind, unfinished features at the
end of the game (``end_game``), and the guesses for the fly and the frog."""


def source_of(entry: Award) -> str:
    """The source a score-log entry counts towards."""
    return "end_game" if entry["unfinished"] else entry["kind"]


def breakdown(state: GameState) -> list[dict[str, dict[str, int]]]:
    """Per seat, per source: the points and how many awards made them."""
    rows: list[dict[str, dict[str, int]]] = [
        {source: {"points": 0, "count": 0} for source in SOURCES}
        for _ in range(state.players)
    ]
    for entry in state.log:
        cell = rows[entry["seat"]][source_of(entry)]
        cell["points"] += entry["points"]
        cell["count"] += 1
    return rows


def standings(state: GameState) -> list[dict[str, Any]]:
    """Every seat, best first: ``seat``, ``place`` (None for a resigned seat),
    ``points``, ``winner``, ``resigned`` and ``sources`` (see ``breakdown``)."""
    sources = breakdown(state)
    active = [s for s in range(state.players) if s not in state.resigned]
    gone = [s for s in range(state.players) if s in state.resigned]
    ranked = sorted(active, key=lambda s: -state.scores[s]) + \
        sorted(gone, key=lambda s: -state.scores[s])
    rows = []
    for seat in ranked:
        place = None
        if seat not in state.resigned:
            # the place of the first of those with as many points
            place = 1 + next(j for j, other in enumerate(ranked)
                             if state.scores[other] == state.scores[seat])
        rows.append({
            "seat": seat,
            "place": place,
            "points": state.scores[seat],
            "winner": seat in state.winners,
            "resigned": seat in state.resigned,
            "sources": sources[seat],
        })
    return rows
