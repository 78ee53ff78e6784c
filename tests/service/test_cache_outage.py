"""With the cache's Redis down, everything that counts requests in the cache (sign
-up, tokens, sign-in and password checks, invitations, new games, on the pages
and in the API) still answers as it would, never a 500: each process counts in
its own memory until Redis is back.

Each test runs its own redis-server as the cache, settings as production builds
them from CACHE_URL, and stops it."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import Invitation
from marram_site import cache as fallback
from marram_site.cache import redis_cache
from tests.service.conftest import body, client_for, make_user

pytestmark = pytest.mark.django_db

PASSWORD = "dune-grass-42"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class CacheRedis:
    """A redis-server of the test's own, which the test may stop and start again."""

    def __init__(self, workdir: Path) -> None:
        self.port, self.workdir = free_port(), workdir
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [server, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.workdir),
             "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                redis.Redis(port=self.port).ping()
                return
            except redis.ConnectionError:
                assert self.process.poll() is None and time.monotonic() < deadline
                time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)

    def stored(self) -> list[bytes]:
        return redis.Redis(port=self.port).keys("*")


@pytest.fixture
def cache_redis(settings, tmp_path) -> Iterator[CacheRedis]:
    server = CacheRedis(tmp_path)
    server.start()
    settings.CACHES = {"default": redis_cache(server.url)}
    yield server
    server.stop()


@pytest.fixture
def game(db):
    ann = make_user("ann")
    return services.game_create(user=ann, variant="classic", length="long", seats=4)


def signed_in_page(user) -> Client:
    client = Client(REMOTE_ADDR="203.0.113.40")
    client.force_login(user)
    return client


# What each request that counts in the cache answers when all is well.
def api_signup() -> int:
    return APIClient(REMOTE_ADDR="203.0.113.41").post("/api/auth/signup/", {
        "username": "eve", "email": "eve@example.org", "password": PASSWORD},
        format="json").status_code


def api_token() -> int:
    return APIClient(REMOTE_ADDR="203.0.113.42").post(
        "/api/auth/token/", {"username": "ann", "password": PASSWORD}, format="json").status_code


def api_invite(game) -> int:
    return client_for(game.created_by).post(
        f"/api/games/{game.pk}/invite/", {"emails": ["zed@example.org"]},
        format="json").status_code


def api_game_create(game) -> int:
    return client_for(game.created_by).post("/api/games/", {
        "variant": "classic", "length": "long", "seats": 2}, format="json").status_code


def page_signup() -> int:
    return Client(REMOTE_ADDR="203.0.113.43").post("/accounts/signup/", {
        "username": "fay", "email": "fay@example.org",
        "password1": PASSWORD, "password2": PASSWORD}).status_code


def page_sign_in(url: str) -> int:
    return Client(REMOTE_ADDR="203.0.113.44").post(
        url, {"username": "ann", "password": PASSWORD}).status_code


def page_lobby(game) -> int:
    return signed_in_page(game.created_by).post("/lobby/", {
        "variant": "classic", "length": "long", "seats": 2, "days_per_move": 3,
        "emails": "gus@example.org"}).status_code


def page_invite(game) -> int:
    return signed_in_page(game.created_by).post(
        f"/games/{game.pk}/invite/", {"emails": "hal@example.org"}).status_code


def page_password_change(game, url: str = "/accounts/password/") -> int:
    ann = game.created_by
    ann.is_staff = True
    ann.save()
    return signed_in_page(ann).post(url, {
        "old_password": PASSWORD, "new_password1": "marram-tide-77",
        "new_password2": "marram-tide-77"}).status_code


def page_email_change(game) -> int:
    return signed_in_page(game.created_by).post(
        "/accounts/email/", {"email": "ann@new.example", "password": PASSWORD}).status_code


REQUESTS = {
    "api signup": (lambda game: api_signup(), 201),
    "api token": (lambda game: api_token(), 200),
    "api invite": (api_invite, 201),
    "api new game": (api_game_create, 201),
    "page signup": (lambda game: page_signup(), 302),
    "sign-in page": (lambda game: page_sign_in("/accounts/login/"), 302),
    "admin sign-in": (lambda game: page_sign_in("/admin/login/"), 302),
    "api browsable sign-in": (lambda game: page_sign_in("/api/auth/login/"), 302),
    "lobby with invitations": (page_lobby, 302),
    "game page invitation": (page_invite, 302),
    "password change": (page_password_change, 302),
    "admin password change": (lambda game: page_password_change(game, "/admin/password_change/"),
                              302),
    "email change": (page_email_change, 302),
}


@pytest.mark.parametrize("name", REQUESTS)
def test_each_request_answers_as_usual_with_the_cache_down(name, cache_redis, game):
    if name == "admin sign-in":
        game.created_by.is_staff = True
        game.created_by.save()
    request, expected = REQUESTS[name]
    cache_redis.stop()
    assert request(game) == expected


def test_the_counts_go_to_redis_and_go_on_in_memory_while_it_is_down(
        settings, cache_redis, monkeypatch, caplog):
    settings.MARRAM_THROTTLE_RATES = {**settings.MARRAM_THROTTLE_RATES, "signup": "2/hour",
                                      "signin_account": "2/15m"}
    monkeypatch.setattr(fallback, "RETRY_SECONDS", 0)  # try Redis again at every request
    client = APIClient(REMOTE_ADDR="203.0.113.50")

    def sign_up(name: str):
        return client.post("/api/auth/signup/", {
            "username": name, "email": f"{name}@example.org", "password": PASSWORD},
            format="json")

    assert sign_up("eve").status_code == 201
    assert any(b"throttle_signup" in key for key in cache_redis.stored())  # counted in Redis
    cache_redis.stop()
    # down: the limit still holds, counted afresh in this process
    assert [sign_up(name).status_code for name in ("fay", "gus", "hal")] == [201, 201, 429]
    assert "cannot be reached" in caplog.text
    refused = sign_up("ivy")
    assert body(refused)["code"] == "throttled" and int(refused["Retry-After"]) > 0
    # so do the sign-in limits
    make_user("ann")
    wrong = [Client().post("/accounts/login/", {"username": "ann", "password": "x"}).status_code
             for _ in range(3)]
    assert wrong == [200, 200, 429]
    cache_redis.start()  # back, empty: it counts again
    assert sign_up("jo").status_code == 201
    assert "is back" in caplog.text
    assert any(b"throttle_signup" in key for key in cache_redis.stored())


def test_invitations_are_stored_once_whatever_the_cache(cache_redis, game):
    cache_redis.stop()
    assert api_invite(game) == 201
    assert list(Invitation.objects.filter(game=game).values_list("email", flat=True)) == [
        "zed@example.org"]
