"""A text notation for every action, for players who move by email.

    egg 1,2          place an egg from your spawn at [1, 2]
    move 1,2 2,2     move your tadpole or frog from [1, 2] to [2, 2]

Positions are ``x,y`` as the record writes them, x growing east and y south
from 0,0 in the north-west corner. Words are case-insensitive and forgiving:
``place egg at 1,2``, ``move 1,2 to 2,2``, ``frog 0,0 -> 0,2``, ``1,2-2,2`` and
``[1, 2]`` are read too. ``format_action`` writes the canonical form.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..errors import NotationError
from .events import Egg, Move, PondEvent
from .pieces import Colour

__all__ = ["describe_event", "format_action", "parse_action"]

EXAMPLE = "'egg 1,2' or 'move 1,2 2,2'"
_POSITION = re.compile(r"^(\d+),(\d+)$")
_FILLER = {"at", "to", "from", "on", "an", "a", "the", "->", "-", "=>"}
_EGG_WORDS = {"egg", "place", "lay"}
_MOVE_WORDS = {"move", "tadpole", "frog", "jump", "hop", "swim"}


def _words(text: str) -> list[str]:
    text = re.sub(r"[\[\]()]", " ", text.strip().lower())
    text = re.sub(r"(\d+)\s*,\s*(\d+)", r"\1,\2", text)  # "1, 2" is one position
    text = re.sub(r"(\d),(\d+)\s*-+>?\s*(\d)", r"\1,\2 \3", text)  # "1,2-2,2" or "1,2->2,2"
    return [w for w in text.split() if w not in _FILLER]


def _position(word: str) -> list[int]:
    m = _POSITION.match(word)
    if not m:
        raise NotationError(f"'{word}' is not a position: write it as x,y (for example 1,2), "
                            "x counted east and y south from 0,0 in the north-west corner")
    return [int(m.group(1)), int(m.group(2))]


def parse_action(text: str, player: Colour) -> PondEvent:
    """The action one line of notation describes, for the given seat. Whether it
    is legal is the rules' business: this only reads it."""
    words = _words(text)
    if not words:
        raise NotationError(f"the move is empty: write for example {EXAMPLE}")
    verb = words[0]
    if verb in _EGG_WORDS:
        rest = [w for w in words[1:] if w != "egg"]
        if len(rest) != 1:
            raise NotationError("an egg needs one position: 'egg 1,2'")
        return Egg(type="egg", player=player, at=_position(rest[0]))
    if verb in _MOVE_WORDS or _POSITION.match(verb):
        rest = words[1:] if verb in _MOVE_WORDS else words
        if len(rest) != 2:
            raise NotationError("a move needs the position it starts from and the one it "
                                "goes to: 'move 1,2 2,2'")
        return Move({"type": "move", "player": player, "from": _position(rest[0]),
                     "to": _position(rest[1])})
    raise NotationError(f"'{words[0]}' is not a move: write for example {EXAMPLE}")


def _xy(raw: object) -> str:
    if isinstance(raw, list) and len(raw) == 2:
        return f"{raw[0]},{raw[1]}"
    return "?"


def format_action(action: Mapping[str, object]) -> str:
    kind = action.get("type")
    if kind == "egg":
        return f"egg {_xy(action.get('at'))}"
    if kind == "move":
        return f"move {_xy(action.get('from'))} {_xy(action.get('to'))}"
    raise NotationError(f"a {kind} is not something a player writes")


def describe_event(event: Mapping[str, object], names: Sequence[str], *,
                   forced: bool = False) -> str:
    """One line of a game's story, in words. Pond appends no event by itself, so
    none is ``forced``."""
    kind = event.get("type")
    seat = event.get("player")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    if kind == "egg":
        return f"{who} placed an egg at {_xy(event.get('at'))}"
    if kind == "move":
        return f"{who} moved from {_xy(event.get('from'))} to {_xy(event.get('to'))}"
    if kind == "timeout":
        return f"{who} ran out of time and missed the turn"
    if kind == "resign":
        return f"{who} resigned"
    return f"{who}: {kind}"
