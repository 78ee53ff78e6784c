"""A text notation for every action, for players who move by email:

    keep C4             keep C4, one of your three tiles, on your ark (setup)
    split 0 A1 H3 ?     split A1, H3 and the face-down tile off group 0
    take 1              take group 1, paying a crate a tile
    pass                (only when you can neither split nor pay for a group)

Groups are numbered from 0 in the order the middle lists them, as in the game
record. Words and tiles are case-insensitive; ``group`` before a number, commas
and a colon after it are accepted too (``split group 0: A1, ?``).
``format_action`` writes the canonical form; ``describe_event`` tells any event
in words without naming a secret (a keep never says which tile)."""
from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import NotationError
from .events import Event, Keep, Pass, Split, Take
from .tiles import FACE_DOWN, Seat, is_tile

USAGE = ("write 'keep C4', 'split 0 A1 H3' (the face-down tile as ?), 'take 1' or 'pass'")


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,:;]+", text.strip()) if w]


def _tile(word: str) -> str:
    tile = word.upper()
    if tile != FACE_DOWN and not is_tile(tile):
        raise NotationError(f"'{word}' is not a tile: write a species letter A to L and "
                            "a number 1 to 5 (C4), or ? for the face-down tile")
    return tile


def _group(words: list[str], verb: str) -> tuple[int, list[str]]:
    if words and words[0].lower() == "group":
        words = words[1:]
    if not words or not words[0].isdigit():
        raise NotationError(f"after '{verb}' write the group's number, counted from 0 "
                            f"(for example '{verb} 0')")
    return int(words[0]), words[1:]


def parse_action(text: str, seat: Seat) -> Event:
    words = _words(text)
    if not words:
        raise NotationError(f"the line is empty: {USAGE}")
    verb, rest = words[0].lower(), words[1:]
    if verb == "keep":
        if len(rest) != 1 or _tile(rest[0]) == FACE_DOWN:
            raise NotationError("write 'keep' and one of your three tiles, like 'keep C4'")
        return Keep(type="keep", player=seat, tile=_tile(rest[0]))
    if verb == "split":
        group, tiles = _group(rest, "split")
        if not tiles:
            raise NotationError("name the tiles that leave the group: 'split 0 A1 H3'")
        return Split(type="split", player=seat, group=group, part=[_tile(w) for w in tiles])
    if verb == "take":
        group, extra = _group(rest, "take")
        if extra:
            raise NotationError("a take names only the group: 'take 1'")
        return Take(type="take", player=seat, group=group)
    if verb == "pass" and not rest:
        return Pass(type="pass", player=seat)
    raise NotationError(f"'{text.strip()}' is not a move: {USAGE}")


def _sorted_part(part: Sequence[str]) -> list[str]:
    return sorted(part, key=lambda t: (t == FACE_DOWN, t))


def format_action(action: Event) -> str:
    if action["type"] == "keep":
        return f"keep {action['tile']}"
    if action["type"] == "split":
        return f"split {action['group']} " + " ".join(_sorted_part(action["part"]))
    if action["type"] == "take":
        return f"take {action['group']}"
    if action["type"] == "pass":
        return "pass"
    raise NotationError(f"a {action['type']} is not something a player writes")


def describe_event(event: Event, names: Sequence[str], *, forced: bool = False) -> str:
    p = event["player"]
    who = names[p] if 0 <= p < len(names) else f"player {p}"
    if event["type"] == "keep":
        return f"{who} keeps one of their three tiles on their ark, in secret"
    if event["type"] == "split":
        tiles = ", ".join("the face-down tile" if t == FACE_DOWN else t
                          for t in _sorted_part(event["part"]))
        return f"{who} splits {tiles} off group {event['group']} and gains a food crate"
    if event["type"] == "take":
        return f"{who} takes group {event['group']} onto their ark and leaves the round"
    if event["type"] == "pass":
        why = " (they could neither split nor pay for a group)" if forced else ""
        return f"{who} passes and leaves the round{why}"
    if event["type"] == "timeout":
        return f"{who} ran out of time"
    return f"{who} resigned"
