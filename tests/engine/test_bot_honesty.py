"""Every game's bots are honest by construction: what a bot is handed
(``Game.determinize``) is the same for two states that differ only in what the
seat cannot see, for every game of the registry (and tic-tac-toe's secret
opening); a game that declares hidden information cannot keep the default,
which hands over the whole state."""
from __future__ import annotations

import random
from typing import Any

import pytest

from engine import registry
from engine.bots import choose
from engine.fairness import draw_event
from engine.protocol import AnyGame, BotHooks, read_options
from engine.selfplay import secret_seed

from .tictactoe import GAME as TTT
from .tictactoe import TicTacToe

GAMES: list[tuple[AnyGame, dict[str, object]]] = [
    *((g, {}) for g in registry.games()),
    (registry.get("marram"), {"variant": "animals"}),
    (TTT, {"opening": "secret"}),
]


def positions(game: AnyGame, raw: dict[str, object], seed: int, every: int, count: int):
    """(state, seat) every ``every`` events of a random game, for ``count`` of
    them: the seat is one the game awaits."""
    secret = secret_seed(seed)
    state = game.start(game.setup(read_options(game, raw, 2), ["ann", "bob"], secret))
    rng = random.Random(seed)
    found, events = [], 0
    while len(found) < count and not (wait := game.awaiting(state)).finished:
        event = game.automatic(state)
        if event is None and wait.chance is not None:
            event = draw_event(secret, events, game.chance(state))
        elif event is None:
            seat = rng.choice(wait.players)
            if events % every == 0:
                found.append((game.copy(state), seat))
            event = game.bot_action(state, seat, rng, "random")
        state = game.fold(state, event)
        events += 1
    return found


def fingerprint(game: AnyGame, state: Any) -> object:
    dump = getattr(game, "dump_state", None)
    return (game.config(state), dump(state)) if dump is not None else repr(state)


@pytest.mark.parametrize("game, raw", GAMES, ids=lambda g: getattr(g, "key", str(g)))
def test_a_bot_is_handed_the_same_whatever_the_seat_cannot_see(game, raw):
    differing = 0
    for seed, every in ((1, 1), (2, 7)):
        for state, seat in positions(game, raw, seed, every, 4):
            # a state the seat cannot tell from this one: its secrets redrawn
            other = game.determinize(state, seat, random.Random(1000 + seed))
            assert game.view(other, seat) == game.view(state, seat)
            differing += fingerprint(game, other) != fingerprint(game, state)
            for k in (1, 2):
                handed = [fingerprint(game, game.determinize(s, seat, random.Random(k)))
                          for s in (state, other)]
                assert handed[0] == handed[1]
                moves = [choose(game, s, seat, level, random.Random(k)).action
                         for s in (state, other) for level in ("easy", "medium")]
                assert moves[:2] == moves[2:]
    # the check bites: the states it compares did differ in hidden parts
    assert (differing > 0) == game.hidden_information


@pytest.mark.parametrize("game, raw", [g for g in GAMES if not g[0].hidden_information],
                         ids=lambda g: getattr(g, "key", str(g)))
def test_a_game_without_hidden_information_shows_every_seat_everything(game, raw):
    for state, _ in positions(game, raw, 3, 2, 4):
        views = [{k: v for k, v in game.view(state, s).items() if k != "you"}
                 for s in (None, 0, 1)]
        assert views[0] == views[1] == views[2]


class Forgetful(TicTacToe):
    """Tic-tac-toe's secret opening without its determinize."""

    key = "forgetful"
    record_format = "forgetful"
    determinize = BotHooks.determinize


def test_a_game_with_secrets_and_no_determinize_is_refused():
    game = Forgetful()
    with pytest.raises(ValueError, match="declares hidden information but keeps the default"):
        registry.register(game)
    assert game.key not in [g.key for g in registry.games()]
    state = game.start(game.setup(read_options(game, {"opening": "secret"}, 2),
                                  ["ann", "bob"], secret_seed(1)))
    with pytest.raises(NotImplementedError, match="bots would see the whole state"):
        choose(game, state, 0, "easy", random.Random(1))
