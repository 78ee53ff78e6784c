"""Helpers for the Animals on Board service and browser tests: a game started
from a known seed, moves through the services, and what each seat has seen."""

from __future__ import annotations

import random
from typing import Any

from engine.animals_on_board import GAME
from engine.animals_on_board.tiles import FACE_DOWN
from games import services
from games.models import Event, Game
from games.selectors import game_state_get
from tests.service.conftest import dealt_from, seat_user

SEED = "a11ba5ed" * 8


def start_animals(players: list, seed: str = SEED) -> Game:
    """A running game of Animals on Board, the seats in the order given."""
    with dealt_from(seed):
        game = services.game_create(user=players[0], game="animals_on_board",
                                    seats=len(players))
        for user in players[1:]:
            services.game_join(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game


def state_of(game: Game) -> Any:
    game.refresh_from_db()
    return game_state_get(game)


def submit(game: Game, action: dict[str, Any]) -> None:
    game.refresh_from_db()
    services.action_submit(game=game, user=seat_user(game, action["player"]), action=action,
                           expected_seq=game.seq)


def hunting_action(state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    """A legal action that often moves the face-down tile about: take a group
    of the face-down tile alone when it can pay, split it off alone when it can,
    else a random action (the engine's random bot)."""
    if not state.setup:
        for g, group in enumerate(state.middle):
            shown = GAME.view(state, seat)["middle"][g]
            if shown == [FACE_DOWN] and len(group) <= state.crates[seat]:
                return {"type": "take", "player": seat, "group": g}
        for g, shown in enumerate(GAME.view(state, seat)["middle"]):
            if FACE_DOWN in shown and len(shown) > 1 and rng.random() < 0.7:
                return {"type": "split", "player": seat, "group": g, "part": [FACE_DOWN]}
    return dict(GAME.bot_action(state, seat, rng))


def seen_tiles(game: Game, seats: int) -> dict[int | None, set[str]]:
    """Every tile each seat (None: a spectator) has seen so far: its own three
    tiles and ark, and every tile that lay face up in the middle."""
    state = GAME.start(game.config)
    seen: dict[int | None, set[str]] = {s: set() for s in [None, *range(seats)]}

    def look() -> None:
        face_up = {t for group in state.middle for t in group if t != state.face_down}
        for s in seen:
            seen[s] |= face_up
            if s is not None:
                seen[s] |= set(state.drawn[s]) | set(state.arks[s])

    look()
    for payload in Event.objects.filter(game=game).order_by("seq").values_list("payload",
                                                                               flat=True):
        state = GAME.fold(state, GAME.read_event(payload))
        look()
    return seen
