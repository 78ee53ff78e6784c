"""One address for the site in every link that leaves it: settings.MARRAM_BASE_URL,
which ./dev run sets from the address it serves.

Every kind of mail (the game has begun, your turn, reminder, game over, digest,
invitation, the answers to replies) and its unsubscribe and settings links
point there, on a port other than the default, whatever host the request that
caused the mail came in by. Then the same through a real ``./dev run
127.0.0.1:PORT``: its mails, written to files, link to that port.
"""

from __future__ import annotations

import email
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import services
from notifications import services as notes
from notifications.inbound import inbound_mail_handle
from notifications.models import Notification, Policy
from tests.service.conftest import client_for, dealt_from, seat_user, start_game
from tests.service.mail_kit import first_move_text, freeze_time, reply_bytes
from web.links import runserver_base_url, site_url

ROOT_DIR = Path(__file__).resolve().parents[2]
URL = re.compile(r"https?://[^\s\"'<>]+")
SEED = "5a1d0ce5" * 8
OTHER_HOST = "games.example.org:8443"  # the Host header requests come in with


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize(("addrport", "base"), [
    ("0.0.0.0:8000", "http://127.0.0.1:8000"),
    ("0:8123", "http://127.0.0.1:8123"),
    ("9000", "http://127.0.0.1:9000"),
    ("127.0.0.1:9001", "http://127.0.0.1:9001"),
    ("localhost:9002", "http://localhost:9002"),
    ("[::]:9003", "http://[::1]:9003"),
    ("[::1]:9004", "http://[::1]:9004"),
])
def test_the_address_served_gives_the_base_url(addrport, base):
    assert runserver_base_url(addrport) == base


@pytest.mark.parametrize("addrport", ["", "host", "1.2.3.4:", ":80", "a:b:80", "[::1:80"])
def test_an_address_runserver_would_refuse_is_refused(addrport):
    with pytest.raises(ValueError, match="not an address runserver takes"):
        runserver_base_url(addrport)


def test_site_url_wants_a_path(settings):
    settings.MARRAM_BASE_URL = "https://marram.example.org"
    assert site_url("/games/3/") == "https://marram.example.org/games/3/"
    with pytest.raises(ValueError, match="starts with /"):
        site_url("games/3/")


def links_of(message: Any) -> list[str]:
    """Every URL in a mail as it goes out: its parts and its headers."""
    parsed = email.message_from_bytes(message.message().as_bytes())
    found = URL.findall(str(parsed.get("List-Unsubscribe", "")))
    for part in parsed.walk():
        if part.get_content_maintype() == "text":
            found += URL.findall(part.get_payload(decode=True).decode())
    return found


def deliver_all() -> None:
    for pk in Notification.objects.filter(status="pending").order_by("pk") \
            .values_list("pk", flat=True):
        notes.notification_deliver(pk)


@pytest.fixture
def base(settings) -> str:
    settings.MARRAM_BASE_URL = f"http://127.0.0.1:{free_port()}"
    return settings.MARRAM_BASE_URL


@pytest.mark.django_db
def test_every_kind_of_mail_links_to_the_sites_address(users, base, monkeypatch):
    now = freeze_time(monkeypatch)
    ann, bob, cyd, dee = users
    # an invitation from the API and one from the lobby page, both asked by a
    # request for another host
    api = client_for(ann)
    created = api.post("/api/games/", {"variant": "classic", "length": "long", "seats": 2},
                       format="json", HTTP_HOST=OTHER_HOST)
    assert created.status_code == 201, created.content
    invited = api.post(f"/api/games/{created.json()['id']}/invite/",
                       {"emails": ["zed@example.org"]}, format="json", HTTP_HOST=OTHER_HOST)
    assert invited.status_code == 201, invited.content
    assert invited.json()[0]["url"].startswith(base + "/"), invited.json()
    client = Client(HTTP_HOST=OTHER_HOST)
    client.force_login(bob)
    lobby = client.post("/lobby/", {"variant": "classic", "length": "long", "seats": "2",
                                    "days_per_move": "", "emails": "yan@example.org"})
    assert lobby.status_code == 302, lobby.content

    # a timed game: the game has begun, your turn, a reminder, the answers to a
    # reply played and a reply refused, and game over
    with dealt_from(SEED):  # ann first
        game = services.game_create(user=ann, variant="classic", length="long", seats=2,
                                    days_per_move=1)
        services.game_join(game=game, user=cyd)
    game.refresh_from_db()
    first = seat_user(game, 0)
    assert first == ann
    now.advance(hours=25)
    assert notes.clocks_check()["reminded"] == 1
    deliver_all()
    [turn] = [m for m in mail.outbox
              if m.to == [first.email] and m.subject.endswith(": your move")]
    played = inbound_mail_handle(reply_bytes(
        sender=first.email, to=turn.reply_to[0], body=first_move_text(game),
        message_id="<played@client.example>"))
    assert played.outcome == "played"
    refused = inbound_mail_handle(reply_bytes(
        sender=first.email, to=turn.reply_to[0], body="pass",  # the game moved on
        message_id="<stale@client.example>"))
    assert refused.outcome == "refused"
    services.game_resign(game=game, user=seat_user(game, 1))

    # the daily digest
    notes.mail_settings_update(user=dee, policy=Policy.DIGEST)
    start_game([dee, bob], seed=SEED)  # dee's move
    deliver_all()
    assert notes.digests_send() >= 1
    deliver_all()

    kinds = set(Notification.objects.filter(status="sent").values_list("kind", flat=True))
    assert kinds >= {"game_started", "your_turn", "reminder", "game_over", "digest",
                     "invitation", "reply_played", "reply_refused"}, kinds
    assert len(mail.outbox) == Notification.objects.filter(status="sent").count()
    for message in mail.outbox:
        links = links_of(message)
        assert links, (message.subject, message.body)
        assert all(link.startswith(base + "/") for link in links), (message.subject, links)
    # the mails to a player have their settings and unsubscribe links
    to_players = [m for m in mail.outbox if "List-Unsubscribe" in m.extra_headers]
    assert len(to_players) >= len(mail.outbox) - 3  # not the invitations, nor a refusal
    assert all(f"{base}/settings/notifications/" in links_of(m) for m in to_players)
    assert all(any(link.startswith(f"{base}/notifications/unsubscribe/")
                   for link in links_of(m)) for m in to_players)


# --------------------------------------------------------------- ./dev run


@pytest.fixture
def dev_run() -> Iterator[tuple[str, Path, Path]]:
    """``./dev run 127.0.0.1:PORT`` with its own SQLite database and its mail in
    files; its base URL, the mail folder and its log. Stopped at the end."""
    port = free_port()
    work = Path(tempfile.mkdtemp(prefix="marram-devrun-"))
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "MARRAM_BASE_URL"}}
    env.update(DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}",
               EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
               EMAIL_FILE_PATH=str(work / "mail"), PYTHONUNBUFFERED="1")
    log = work / "run.log"
    with log.open("wb") as out:
        server = subprocess.Popen([str(ROOT_DIR / "dev"), "run", f"127.0.0.1:{port}"],
                                  cwd=ROOT_DIR, env=env, stdin=subprocess.DEVNULL,
                                  stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180  # migrations on a loaded machine
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"./dev run did not serve {base}:\n{log.read_text()}")
            time.sleep(0.5)
        yield base, work / "mail", log
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        subprocess.run(["rm", "-rf", str(work)], check=False)


def call(url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None) -> Any:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, answer.read()


def test_dev_run_on_another_port_mails_links_to_that_port(dev_run):
    base, mail_dir, log = dev_run
    port = base.rsplit(":", 1)[1]
    # ann invites by the API, asking by another name for the same server
    json_headers = {"Content-Type": "application/json", "Host": f"localhost:{port}"}
    status, body = call(f"{base}/api/auth/token/", headers=json_headers,
                        data=b'{"username": "ann", "password": "marram-demo"}')
    token = json.loads(body)["token"]
    authed = {**json_headers, "Authorization": f"Token {token}"}
    status, body = call(f"{base}/api/games/", headers=authed,
                        data=b'{"variant": "classic", "length": "long", "seats": 2}')
    game_id = json.loads(body)["id"]
    status, body = call(f"{base}/api/games/{game_id}/invite/", headers=authed,
                        data=b'{"emails": ["zed@example.org"]}')
    assert status == 201

    messages = [email.message_from_bytes(p.read_bytes()) for p in sorted(mail_dir.iterdir())]
    subjects = {str(m["Subject"]) for m in messages}
    assert any("has begun" in s for s in subjects), subjects  # the demo game's
    assert any("your move" in s for s in subjects), subjects
    assert any("invites you" in s for s in subjects), subjects
    links = []
    for message in messages:
        found = URL.findall(str(message.get("List-Unsubscribe", "")))
        for part in message.walk():
            if part.get_content_maintype() == "text":
                found += URL.findall(part.get_payload(decode=True).decode())
        assert found, message["Subject"]
        links += found
    assert all(link.startswith(base + "/") for link in links), links
    # and they reach the server that sent them
    unsubscribe = next(link for link in links if "/notifications/unsubscribe/" in link)
    assert call(unsubscribe)[0] == 200
    assert call(f"{base}/favicon.ico")[0] == 200
    text = log.read_text()
    assert f"mail links point at {base}" in text
    assert "No hostname was supplied" not in text
    assert "Traceback" not in text
