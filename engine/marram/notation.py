"""A text notation for every action, for players who move by email.

    place T17 back 1,-2 r2 claim arc 4     lay tile T17 back face up at [1, -2],
                                            rotation 2, a token on the region of arc 4
    place T05 front 0,1 r0                 the same without a claim
    flip 3,0 r1 claim side 2               flip the tile at [3, 0] to rotation 1 and
                                            put a token on the beast crossing side 2
    pass                                   (only when no tile fits)
    guess fly 7  |  guess frog escape      a guess for the fly or the frog

Words are case-insensitive; ``at`` before a position, ``rotation``/``rot`` for
``r`` and ``no claim`` are accepted too. Positions are ``x,y`` (x east, y south),
arcs 0-7 clockwise from the north-west corner, sides 0 N, 1 E, 2 S, 3 W, as the
tile lies on the board. ``format_action`` writes the canonical form;
``describe_event`` tells any event in words, for the pages and the mail.
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import NotationError
from .types import Seat

__all__ = ["NotationError", "describe_event", "format_action", "parse_action"]


_POS = re.compile(r"^\(?\[?(-?\d+)\s*,\s*(-?\d+)\]?\)?$")
_ROT = re.compile(r"^r(?:ot(?:ation)?)?(\d)$")


def format_action(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "place":
        x, y = action["at"]
        text = f"place {action['tile']} {action['face']} {x},{y} r{action['rotation']}"
    elif kind == "flip":
        x, y = action["at"]
        text = f"flip {x},{y} r{action['rotation']}"
    elif kind == "pass":
        return "pass"
    elif kind == "guess":
        return f"guess {action['creature']} {action['hops']}"
    else:
        raise NotationError(f"a {kind} is not something a player writes")
    claim = action.get("claim")
    if claim:
        target = "arc" if "arc" in claim else "side"
        text += f" claim {target} {claim[target]}"
    return text


def _tokens(text: str) -> list[str]:
    words = text.strip().replace("[", " ").replace("]", " ").split()
    # glue "1 , 2" and "1, 2" into one position token
    joined = " ".join(words)
    joined = re.sub(r"(-?\d+)\s*,\s*(-?\d+)", r"\1,\2", joined)
    # "rotation 2" -> "r2"
    joined = re.sub(r"\b(?:rotation|rot|r)\s+(\d)\b", r"r\1", joined, flags=re.I)
    return [w for w in joined.split() if w.lower() != "at"]


def _pos(word: str) -> list[int]:
    m = _POS.match(word)
    if not m:
        raise NotationError(f"'{word}' is not a position: write it as x,y (for example 1,-2)")
    return [int(m.group(1)), int(m.group(2))]


def _rotation(word: str) -> int:
    m = _ROT.match(word.lower())
    if not m or int(m.group(1)) > 3:
        raise NotationError(f"'{word}' is not a rotation: write r0, r1, r2 or r3")
    return int(m.group(1))


def _claim(words: list[str]) -> dict[str, int] | None:
    if not words:
        return None
    low = [w.lower() for w in words]
    if low in (["no", "claim"], ["noclaim"], ["claim", "none"]):
        return None
    if len(low) != 3 or low[0] != "claim" or low[1] not in ("arc", "side"):
        raise NotationError(f"'{' '.join(words)}' is not a claim: write 'claim arc 0-7' or "
                            "'claim side 0-3'")
    limit = 7 if low[1] == "arc" else 3
    if not low[2].isdigit() or int(low[2]) > limit:
        raise NotationError(f"a claimed {low[1]} is a number from 0 to {limit}, "
                            f"not '{words[2]}'")
    return {low[1]: int(low[2])}


def parse_action(text: str, player: Seat) -> dict[str, Any]:
    """The action a line of notation describes, for the given seat."""
    words = _tokens(text)
    if not words:
        raise NotationError("the move is empty: write for example 'place T17 back 1,-2 r2'")
    verb = words[0].lower()
    if verb == "pass" and len(words) == 1:
        return {"type": "pass", "player": player}
    if verb == "place":
        if len(words) < 5:
            raise NotationError("a placement needs a tile, a face, a position and a rotation: "
                                "'place T17 back 1,-2 r2' (then optionally 'claim arc 4')")
        face = words[2].lower()
        if face not in ("front", "back"):
            raise NotationError(f"'{words[2]}' is not a face: write front or back")
        return {"type": "place", "player": player, "tile": words[1].upper(), "face": face,
                "at": _pos(words[3]), "rotation": _rotation(words[4]),
                "claim": _claim(words[5:])}
    if verb == "flip":
        if len(words) < 3:
            raise NotationError("a flip needs a position and a rotation: 'flip 3,0 r1'")
        return {"type": "flip", "player": player, "at": _pos(words[1]),
                "rotation": _rotation(words[2]), "claim": _claim(words[3:])}
    if verb == "guess":
        if len(words) != 3 or words[1].lower() not in ("fly", "frog"):
            raise NotationError("a guess is 'guess fly 7' or 'guess frog escape'")
        hops: int | str
        if words[2].lower() == "escape":
            hops = "escape"
        elif words[2].isdigit():
            hops = int(words[2])
        else:
            raise NotationError(f"'{words[2]}' is not a guess: a number of hops from 1 to 30 "
                                "or 'escape'")
        return {"type": "guess", "player": player, "creature": words[1].lower(), "hops": hops}
    raise NotationError(f"'{words[0]}' is not a move: start with place, flip, pass or guess")


TURNS = ("", ", turned a quarter clockwise", ", turned half round",
         ", turned three quarters clockwise")
"""A rotation in words: quarter turns clockwise, as ``orient`` turns a tile."""


def _claim_words(claim: dict[str, int] | None) -> str:
    if not claim:
        return ""
    if "arc" in claim:
        return f", with a token on the patch at arc {claim['arc']}"
    return f", with a token on the beast at side {claim['side']}"


def _move_words(event: dict[str, Any], who: str) -> str:
    """A player's move in words: what ``format_action`` writes in the notation."""
    kind = event["type"]
    if kind == "place":
        x, y = event["at"]
        return (f"{who} lays tile {event['tile']} {event['face']} face up at {x},{y}"
                f"{TURNS[event['rotation']]}{_claim_words(event.get('claim'))}")
    if kind == "flip":
        x, y = event["at"]
        return (f"{who} spends a spade card to flip the tile at {x},{y}"
                f"{TURNS[event['rotation']]}{_claim_words(event.get('claim'))}")
    if kind == "pass":
        return f"{who} passes"
    if kind == "guess":
        hops = event["hops"]
        if hops == "escape":
            return f"{who} guesses the {event['creature']} escapes"
        return f"{who} guesses the {event['creature']} hops {hops} time{'s' if hops != 1 else ''}"
    raise KeyError(kind)


def describe_event(event: dict[str, Any], names: list[str], *, forced: bool = False) -> str:
    """One line of a game's story, in words: "ann lays tile T17 back face up at
    1,-2, turned half round, with a token on the patch at arc 4". ``forced``: a
    pass the server made."""
    kind = event.get("type")
    seat = event.get("player")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    if kind == "creature_appears":
        return f"the {event['creature']} appears at {event['at'][0]},{event['at'][1]}"
    if kind == "hop":
        return f"the {event['creature']} hops to {event['to'][0]},{event['to'][1]}"
    if kind == "timeout":
        return f"{who} ran out of time"
    if kind == "resign":
        return f"{who} resigned"
    if kind == "pass" and forced:
        return f"{who} could lay no tile and passed"
    try:
        return _move_words(event, who)
    except (KeyError, IndexError, TypeError, ValueError):
        return f"{who}: {kind}"
