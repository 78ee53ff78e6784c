"""Exact positions of Animals on Board, built as records are: a deck whose
first tiles are the ones a test names, then every other tile of the species in
play in letter-and-number order; events folded through the game's protocol.

Deals follow the note: seat 0 draws the first three tiles, seat 1 the next
three, ...; once all have kept, the stack tops the middle up to 8 / 10 / 12
face-up tiles and adds one face down."""
from __future__ import annotations

from typing import Any

from engine.animals_on_board import GAME, State
from engine.animals_on_board.tiles import SPECIES, species_in_play, tiles_of
from engine.replay import apply

PLAYERS = ["ann", "bob", "cat", "dan"]


def deck(*first: str, seats: int = 2) -> list[str]:
    """The named tiles first, then the rest of the species in play in order."""
    every = [t for s in SPECIES[:species_in_play(seats)] for t in tiles_of(s)]
    assert len(set(first)) == len(first) and set(first) <= set(every), first
    return list(first) + [t for t in every if t not in first]


def config(*first: str, seats: int = 2) -> dict[str, Any]:
    return {"players": PLAYERS[:seats], "species": list(SPECIES[:species_in_play(seats)]),
            "deck": deck(*first, seats=seats)}


def record(events: list[dict[str, Any]], *first: str, seats: int = 2) -> dict[str, Any]:
    return {"format": "animals-on-board-game-record", "version": 1,
            "config": config(*first, seats=seats), "events": events}


def start(*first: str, seats: int = 2) -> State:
    return GAME.start(config(*first, seats=seats))


def play(state: State, *events: dict[str, Any]) -> State:
    """The state after ``events``, each applied to a copy (the argument is untouched)."""
    for event in events:
        state = apply(GAME, state, GAME.read_event(event))
    return state


def keep(p: int, tile: str) -> dict[str, Any]:
    return {"type": "keep", "player": p, "tile": tile}


def split(p: int, group: int, *part: str) -> dict[str, Any]:
    return {"type": "split", "player": p, "group": group, "part": list(part)}


def take(p: int, group: int) -> dict[str, Any]:
    return {"type": "take", "player": p, "group": group}


def pass_(p: int) -> dict[str, Any]:
    return {"type": "pass", "player": p}


def timeout(p: int) -> dict[str, Any]:
    return {"type": "timeout", "player": p}


def resign(p: int) -> dict[str, Any]:
    return {"type": "resign", "player": p}


def summary(state: State) -> dict[str, Any]:
    return GAME.summary(state)


# A two-player opening used by many tests. Ann draws A1 B2 C3 and keeps B2; bob
# draws D4 E5 F1 and keeps E5; A1 C3 D4 F1 go face up into the middle, the stack
# adds G2 H3 A4 B5 (8 face up) and C1 face down.
OPENING = ("A1", "B2", "C3", "D4", "E5", "F1", "G2", "H3", "A4", "B5", "C1")


def opened(*more: str) -> State:
    """Round 1 of the opening above, ann (seat 0, the flag) to move; ``more``
    tiles come next in the stack."""
    return play(start(*OPENING, *more), keep(0, "B2"), keep(1, "E5"))


def with_crates(state: State, *crates: int) -> State:
    """The same position with these crates held, as earlier rounds could have left them."""
    state = state.copy()
    state.crates = list(crates)
    return state


def position(arks: list[list[str]], middle: list[list[str]], crates: list[int], *,
             face_down: str | None = None, current: int = 0, start_player: int = 0,
             in_round: list[int] | None = None, resigned: tuple[int, ...] = (),
             round: int = 2) -> State:
    """A round in play as earlier rounds could have left it: these arks, these
    groups in the middle (``face_down`` one of their tiles), the stack every
    other tile of the species in play, in letter-and-number order."""
    seats = len(arks)
    placed = [t for a in arks for t in a] + [t for g in middle for t in g]
    state = start(*placed, seats=seats)
    state.drawn = [[] for _ in range(seats)]
    state.setup = False
    state.next_draw = len(placed)
    state.arks = [list(a) for a in arks]
    state.middle = [sorted(g) for g in middle]
    state.face_down = face_down
    state.crates = list(crates)
    state.round = round
    state.start_player = start_player
    state.resigned = list(resigned)
    state.in_round = [s for s in range(seats) if s not in resigned] if in_round is None \
        else in_round
    state.current = current
    return state


def random_game(seed: int, seats: int, *, leave: bool = True,
                ) -> tuple[dict[str, Any], list[State]]:
    """A game played to its end by random bots as a server would run it (the
    forced passes appended by themselves), with now and then a seat out of
    time or resigning when ``leave``: its record and the state after each event
    (the first is the start)."""
    import random

    from engine.selfplay import secret_seed

    rng = random.Random(seed)
    cfg = GAME.setup({}, PLAYERS[:seats], secret_seed(seed))
    states = [GAME.start(cfg)]
    events: list[dict[str, Any]] = []
    while not (wait := GAME.awaiting(states[-1])).finished:
        state = states[-1]
        event: Any = GAME.automatic(state)
        if event is None:
            seat = rng.choice(wait.players)
            roll = rng.random() if leave else 1.0
            if roll < 0.01 and len(state.active()) > 1:
                event = GAME.resign(state, rng.choice(state.active()))[0]
            elif roll < 0.05:
                event = GAME.timeout(state, seat)[0]
            else:
                event = GAME.bot_action(state, seat, rng)
        states.append(apply(GAME, state, event))
        events.append(dict(event))
    record = {"format": GAME.record_format, "version": GAME.record_version,
              "config": cfg, "events": events}
    return record, states
