"""A finished game's replay shows everything at every step, as its seed is
revealed (the game's ``view_revealed``), to its players and anyone else:
Animals on Board's arks, face-down tile, setup and stack, Make-a-snake's
stacks, Marram's deck order. While the game runs, its replay (its players'
alone) shows nothing hidden at any step."""

from __future__ import annotations

import json
import random

import pytest

from engine import registry
from games import services
from games.models import Game
from games.selectors import game_state_get, rules_of
from tests.service.conftest import make_user, seat_user, signed_in, start_game_of
from tests.service.mail_kit import eager_tasks

pytestmark = pytest.mark.django_db

SEED = "7e" * 32


def play_until(game: Game, until) -> Game:
    """Random legal actions of the awaited seats until ``until(state)`` holds."""
    rng = random.Random(7)
    rules = rules_of(game)
    for _ in range(500):
        game.refresh_from_db()
        state = game_state_get(game)
        if until(state):
            return game
        wait = rules.awaiting(state)
        assert not wait.finished and wait.chance is None, wait
        seat = wait.players[0]
        action = dict(rules.bot_action(state, seat, rng))
        services.action_submit(game=game, user=seat_user(game, seat), action=action,
                               expected_seq=game.seq)
    raise AssertionError("the position was never reached")


def step(game: Game, user, at: int) -> dict:
    answer = signed_in(user).get(f"/games/{game.pk}/replay/steps.json", {"at": at})
    assert answer.status_code == 200, answer.content
    return answer.json()


def hidden_at(game: Game, at: int):
    """The engine's state after the first ``at`` events, secrets and all."""
    rules = registry.get(game.game)
    state = rules.start(game.config)
    for event in game.events.order_by("seq")[:at]:
        state = rules.fold(state, rules.read_event(event.payload))
    return state


def finish(game: Game, player) -> None:
    services.game_resign(game=game, user=player)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_animals_on_board_a_finished_replay_shows_every_ark_and_the_face_down_tile():
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = start_game_of("animals_on_board", [ann, bob], seed=SEED)
    # play on until bob's ark holds a tile and a tile lies face down in the middle
    game = play_until(game, lambda s: not s.setup and s.arks[1] and s.face_down is not None)
    at = game.seq
    secret = hidden_at(game, at)
    for viewer in (ann, bob):  # each player, while it runs
        view = step(game, viewer, at)["view"]
        assert "arks" not in view and "face_down" not in view and not view.get("revealed")
        assert "stack_order" not in view and "kept_tiles" not in view
    for tile in secret.arks[1]:  # bob's ark: ann never sees it
        assert f'"{tile}"' not in json.dumps(step(game, ann, at)["view"]), tile
    finish(game, bob)
    for viewer in (ann, cyd):
        view = step(game, viewer, at)["view"]
        assert view["revealed"] is True
        assert view["arks"] == [sorted(ark) for ark in secret.arks]
        assert view["face_down"] == secret.face_down
        assert view["stack_order"] == list(secret.config.deck[secret.next_draw:])
    # the setup's secret keeps too, at the first step
    first = step(game, cyd, 1)["view"]
    assert first["kept_tiles"][0] is not None and first["drawn_by"][1]


def test_make_a_snake_a_finished_replay_shows_what_lay_in_each_stack(settings):
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    with eager_tasks(settings):  # the die is rolled as the take's turn begins
        game = start_game_of("make_a_snake", [ann, bob], seed=SEED)
        game = play_until(game, lambda s: sum(len(t.tiles) for t in s.snakes) >= 2)
    at = game.seq
    secret = hidden_at(game, at)
    for viewer in (ann, bob):
        view = step(game, viewer, at)["view"]
        assert "stack_tiles" not in view and not view.get("revealed")
        assert set(view["stacks"].values()) <= set(range(40))  # counts, never tiles
    finish(game, bob)
    view = step(game, cyd, at)["view"]
    assert view["revealed"] is True
    assert view["stack_tiles"] == {c: list(secret.stacks[c][secret.drawn[c]:])
                                   for c in secret.stacks}
    assert all(tiles for tiles in view["stack_tiles"].values())


def test_marram_a_finished_replay_shows_the_deck_in_its_order():
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = start_game_of("marram", [ann, bob], seed=SEED)
    game = play_until(game, lambda s: len(s.board) >= 4)
    at = game.seq
    secret = hidden_at(game, at)
    deck = list(secret.config.deck[secret.drawn:])
    for viewer in (ann, bob):
        view = step(game, viewer, at)["view"]
        assert "deck" not in view and not view.get("revealed")
        assert view["tiles_left"] == len(deck)
    finish(game, bob)
    for viewer in (ann, cyd):
        view = step(game, viewer, at)["view"]
        assert view["revealed"] is True and view["deck"] == deck and deck


def test_pond_has_nothing_hidden_its_finished_replay_shows_the_view_itself():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of("pond", [ann, bob], seed=SEED)
    game = play_until(game, lambda s: len(list(s.board.pieces())) >= 3)
    at = game.seq
    running = step(game, ann, at)["view"]
    finish(game, bob)
    assert step(game, ann, at)["view"] == running
