"""Fixtures and small helpers for the service's tests: users, API clients with
tokens, games started through the services, and games with exact positions."""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import signin
from accounts.auth import CachedTokenAuthentication
from engine import fairness
from engine import marram as engine
from engine.marram import GAME as MARRAM
from games import services
from games.models import Event, Game, Seat
from games.selectors import game_state_get, projection_of
from live.state_cache import states
from tests.service.webhook_kit import Receiver, receiving


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The real hasher takes half a second a user by design; tests make many users.
    settings.PASSWORD_HASHERS = ["accounts.passwords.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def draw_chance_inline(settings):
    # Moves draw the fly and frog in their own transaction, so tests play straight
    # through; the tests of the resolve_chance task (test_celery*) turn this off.
    settings.MARRAM_DRAW_INLINE = True


@pytest.fixture(autouse=True)
def empty_caches():
    """Each test starts with cold caches (ids may repeat across test databases) and
    no requests counted by the throttles."""
    states.clear()
    CachedTokenAuthentication.forget_all()
    cache.clear()
    yield
    states.clear()
    CachedTokenAuthentication.forget_all()
    cache.clear()


@pytest.fixture(autouse=True)
def steady_signin_clock(monkeypatch):
    """The sign-in limits count in fixed windows (accounts.signin): a test that ran
    across a window's end would see its counts start again. Their clock stands still
    at 7.5 minutes past an hour, the middle of a 15-minute window (and of a minute)."""
    still = int(time.time()) // 3600 * 3600 + 450
    monkeypatch.setattr(signin, "time", SimpleNamespace(time=lambda: still))


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A real HTTP server on 127.0.0.1 for webhooks to call (webhook_kit)."""
    with receiving() as found:
        yield found


def make_user(name: str, *, staff: bool = False):
    return get_user_model().objects.create_user(
        name, email=f"{name}@example.org", password="dune-grass-42", is_staff=staff
    )


def client_for(user) -> APIClient:
    """The API as ``user``, by token."""
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def signed_in(user) -> Client:
    """The pages as ``user``, signed in (a session)."""
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def users(db) -> list:
    return [make_user(name) for name in ("ann", "bob", "cyd", "dee")]


def start_game(players: list, variant: str = "classic", length: str = "long", *,
               seed: str | None = None) -> Game:
    """A game created by the first player and joined by the others: it has started.

    The start draws the seat order and the seed. With ``seed`` (64 hex digits) the
    players sit in the order given and the deck and every chance draw follow from
    that seed: the same game on every run, for tests that need a given position."""
    with dealt_from(seed) if seed is not None else contextlib.nullcontext():
        game = services.game_create(user=players[0], variant=variant, length=length,
                                    seats=len(players))
        for user in players[1:]:
            services.game_join(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    if seed is not None:
        assert [seat_user(game, i) for i in range(len(players))] == list(players)
    return game


def start_game_of(kind: str, players: list, *, seed: str,
                  options: dict | None = None) -> Game:
    """A running game of ``kind`` (a registry key), the players seated in the order
    given and every draw from ``seed``; ``options`` as the lobby takes them."""
    with dealt_from(seed):
        game = services.game_create(user=players[0], game=kind, seats=len(players),
                                    options=options)
        for user in players[1:]:
            services.game_join(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game


@contextlib.contextmanager
def dealt_from(seed: str) -> Iterator[None]:
    """Games started inside keep their join order and take ``seed`` as their seed."""
    with mock.patch.object(fairness, "new_seed", return_value=seed), \
            mock.patch.object(secrets.SystemRandom, "shuffle", lambda self, seats: None):
        yield


def seat_user(game: Game, seat: int):
    return Seat.objects.get(game=game, index=seat).user


def play(game: Game, until: Callable[[Any], bool], *, limit: int = 400,
         choose: Callable[[list[dict]], dict] | None = None) -> Game:
    """Submit legal actions through the services (the first one, or ``choose``'s
    pick, no claims) until ``until(state)`` holds or the game ends. A chance event
    due (if the move did not draw it itself) is drawn as the task would."""
    for _ in range(limit):
        game.refresh_from_db()
        state = game_state_get(game)
        if state.finished or until(state):
            return game
        wait = engine.awaiting(state)
        if wait["kind"] == "chance":  # drawn after the commit, as the task does
            assert services.chance_resolve(game), wait
            continue
        actions = engine.legal_actions(state)
        assert wait["player"] is not None and actions, wait
        action = (choose or (lambda a: a[0]))(actions)
        services.action_submit(game=game, user=seat_user(game, wait["player"]),
                               action=action, expected_seq=game.seq)
    raise AssertionError(f"still playing after {limit} actions")


def event_count(game: Game | None = None) -> int:
    rows = Event.objects.all() if game is None else Event.objects.filter(game=game)
    return rows.count()


def custom_game(players: list, tiles: dict[str, dict], deck: list[str], *,
                variant: str = "classic", starter: str = "S0",
                seed: str | None = None) -> Game:
    """A running game on a custom catalogue, seats in the given order: for exact
    positions that a shuffled standard deck would not give."""
    names = [u.get_username() for u in players]
    config = engine.make_config(variant, "long", names, tiles, deck, starter)
    seed = seed or fairness.new_seed()
    game = Game.objects.create(
        game="marram", options={"variant": variant, "length": "long"},
        seat_count=len(players), status=Game.Status.RUNNING,
        created_by=players[0], rules_version=engine.RULES_VERSION, seed=seed,
        commitment=fairness.commitment(seed), config=engine.config_to_json(config),
        projection=projection_of(MARRAM, engine.new_game(config)),
    )
    for index, user in enumerate(players):
        Seat.objects.create(game=game, user=user, name=user.get_username(), index=index)
    return game


def tile(terrain: str, *, spade: bool = False) -> dict[str, Any]:
    return {"spade": spade, "front": {"terrain": terrain}}


def json_strings(value: Any) -> list[str]:
    """Every key and string value in a JSON document."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append(str(key))
            found += json_strings(item)
    elif isinstance(value, list):
        for item in value:
            found += json_strings(item)
    elif isinstance(value, str):
        found.append(value)
    return found


def body(response) -> Any:
    return json.loads(response.content)
