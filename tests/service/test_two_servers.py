"""Two web machines on one database: two web servers with the production settings
on two loopback ports, both on the test database and the same Redis, and
Debian's nginx on the repository's config with both as its upstream, as
docker-compose.yml runs web and web2. Beside them a real Celery worker (it draws
the chance events and sends the mail) and an SMTP server collecting what it sends.

The same move raced through both servers is appended once; moves of several
games taken by either server, or by nginx, are each appended once and read back
alike from every server; each turn's "your turn" mail is sent once.

Uses the worker and SMTP fixtures of test_celery_worker.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import tempfile
import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from rest_framework.authtoken.models import Token

from engine import marram as engine
from games.models import Event, Game
from games.selectors import game_state_get
from notifications.models import Notification
from notifications.signing import reply_address
from tests.service import test_celery_worker as real
from tests.service.conftest import make_user, seat_user, start_game
from tests.service.mail_kit import awaited
from tests.service.proxy_kit import ROOT, TEMPLATE, nginx, upstream_servers, web_server
from tests.service.test_celery_worker import wait_for

worker, process_env, smtp, mailbox = real.worker, real.process_env, real.smtp, real.mailbox
quiet_worker, fresh_visits = real.quiet_worker, real.fresh_visits

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_url")]

ROUNDS = 12  # moves of each game in the second test


@dataclass(frozen=True)
class Servers:
    web: int
    web2: int
    nginx: int

    @property
    def all(self) -> list[int]:
        return [self.web, self.web2, self.nginx]


@pytest.fixture(scope="module")
def servers(process_env) -> Iterator[Servers]:
    """The two web servers (2 workers of 2 threads each, to spare the test machine)
    with one secret key, on what the worker uses (the test database, Redis, chance
    drawn by the worker), and nginx in front of both."""
    env = {name: value for name, value in process_env.items() if os.environ.get(name) != value}
    env.update(MARRAM_WEB_WORKERS="2", DJANGO_SECRET_KEY="two-servers-" + uuid.uuid4().hex)
    # in /tmp, which nginx's workers (nobody, under root) may enter
    with tempfile.TemporaryDirectory(prefix="marram-two-servers-") as name:
        workdir = Path(name)
        with web_server(workdir, name="web", env=env) as web, \
                web_server(workdir, name="web2", env=env) as web2, \
                nginx(workdir, [f"127.0.0.1:{web}", f"127.0.0.1:{web2}"]) as front:
            yield Servers(web, web2, front)


def call(port: int, token: str, method: str, path: str,
         payload: dict[str, Any] | None = None) -> tuple[int, Any]:
    """An API request with the user's token, as it arrives behind a TLS proxy."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=None if payload is None else json.dumps(payload),
                     headers={"Authorization": f"Token {token}", "X-Forwarded-Proto": "https",
                              "Content-Type": "application/json"})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        conn.close()


def token_of(user) -> str:
    return Token.objects.get_or_create(user=user)[0].key


@dataclass
class Turn:
    """What the player awaited may submit now."""

    seat: int
    seq: int
    token: str
    action: dict[str, Any]

    def body(self, key: str) -> dict[str, Any]:
        return {"seq": self.seq, "action": self.action, "idempotency_key": key}


def ready(game: Game) -> Turn:
    """Once the worker has drawn any chance due and sent the game's mail: whom the
    game awaits, at which seq, and the first legal action."""
    def settled() -> bool:
        seat, _ = awaited(game)
        pending = Notification.objects.filter(game=game, status="pending").exists()
        return seat is not None and not pending

    wait_for(settled, f"game {game.pk} to await a player with its mail sent")
    seat, _ = awaited(game)
    action = dict(engine.legal_actions(game_state_get(game))[0])
    action.pop("player", None)  # the server knows the seat
    return Turn(seat, game.seq, token_of(seat_user(game, seat)), action)


def race(requests: list[tuple[int, str, dict[str, Any]]], path: str) -> list[tuple[int, Any]]:
    """The requests (port, token, body) POSTed to ``path`` at the same moment."""
    start = threading.Barrier(len(requests))

    def send(request: tuple[int, str, dict[str, Any]]) -> tuple[int, Any]:
        port, token, payload = request
        start.wait()
        return call(port, token, "POST", path, payload)

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(send, requests))


def actions_path(game: Game) -> str:
    return f"/api/games/{game.pk}/actions/"


def test_the_same_move_through_both_servers_at_once_is_appended_once(servers, worker, mailbox):
    game = start_game([make_user("ann"), make_user("bob")])
    turn = ready(game)
    player = seat_user(game, turn.seat)
    # the player's two tabs, each with a key of its own
    answers = race([(servers.web, turn.token, turn.body("tab-1")),
                    (servers.web2, turn.token, turn.body("tab-2"))], actions_path(game))
    assert sorted(status for status, _ in answers) == [201, 409], answers
    [won] = [answer for status, answer in answers if status == 201]
    [lost] = [answer for status, answer in answers if status == 409]
    assert lost["code"] == "stale_seq" and lost["seq"] == won["seq"], lost
    appended = Event.objects.filter(game=game, seq__gte=turn.seq, seq__lt=won["seq"])
    assert [e.seq for e in appended] == [e["seq"] for e in won["events"]]
    assert Event.objects.filter(game=game, seq__gte=turn.seq, actor=player).count() == 1
    assert Event.objects.filter(game=game, idempotency_key__in=["tab-1", "tab-2"]).count() == 1

    # one request sent twice (a retry after a lost answer), one copy to each server
    turn = ready(game)
    answers = race([(servers.web, turn.token, turn.body("retried")),
                    (servers.web2, turn.token, turn.body("retried"))], actions_path(game))
    assert sorted(status for status, _ in answers) == [200, 201], answers
    first, again = sorted(answers, key=lambda answer: answer[0], reverse=True)
    assert again[1] == {**first[1], "repeated": True}
    assert Event.objects.filter(game=game, idempotency_key="retried").count() == 1
    assert Event.objects.filter(game=game, seq__gte=turn.seq, seq__lt=first[1]["seq"]).count() \
        == len(first[1]["events"])


def test_moves_taken_by_either_server_are_appended_read_and_mailed_once(servers, worker,
                                                                        mailbox):
    ann, bob, cyd, dee = (make_user(name) for name in ("ann", "bob", "cyd", "dee"))
    games = [start_game([ann, bob]), start_game([cyd, dee]), start_game([bob, cyd])]
    turns_begun: Counter[int] = Counter()  # a turn begins when the seat awaited changes
    last_seat: dict[int, int] = {}
    moves = 0
    for round_ in range(ROUNDS + 1):
        for game in games:
            turn = ready(game)  # the last round: the turn the last move began, mailed
            if last_seat.get(game.pk) != turn.seat:
                turns_begun[game.pk] += 1
            last_seat[game.pk] = turn.seat
            if round_ == ROUNDS:
                continue
            # web, web2, nginx, web, ...: a game's moves go through each in turn
            port = servers.all[moves % 3]
            moves += 1
            status, answer = call(port, turn.token, "POST", actions_path(game),
                                  turn.body(f"move-{game.pk}-{turn.seq}"))
            assert status == 201, answer
            # at once, the other server has the move too
            other = servers.web2 if port == servers.web else servers.web
            status, read = call(other, turn.token, "GET",
                                f"/api/games/{game.pk}/events/?since={turn.seq}")
            assert status == 200 and read["events"][:len(answer["events"])] == answer["events"]

    for game in games:
        game.refresh_from_db()
        token = token_of(seat_user(game, 0))
        reads = [call(port, token, "GET", f"/api/games/{game.pk}/events/?since=0")
                 for port in servers.all]
        assert [status for status, _ in reads] == [200, 200, 200]
        _, first = reads[0]
        assert all(read == first for _, read in reads), "the servers list other events"
        seqs = [event["seq"] for event in first["events"]]
        assert seqs == list(range(game.seq)) and first["seq"] == game.seq
        assert Event.objects.filter(game=game).count() == game.seq
        assert Event.objects.filter(game=game, actor__isnull=False).count() == ROUNDS

    # every turn's mail, once, whichever server took the move that began it
    turn_rows = Notification.objects.filter(game__in=games, kind="your_turn")
    assert Counter(row.game_id for row in turn_rows) == turns_begun
    assert {row.status for row in turn_rows} == {"sent"}
    sent = Counter(message["Message-ID"] for message in mailbox.messages)
    assert [sent[row.message_id] for row in turn_rows] == [1] * len(turn_rows)
    turn_mails = [m for m in mailbox.messages if m["Subject"].endswith(": your move")]
    assert sorted(m["Reply-To"].addresses[0].addr_spec for m in turn_mails) == sorted(
        reply_address(row.game_id, row.seat, row.seq) for row in turn_rows)


def test_docker_compose_runs_two_web_services_behind_nginx_and_one_beat():
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    web = [name for name, service in services.items()
           if service.get("command", [])[-1:] == ["marram_site.server"]]
    assert web == ["web", "web2"]
    assert services["web2"] == services["web"]  # the same image, command and settings
    front = services["nginx"]
    # the template's every placeholder is set, its upstream to every web service
    placeholders = set(re.findall(r"\$\{(MARRAM_\w+)\}", TEMPLATE.read_text()))
    assert placeholders == {"MARRAM_LISTEN", "MARRAM_UPSTREAM_SERVERS", "MARRAM_STREAM_SERVERS",
                            "MARRAM_MAX_BODY_KIB"}
    assert placeholders <= set(front["environment"])
    # one limit on a body: nginx's is the web services' own
    assert front["environment"]["MARRAM_MAX_BODY_KIB"] == (
        services["web"]["environment"]["MARRAM_MAX_BODY_KIB"]) == "${MARRAM_MAX_BODY_KIB:-256}"
    assert front["environment"]["MARRAM_UPSTREAM_SERVERS"] == upstream_servers(
        [f"{name}:8000" for name in web])
    streams = [name for name, service in services.items()
               if service.get("command", [""])[0] == "uvicorn"]
    assert streams == ["stream"]
    assert front["environment"]["MARRAM_STREAM_SERVERS"] == upstream_servers(["stream:8001"])
    assert services["web"]["environment"]["MARRAM_STREAM"] == "${MARRAM_STREAM:-true}"
    assert set(web) <= set(front["depends_on"])
    # the rest on the same settings (one secret key, database and Redis); one beat
    app = [name for name, service in services.items() if service.get("image") == "marram:latest"]
    assert {name for name in app if services[name]["environment"] != services["web"][
        "environment"]} == {"migrate"}  # the tables' owner
    beats = [name for name in app if "beat" in services[name]["command"]]
    assert beats == ["beat"]
