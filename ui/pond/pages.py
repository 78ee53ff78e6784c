"""What Pond's game page and rules page show beyond the generic shell: what
happened since the player's last move (the latest egg or move with what it
developed and scored), its measure in the final standings (the piles, the eggs
left and why the game ended), and the rules page with the numbers of each option
set read from the engine (games.pages asks for them through ``ui.GameUI``)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.pond import NAMED
from engine.pond.adapter import GAME, OPTION_SETS
from engine.pond.pieces import COLOURS
from engine.pond.rules import REPETITIONS
from engine.pond.state import GameState
from engine.pond.view import LastTurn, last_turn
from games.game_ui import Measure, Since

SINCE_SHOWN = 20
"""The most events the "since your last move" list shows (the latest ones)."""

END_WORDS = {
    "target": "a pile reached the target",
    "elimination": "a player could not take their turn",
    "repetition": "the same position came up for the third time",
    "resign": "a player resigned",
}


def _xy(pos: Sequence[int]) -> str:
    return f"{pos[0]},{pos[1]}"


def positions_words(positions: Sequence[Sequence[int]]) -> str:
    """"0,0", "0,0 and 2,0", "0,0, 2,0 and 1,1": north first, then west first."""
    names = [_xy(p) for p in sorted(positions, key=lambda p: (p[1], p[0]))]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def turn_words(last: LastTurn | None) -> str:
    """What an egg or a move did after it landed, in words (``engine.pond.view.last_turn``)."""
    if not last:
        return ""
    developed = last["developed"]
    parts = [f"developed {positions_words(developed)}" if developed else "developed nothing"]
    scored = last["scored"]
    if scored:
        by_colour = {c: sum(1 for s in scored if s["colour"] == c) for c in COLOURS}
        counts = " and ".join(f"{n} {c}" for c, n in by_colour.items() if n)
        parts.append(f"scored {len(scored)} piece{'s' if len(scored) != 1 else ''} ({counts})")
    return "; ".join(parts)


def since_last_move(state: GameState, since: Since, names: list[str]) -> dict[str, Any]:
    """The events since the player's own last move (games.game_ui.Since), each in
    words; the latest egg or move also says what it developed and scored (the
    state keeps what the last turn did)."""
    latest_turn = next((t.seq for t in reversed(since.events) if t.type in ("egg", "move")),
                       None)
    events = []
    for told in since.events:
        detail = ""
        if told.seq == latest_turn and state.last is not None:
            detail = turn_words(last_turn(state))
        events.append({"seq": told.seq, "type": told.type, "player": told.payload.get("player"),
                       "text": GAME.describe_event(GAME.read_event(told.payload), names),
                       "detail": detail})
    return {"events": events, "more": since.more}


def final_measure(state: GameState, names: list[str]) -> Measure:
    """The final standings' column: each pile (the rules name the winners, which
    the piles alone do not after a resignation or an elimination), with the
    colour played and the eggs left, and why the game ended."""
    why = END_WORDS.get(state.end or "", "")
    return Measure(
        "Pile", tuple(str(pile) for pile in state.piles),
        tuple(f"{COLOURS[seat]}, {eggs} egg{'' if eggs == 1 else 's'} left in the spawn"
              for seat, eggs in enumerate(state.spawns)),
        ending=f"The game ended because {why}." if why else "")


def rules_page() -> tuple[str, dict[str, Any]]:
    """The rules in the project's own words, with the option sets read from the
    engine (size, eggs, target) and the mail notation."""
    sets = []
    for choice in OPTION_SETS:
        pond = NAMED[str(choice.value)]  # the choices' values are NAMED's keys
        sets.append({"name": choice.value, "label": choice.label, "size": pond.size,
                     "eggs": pond.eggs, "target": pond.target})
    return "pond/rules.html", {"option_sets": sets, "repetitions": REPETITIONS}
