"""A text notation for every action, for players who move by email.

    take red                 take the top tile of the red stack
    connect up               connect the taken tile up
    connect down turn 2      turn the last two tiles of the snake over, then
                             connect the taken tile down (advanced rules)

Words are case-insensitive and ``take``/``connect`` may be left out (``red``,
``down turn 1``); ``turning`` works for ``turn``. ``format_action`` writes the
canonical form; ``describe_event`` tells any event in words.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import NotationError
from .events import Connect, SnakeEvent, Take
from .pieces import COLOURS, SIDES

_PUNCTUATION = ",.;:!'\""


def _words(text: str) -> list[str]:
    return [w.strip(_PUNCTUATION).lower() for w in text.split() if w.strip(_PUNCTUATION)]


def parse_action(text: str, seat: int) -> SnakeEvent:
    """The action a line of notation describes, for the given seat."""
    words = _words(text)
    if not words:
        raise NotationError("the move is empty: write 'take red', 'connect up' or "
                            "'connect down turn 1'")
    verb = words[0]
    if verb == "take" or verb in COLOURS:
        rest = words[1:] if verb == "take" else words
        if len(rest) != 1 or rest[0] not in COLOURS:
            raise NotationError("take which colour? write 'take red', 'take green', "
                                "'take blue' or 'take yellow'")
        return Take(type="take", player=seat, colour=rest[0])
    if verb != "connect" and verb not in SIDES:
        raise NotationError(f"'{verb}' is not a move: write 'take COLOUR', 'connect up' or "
                            "'connect down'")
    words = words[1:] if verb == "connect" else words
    if not words or words[0] not in SIDES:
        raise NotationError("connect it which side up? write 'connect up' or 'connect down'")
    side, rest = words[0], words[1:]
    turn = 0
    if rest:
        count = rest[-1]
        if len(rest) != 2 or rest[0] not in ("turn", "turning") \
                or not (count.isascii() and count.isdigit()):
            raise NotationError(f"'{' '.join(rest)}' is not a turn: write for example "
                                f"'connect {side} turn 1'")
        turn = int(rest[1])
    return Connect(type="connect", player=seat, side=side, turn=turn)


def format_action(action: Mapping[str, object]) -> str:
    kind = action.get("type")
    if kind == "take":
        return f"take {action['colour']}"
    if kind == "connect":
        turn = action.get("turn", 0)
        return f"connect {action['side']}" + (f" turn {turn}" if turn else "")
    raise NotationError(f"a {kind} is not something a player writes")


def describe_event(event: Mapping[str, object], names: Sequence[str], *,
                   forced: bool = False) -> str:
    """One line of a game's story, in words."""
    kind = event.get("type")
    seat = event.get("player")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    if kind == "roll":
        face = event.get("face")
        shown = " and ".join(map(str, face)) if isinstance(face, list) else "?"
        return f"the die shows {shown}"
    if kind == "take":
        return f"{who} takes the top {event.get('colour')} tile"
    if kind == "connect":
        turn = event.get("turn", 0)
        turned = (f"turns the last {turn} tile{'s' if turn != 1 else ''} over and "
                  if isinstance(turn, int) and turn else "")
        return f"{who} {turned}connects the tile {event.get('side')}"
    if kind == "timeout":
        return f"{who} ran out of time"
    if kind == "resign":
        return f"{who} resigned"
    return f"{who}: {kind}"
