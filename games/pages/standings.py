"""A finished game's final standings, one table for every game
(games/templates/games/final_standings.html): each seat's place, its name, the
game's own measure (``ui.GameUI.final_measure``, in the game's words: points, a
distance) and a winner's badge, best first.

The seats are ranked by ``engine.protocol.standings``, the one rule ratings use
too: the winners the rules name first, then the others by score in the game's
order, seats without a score, then seats that left; equal keys share a place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.template.loader import render_to_string

from engine.protocol import Projection, Standing, standings
from games.game_ui import Measure, ui_for
from games.models import Game


def score_text(score: Any) -> str:
    """A score as the default measure writes it: "–" for none, 12 not 12.0."""
    if score is None:
        return "–"
    if isinstance(score, float) and score.is_integer():
        return str(int(score))
    return str(score)


def _measure(game: Game, state: Any, names: list[str], p: Projection) -> Measure:
    made = ui_for(game.game).final_measure
    if made is not None:
        return made(state, names)
    return Measure("Score", tuple(score_text(s) for s in p.scores))


def _place(standing: Standing, ranked: Sequence[Standing], resigned: set[int]) -> str:
    if standing.out:
        return "resigned" if standing.seat in resigned else "out"
    shared = sum(1 for o in ranked if o.rank == standing.rank and not o.out) > 1
    return f"{'=' if shared else ''}{standing.rank}"


def final_standings(game: Game, state: Any, names: list[str], letters: list[str],
                    you: int | None) -> dict[str, Any] | None:
    """The table of a finished game (None while it runs), as the template and the
    page's state carry it, the seats' swatches lettered with ``letters``:
    ``heading`` (the measure's), ``ending`` (why it ended, if the game says),
    ``rows`` best first (``seat``, ``name``, ``letter``, ``place`` in words,
    ``measure``, ``detail``, ``badge``, ``winner``, ``you``) and ``html``, the
    table drawn."""
    rules = game.rules
    p = rules.projection(state)
    if not p.finished:
        return None
    measure = _measure(game, state, names, p)
    ranked = standings(p)
    resigned = {s.index for s in game.seat_list() if s.resigned and s.index is not None}
    badge = "won together" if p.cooperative else "winner"
    rows = [{"seat": s.seat, "name": names[s.seat], "letter": letters[s.seat],
             "place": _place(s, ranked, resigned),
             "measure": measure.values[s.seat] if s.seat < len(measure.values) else "",
             "detail": measure.details[s.seat] if s.seat < len(measure.details) else "",
             "winner": s.won, "badge": badge if s.won else "", "you": s.seat == you}
            for s in ranked]
    final = {"heading": measure.heading, "ending": measure.ending, "rows": rows}
    final["html"] = render_to_string("games/final_standings.html", {"final": final})
    return final
