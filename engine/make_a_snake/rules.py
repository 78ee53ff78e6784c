"""The fold: check an event against the rules and apply it
(shared/spec/make-a-snake.md, "A turn", "End and result").

A turn is three events: the server's ``roll``, the player's ``take`` and
``connect``. The server's ``timeout`` gives up the rest of a turn, ``resign``
takes a seat out at any time. ``fold`` works in place; after an
``IllegalAction`` the state must be thrown away (``engine.replay`` does).
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import cast

from ..errors import IllegalAction
from . import advanced, scoring
from .events import Connect, Resign, Roll, SnakeEvent, Take, Timeout
from .pieces import COLOURS, SIDES, Colour, Side
from .snake import flipped
from .state import End, State

RULES_VERSION = "2"
"""2: in the competitive game the last seat left in the turn order wins at once."""

FACES: tuple[tuple[Colour, Colour], ...] = (
    ("red", "green"), ("red", "blue"), ("red", "yellow"),
    ("green", "blue"), ("green", "yellow"), ("blue", "yellow"),
)
"""The die's six faces, in the order chance draws them; each comes up 1 time in 6."""
FACE_ODDS = Fraction(1, len(FACES))


# ---------------------------------------------------------------- reading fields

def _seat(state: State, raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < len(state.players):
        raise IllegalAction("bad_event", f"'player' must be a seat from 0 to "
                            f"{len(state.players) - 1}, got {raw!r}")
    return raw


def _face(raw: object) -> tuple[Colour, Colour]:
    if isinstance(raw, list) and len(raw) == 2 and all(c in COLOURS for c in raw):
        pair = tuple(sorted(raw, key=COLOURS.index))
        for face in FACES:
            if face == pair:
                return face
    raise IllegalAction("impossible_chance", f"the die has no face {raw!r}: each face "
                        "shows two different colours of " + ", ".join(COLOURS))


# ---------------------------------------------------------------- what may be done

def takeable(state: State) -> list[Colour]:
    """The stacks the player may take from after the roll: a rolled colour with
    tiles; when a rolled colour's stack is empty, any stack with tiles."""
    if state.die is None:
        return []
    rolled = [c for c in state.die if state.left(c) > 0]
    if len(rolled) < len(state.die):
        return state.stacks_with_tiles()
    return rolled


def connect_choice(state: State) -> advanced.Choice:
    assert state.choice is not None, "a connect is awaited only after a take"
    return state.choice


# ---------------------------------------------------------------- the fold

def fold(state: State, event: SnakeEvent) -> State:
    if state.finished:
        raise IllegalAction("game_finished", "the game is over")
    kind = event["type"]
    if kind == "roll":
        _roll(state, cast(Roll, event))
    elif kind == "resign":
        _resign(state, cast(Resign, event))
    else:
        seat = _seat(state, event.get("player"))
        if seat in state.resigned:
            raise IllegalAction("resigned", f"seat {seat} has resigned")
        if seat != state.current:
            raise IllegalAction("not_your_turn", f"it is seat {state.current}'s turn, "
                                f"not seat {seat}'s")
        if kind == "take":
            _take(state, cast(Take, event))
        elif kind == "connect":
            _connect(state, cast(Connect, event))
        elif kind == "timeout":
            _timeout(state, cast(Timeout, event))
        else:
            raise IllegalAction("bad_event", f"unknown event type {kind!r}")
    state.events += 1
    return state


def _roll(state: State, event: Roll) -> None:
    if state.phase != "roll":
        raise IllegalAction("not_pending", f"no roll is due: the game awaits a {state.phase}")
    state.die = _face(event.get("face"))
    state.phase = "take"


def _take(state: State, event: Take) -> None:
    if state.phase != "take":
        raise IllegalAction("wrong_action", _not_now("take", state))
    colour = event.get("colour")
    if colour not in COLOURS:
        raise IllegalAction("bad_colour", f"'colour' must be one of {', '.join(COLOURS)}, "
                            f"got {colour!r}")
    allowed = takeable(state)
    if colour not in allowed:
        assert state.die is not None
        if state.left(colour) == 0:
            raise IllegalAction("empty_stack", f"the {colour} stack is empty")
        raise IllegalAction("not_rolled", f"the die shows {state.die[0]} and {state.die[1]}: "
                            f"take {' or '.join(allowed)}, not {colour}")
    tile = state.top(colour)
    state.drawn[colour] += 1
    state.taken = tile
    snake = state.snake_of(state.current)
    state.choice = advanced.choice(snake, tile, state.advanced)
    state.phase = "connect"
    if len(state.stacks_with_tiles()) <= 2:
        state.last_round = True


def _connect(state: State, event: Connect) -> None:
    if state.phase != "connect":
        raise IllegalAction("wrong_action", _not_now("connect", state))
    side = event.get("side")
    if side not in SIDES:
        raise IllegalAction("bad_side", f"'side' must be up or down, got {side!r}")
    turn = event.get("turn", 0)
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
        raise IllegalAction("bad_turn", f"'turn' must be a number of tiles, 0 or more, "
                            f"got {turn!r}")
    choice = connect_choice(state)
    tile = state.taken
    assert tile is not None
    if turn != choice.turn:
        if choice.turn == 0:
            raise IllegalAction("wrong_turn", f"{tile} fits without turning any tile "
                                f"over: 'turn' must be 0, not {turn}")
        last = "tile" if choice.turn == 1 else f"{choice.turn} tiles"
        raise IllegalAction("wrong_turn", f"{tile} fits on neither side: the last {last} "
                            f"must be turned over first, not {turn}")
    if side not in choice.sides:
        other = flipped(side)
        raise IllegalAction("does_not_fit", f"{tile} {side} would overlap only tiles of "
                            f"other colours (advanced rules): connect it {other}")
    _lay(state, tile, side, turn)
    _end_turn(state)


def _lay(state: State, tile: str, side: Side, turn: int) -> None:
    snake = state.snake_of(state.current)
    if turn:
        snake.tiles = snake.turned(turn)
    snake.tiles.append(snake.with_tile(tile, side))
    state.taken = state.choice = None
    if state.lollipop:
        state.touched = scoring.touched(snake)


def _timeout(state: State, event: Timeout) -> None:
    if state.phase not in ("take", "connect"):
        raise IllegalAction("not_pending", "a timeout comes only while the game awaits "
                            "a take or a connect")
    _give_up_turn(state)


def _give_up_turn(state: State) -> None:
    """The rest of the current seat's turn: nothing is taken after a roll; a
    taken tile is connected up (as in the basic game if up does not fit)."""
    if state.phase == "connect":
        assert state.taken is not None
        _lay(state, state.taken, "up", 0)
    _end_turn(state)


def _resign(state: State, event: Resign) -> None:
    """A seat leaves the turn order, at any time (while its roll is due too: the
    roll then passes to the next seat). In the competitive game the last seat
    left wins at once; in the lollipop hunt the others play on. A tile taken and
    not yet connected, by the seat that leaves or by the last seat left, is
    connected up first, as at a timeout."""
    seat = _seat(state, event.get("player"))
    if seat in state.resigned:
        raise IllegalAction("resigned", f"seat {seat} has resigned already")
    if seat == state.current and state.phase == "connect":
        # a tile taken must be connected (the rule book), so it is, as at a timeout
        assert state.taken is not None
        _lay(state, state.taken, "up", 0)
    state.resigned.add(seat)
    if seat == state.current:
        _end_turn(state)
    elif _left_alone(state):
        if state.phase == "connect":  # the seat left connects its taken tile up first
            assert state.taken is not None
            _lay(state, state.taken, "up", 0)
        _finish(state, "resign")


def _not_now(action: str, state: State) -> str:
    awaited = {"roll": "the die has not been rolled yet", "take": "take a tile first",
               "connect": "connect the taken tile first"}
    return f"no {action} now: {awaited.get(state.phase, 'the game is over')}"


# ---------------------------------------------------------------- turns and the end

def _end_turn(state: State) -> None:
    state.die = None
    state.taken = state.choice = None
    if state.lollipop:
        if len(state.touched) == len(scoring.LOLLIPOPS):
            _finish(state, "won")
            return
        if state.last_round:
            _finish(state, "lost")  # "before 2 out of 4 stacks run out"
            return
    active = state.active()
    if _left_alone(state):
        _finish(state, "resign")
        return
    later = [s for s in active if s > state.current]
    if state.last_round and not state.lollipop:
        # the round is finished by the seats after the current one, up to the last
        if not later or not state.stacks_with_tiles():
            _finish(state, "stacks")
            return
        state.current = later[0]
    else:
        state.current = later[0] if later else active[0]
    state.phase = "roll"


def _left_alone(state: State) -> bool:
    """Whether the game ends for want of players: in the competitive game when
    one seat is left in the turn order (it wins), in the lollipop hunt when none is."""
    return len(state.active()) <= (0 if state.lollipop else 1)


def _finish(state: State, end: End) -> None:
    state.phase = "over"
    state.die = None
    state.taken = state.choice = None
    state.end = end
    if state.lollipop:
        state.winners = tuple(state.active()) if end == "won" else ()
    else:
        scoring.measure(state)



def chance_outcomes(state: State) -> Mapping[tuple[Colour, Colour], Fraction] | None:
    """The die's faces and their odds when a roll is due, else None."""
    if state.phase != "roll":
        return None
    return dict.fromkeys(FACES, FACE_ODDS)
