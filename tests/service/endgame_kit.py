"""Games of any registered game played to their end through the services, as
players and the chance task would: each awaited seat's action picked by the
game's own ``bot_action`` from a seeded generator, each chance draw resolved."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import registry
from games import services
from games.models import Game
from games.selectors import game_state_get
from tests.service.conftest import seat_user


def play_to_the_end(game: Game, *, rng_seed: int = 1, policy: str = "random",
                    limit: int = 2000, until: Callable[[Game], bool] | None = None) -> Game:
    """``game`` played until it is over (or ``until`` the game holds); the same
    moves for the same seed."""
    rules = registry.get(game.game)
    rng = random.Random(rng_seed)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING or until is not None and until(game):
            return game
        state = game_state_get(game)
        awaiting = rules.awaiting(state)
        if awaiting.chance is not None:
            assert services.chance_resolve(game), awaiting
            continue
        seat = awaiting.players[0]
        action = rules.bot_action(state, seat, rng, policy)
        services.action_submit(game=game, user=seat_user(game, seat), action=action,
                               expected_seq=game.seq)
    raise AssertionError(f"{game.game} still playing after {limit} actions")
