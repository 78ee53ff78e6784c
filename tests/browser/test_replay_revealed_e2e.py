"""A finished game's replay shows, at each step, what was hidden then, drawn by
the game's own replay module: Make-a-snake's stacks tile by tile, Marram's draw
pile in its order. The replay of a running game says nothing of either."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import services
from games.models import Game
from games.selectors import game_state_get, rules_of
from tests.service.conftest import make_user, seat_user, start_game_of
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "7e" * 32


def play_moves(game: Game, moves: int) -> Game:
    rng = random.Random(7)
    rules = rules_of(game)
    while True:
        game.refresh_from_db()
        if game.seq >= moves:
            return game
        state = game_state_get(game)
        seat = rules.awaiting(state).players[0]
        services.action_submit(game=game, user=seat_user(game, seat),
                               action=dict(rules.bot_action(state, seat, rng)),
                               expected_seq=game.seq)


def replay_at(visitors: Any, live_server: Any, game: Game, at: int) -> Any:
    visitor = visitors()
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector(f"#replay[data-step='{game.seq}'][data-loading=false]")
    page.locator("#replay-slider").fill(str(at))
    page.wait_for_selector(f"#replay[data-step='{at}'][data-loading=false]")
    return page.locator("#replay-stage")


def test_make_a_snake_s_finished_replay_lists_each_stack_s_tiles(visitors, live_server,
                                                                 settings):
    ann, bob = make_user("ann"), make_user("bob")
    with eager_tasks(settings):  # the die is rolled in-process
        game = start_game_of("make_a_snake", [ann, bob], seed=SEED)
        game = play_moves(game, 6)
    at = game.seq
    state = game_state_get(game)
    assert "top tile first" not in replay_at(visitors, live_server, game, at).inner_text()
    services.game_resign(game=game, user=bob)
    game.refresh_from_db()
    words = replay_at(visitors, live_server, game, at).inner_text()
    red = state.stacks["red"][state.drawn["red"]:]
    assert f"The stacks, top tile first: red: {', '.join(red)};" in words, words


def test_marram_s_finished_replay_shows_the_draw_pile_in_its_order(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = play_moves(start_game_of("marram", [ann, bob], seed=SEED), 3)
    at = game.seq
    state = game_state_get(game)
    assert replay_at(visitors, live_server, game, at).locator("#replay-deck").is_hidden()
    services.game_resign(game=game, user=bob)
    game.refresh_from_db()
    deck = replay_at(visitors, live_server, game, at).locator("#replay-deck")
    left = list(state.config.deck[state.drawn:])
    assert deck.inner_text() == \
        f"The draw pile, next tile first ({len(left)}): {', '.join(left)}."
