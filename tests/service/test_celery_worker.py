"""The real parts together: Redis, a Celery worker in its own process on the test
database, an SMTP server collecting what the worker sends, and the SMTP
listener receiving replies. Nothing is mocked.

The worker and the listener read the test database, so every test here commits
(``transaction=True``). Waits poll with a deadline; nothing sleeps for long.
"""

from __future__ import annotations

import asyncio
import os
import signal
import smtplib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from aiosmtpd.controller import Controller
from django.db import connection

from games.models import Event
from marram_site.celery import app as celery_app
from notifications import outbox
from notifications import services as notes
from notifications.models import InboundMail, Notification
from notifications.signing import reply_address
from tests.service.conftest import make_user, seat_user, start_game
from tests.service.mail_kit import MAIL_DEAL, awaited, first_move_text, play_turn, reply_bytes

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 30.0

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_url")]


def wait_for(what: Callable[[], object], message: str, timeout: float = DEADLINE) -> object:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = what()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {message}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ---------------------------------------------------------------- an SMTP server


class Collector:
    """aiosmtpd handler keeping every message it accepts. With ``hold`` on, the next
    message is kept waiting in DATA (the sender blocked mid-send) until ``release``;
    then it is refused, as the sender is gone by then."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.hold = False
        self.holding = threading.Event()
        self.release = threading.Event()

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.hold:
            self.hold = False
            self.holding.set()
            while not self.release.is_set():
                await asyncio.sleep(0.02)
            return "451 4.3.0 The sender went away"
        self.messages.append(message_from_bytes(envelope.original_content or envelope.content,
                                                policy=policy.default))
        return "250 Message accepted"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Collector, int]]:
    collector, port = Collector(), free_port()
    controller = Controller(collector, hostname="127.0.0.1", port=port)
    controller.start()
    yield collector, port
    controller.stop()


@pytest.fixture
def mailbox(smtp) -> Collector:
    collector, _ = smtp
    collector.messages.clear()
    collector.hold = False
    collector.holding.clear()
    collector.release.clear()
    return collector


# ---------------------------------------------------------------- processes on the test database


@pytest.fixture(scope="module")
def process_env(django_db_setup, smtp, redis_url) -> dict[str, str]:
    """The environment of a worker or listener: the test database, the same Redis,
    mail to the collector, fly draws in tasks."""
    url = urlsplit(os.environ["DATABASE_URL"])
    test_db = connection.settings_dict["NAME"]
    _, port = smtp
    return {
        **os.environ,
        "DATABASE_URL": urlunsplit(url._replace(path=f"/{test_db}")),
        "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(port), "EMAIL_USE_TLS": "0",
        "MARRAM_DRAW_INLINE": "0", "CELERY_TASK_ALWAYS_EAGER": "0",
        "PYTHONUNBUFFERED": "1",
    }


class Process:
    """A child process whose output goes to a file we can wait on."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path, ready: str) -> None:
        self.argv, self.env, self.log, self.ready = argv, env, log, ready
        self.popen: subprocess.Popen | None = None

    def start(self) -> Process:
        output = self.log.open("ab")
        self.popen = subprocess.Popen(self.argv, cwd=ROOT, env=self.env, stdout=output,
                                      stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        output.close()
        started = self.log.stat().st_size if self.log.exists() else 0
        wait_for(lambda: self.ready in self.log.read_text(errors="replace")[started:]
                 or self.popen.poll() is not None, f"{self.argv[2]} to start")
        assert self.popen.poll() is None, self.log.read_text(errors="replace")[-3000:]
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown, no acknowledgement, no rollback but the database's."""
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def worker_process(env: dict[str, str], log: Path, name: str, *, purge: bool = False,
                   queues: str = "celery,webhooks") -> Process:
    """A worker of one process taking ``queues``: by default both, the mail's and
    the webhook calls' (docker-compose.yml runs a worker for each)."""
    argv = [sys.executable, "-m", "celery", "-A", "marram_site", "worker", "-l", "info",
            "--pool", "solo", "-n", f"{name}@%h", "-Q", queues, "--without-gossip",
            "--without-mingle", "--without-heartbeat"]
    # Tasks left in Redis by earlier tests name rows of theirs: not ours to run.
    return Process(argv + (["--purge"] if purge else []), env, log, "ready.")


@pytest.fixture(scope="module")
def worker(process_env, tmp_path_factory) -> Iterator[dict[str, Process]]:
    """The module's worker; a test may replace it (worker["now"])."""
    log = tmp_path_factory.mktemp("celery") / "worker.log"
    running = {"now": worker_process(process_env, log, "w1", purge=True).start()}
    yield running
    running["now"].stop()


@pytest.fixture(scope="module")
def listener(process_env, tmp_path_factory) -> Iterator[int]:
    port = free_port()
    log = tmp_path_factory.mktemp("listener") / "listener.log"
    argv = [sys.executable, "manage.py", "mail_listener", "--host", "127.0.0.1",
            "--port", str(port)]
    process = Process(argv, process_env, log, "mail_listener: SMTP on").start()
    yield port
    process.stop()


@pytest.fixture(autouse=True)
def fresh_visits():
    notes.game_viewed_forget()


@pytest.fixture(autouse=True)
def quiet_worker(request, mailbox):
    """After each test, let the worker finish what the test set going before the
    database is emptied under it: nothing pending, no fly waiting, then a marker
    mail (the worker takes tasks in order, so everything before it is done)."""
    yield
    if "worker" not in request.fixturenames:
        return
    from games.models import Game

    def busy() -> list:
        return [*Notification.objects.filter(status="pending").values_list("pk", "kind", "note"),
                *Game.objects.filter(projection__awaiting__kind="chance").values_list("pk")]

    try:
        wait_for(lambda: not busy(), "the worker to finish")
    except AssertionError:
        log = request.getfixturevalue("worker")["now"].log.read_text(errors="replace")
        raise AssertionError(f"still to do: {busy()}\n{log[-4000:]}") from None
    _worker_tasks_done(mailbox, "quiet-marker")


def unlocked(ids: list[int]) -> bool:
    from django.db import transaction

    with transaction.atomic():
        free = Notification.objects.select_for_update(skip_locked=True).filter(pk__in=ids)
        return len(free) == len(ids)


def sent_for(rows) -> Callable[[Collector], bool]:
    ids = {row.message_id for row in rows}
    return lambda box: {m["Message-ID"] for m in box.messages} >= ids


# ---------------------------------------------------------------- the tests


def test_a_move_made_while_redis_is_down_is_mailed_once_it_is_back(worker, mailbox, caplog,
                                                                   monkeypatch):
    # a drain asked for by an earlier test's mail must not cover this one's
    monkeypatch.setattr(notes, "_waker", outbox.OutboxWaker())
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    wait_for(lambda: len(mailbox.messages) == 2, "the mails of the start")
    with broker_at(f"redis://127.0.0.1:{free_port()}/0"):  # nothing listens there
        mover = play_turn(game)  # accepted: the move does not depend on Redis
    assert "could not enqueue notifications.tasks.outbox_drain" in caplog.text
    [row] = Notification.objects.filter(game=game, kind="your_turn", seat=1 - mover)
    assert row.status == "pending"  # in the outbox, committed with the move
    # Redis is back; the beat sweep finds the row, the worker sends it
    assert notes.outbox_sweep(after=timedelta(0))["mail"] == 1
    wait_for(lambda: sent_for([row])(mailbox), "the mail of the move")
    [mail] = mailbox.to(seat_user(game, 1 - mover).email)[-1:]
    assert mail["Subject"] == f"Marram game {game.pk}: your move"
    # the server has the mail before the worker commits its row: wait for that too
    wait_for(lambda: Notification.objects.get(pk=row.pk).status == "sent", "the row marked sent")
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 1


def test_a_worker_killed_mid_send_leaves_exactly_one_mail(worker, mailbox, process_env,
                                                         tmp_path):
    mailbox.hold = True  # the first mail hangs in DATA, the worker inside its transaction
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=MAIL_DEAL)
    rows = list(Notification.objects.filter(game=game))
    assert len(rows) == 2, _start_mails_missing(game)
    assert mailbox.holding.wait(DEADLINE), "no delivery started"
    worker["now"].kill()
    mailbox.release.set()
    # the database rolls back the dead worker's transaction and lets go of its row
    wait_for(lambda: unlocked([r.pk for r in rows]), "the dead worker's lock to go")
    assert Notification.objects.filter(game=game, status="pending").count() == 2
    worker["now"] = worker_process(process_env, tmp_path / "w2.log", "w2").start()
    notes.outbox_sweep(after=timedelta(0))
    wait_for(lambda: sent_for(rows)(mailbox), "both mails")
    # Deliver both again, as the redelivered task of the dead worker would, then a
    # marker: the worker takes tasks in order, so once the marker is in, so is the rest.
    from notifications import tasks

    for row in rows:
        tasks.notification_deliver.delay(row.pk)
    marker = Notification.objects.create(
        to_email="marker@example.org", kind="reply_refused", dedup_key="marker",
        subject="marker", body_text="marker", message_id="<marker@test>")
    tasks.notification_deliver.delay(marker.pk)
    wait_for(lambda: sent_for([marker])(mailbox), "the marker")
    ids = [m["Message-ID"] for m in mailbox.messages]
    assert sorted(ids) == sorted([r.message_id for r in rows] + [marker.message_id])
    wait_for(lambda: not Notification.objects.filter(game=game).exclude(status="sent").exists(),
             "the rows marked sent")
    assert {r.status for r in Notification.objects.filter(game=game)} == {"sent"}


def test_a_reply_by_smtp_plays_once_even_when_delivered_twice(worker, listener, mailbox):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=MAIL_DEAL)
    first = seat_user(game, 0)
    [turn] = wait_for(lambda: mailbox.to(first.email), "the first player's mail")
    address = turn["Reply-To"].addresses[0].addr_spec  # (with the game's name)
    assert address == reply_address(game.pk, 0, game.seq)
    move = first_move_text(game)
    raw = reply_bytes(sender=first.email, to=address, message_id="<once@client>",
                      body=f"{move}\n\n> {turn.get_body(('plain',)).get_content()[:40]}",
                      subject=f"Re: {turn['Subject']}", In_Reply_To=turn["Message-ID"])
    for _ in range(2):  # the sending MTA delivers it twice
        with smtplib.SMTP("127.0.0.1", listener, timeout=10) as client:
            client.sendmail(first.email, [address], raw)
    played = Event.objects.filter(game=game, actor__isnull=False)
    assert [(e.actor, e.payload["type"]) for e in played] == [(first, move.split()[0])], \
        list(Event.objects.filter(game=game).values_list("seq", "type", "actor", "payload"))
    [answer] = wait_for(lambda: [m for m in mailbox.to(first.email)
                                 if m["In-Reply-To"] == "<once@client>"], "the answer")
    assert answer.get_body(("plain",)).get_content().startswith(
        f"Played in Marram game {game.pk}: {move}")
    game.refresh_from_db()
    assert answer["Reply-To"].addresses[0].addr_spec == reply_address(  # for move 2 of 2
        game.pk, 0, game.seq)
    assert Notification.objects.filter(in_reply_to="<once@client>").count() == 1


def test_forged_and_stale_replies_by_smtp_are_refused_and_the_player_answered(worker, listener,
                                                                             mailbox):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    first = seat_user(game, 0)
    stale = reply_address(game.pk, 0, game.seq)
    play_turn(game)
    before = Event.objects.filter(game=game).count()
    forged = reply_address(game.pk, 1, game.seq).replace(f".1.{game.seq}.", f".0.{game.seq}.")
    second = seat_user(game, 1)
    cases = [(first.email, stale, "<stale@client>", "the game has moved on"),
             (second.email, forged, "<forged@client>", "its signature does not match")]
    with smtplib.SMTP("127.0.0.1", listener, timeout=10) as client:
        for sender, to, message_id, _ in cases:
            client.sendmail(sender, [to], reply_bytes(sender=sender, to=to, body="pass",
                                                      message_id=message_id))
        # not a reply address at all: refused at RCPT, nothing relayed
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            client.sendmail(first.email, ["someone@example.org"], b"Subject: x\r\n\r\nx")
    # Issue 10, item 3: the stale reply, through an address mailed to its sender,
    # is answered; the forged one is answered to nobody (it was answered to its
    # From line before).
    sender, _, message_id, reason = cases[0]
    [answer] = wait_for(lambda: [x for x in mailbox.to(sender)
                                 if x["In-Reply-To"] == message_id], "the answer to the stale")
    text = answer.get_body(("plain",)).get_content()
    assert reason in text and "Nothing has changed in the game." in text
    assert InboundMail.objects.get(message_id="<forged@client>").code == "bad_signature"
    assert not Notification.objects.filter(in_reply_to="<forged@client>").exists()
    assert Event.objects.filter(game=game).count() == before


def _play_until_the_fly_appears(game) -> None:
    """Each awaited player's first legal move, the worker drawing what they call
    for, until the fly is on the board."""
    from engine.marram import legal_actions
    from games import services
    from games.selectors import game_state_get

    while not Event.objects.filter(game=game, type="creature_appears").exists():
        seat, wait = awaited(game)
        if wait["kind"] == "chance":  # the worker is on it
            wait_for(lambda: awaited(game)[1]["kind"] != "chance", "the fly to be drawn")
            continue
        services.action_submit(game=game, user=seat_user(game, seat),
                               action=legal_actions(game_state_get(game))[0],
                               expected_seq=game.seq)


def test_the_worker_draws_the_fly(worker, settings):
    settings.MARRAM_DRAW_INLINE = False
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], variant="animals")
    _play_until_the_fly_appears(game)
    appears = Event.objects.get(game=game, type="creature_appears")
    assert appears.actor is None and appears.cause_seq is None


def test_an_invitation_is_mailed_by_the_worker(worker, mailbox):
    from games import services
    from tests.service.conftest import client_for

    ann = make_user("ann")
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    response = client_for(ann).post(f"/api/games/{game.pk}/invite/",
                                    {"emails": ["zed@example.org"]}, format="json")
    assert response.status_code == 201, response.content
    [mail] = wait_for(lambda: mailbox.to("zed@example.org"), "the invitation")
    assert mail["Subject"] == "ann invites you to a game of Marram"
    assert response.json()[0]["url"] in mail.get_body(("plain",)).get_content()



def test_the_worker_rates_a_game_once_it_is_over(worker):
    from games import services
    from ratings.models import RatedGame, Rating

    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    services.game_resign(game=game, user=bob)  # the game is over: the task is enqueued
    record = wait_for(lambda: RatedGame.objects.filter(game=game).first(), "the rating task")
    assert record.rated
    assert Rating.objects.get(user=ann).mu > 25 > Rating.objects.get(user=bob).mu


# ---------------------------------------------------------------- plumbing


class broker_at:  # noqa: N801  (used as a context manager, like a function)
    """Publish to another broker for a while, as if Redis were down for this process."""

    def __init__(self, url: str) -> None:
        self.url = url

    def _reset(self) -> None:
        # Celery keeps its producer pools per URL (in kombu.pools): forget the one in
        # use and the next publish picks the pool of the URL configured then.
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    def __enter__(self) -> None:
        self._reset()
        celery_app.conf.broker_write_url = self.url

    def __exit__(self, *exc) -> None:
        self._reset()
        celery_app.conf.broker_write_url = None


def _start_mails_missing(game) -> str:
    """What decides a start's mails, for a test that found them missing: the
    change's followers, the seats and whether computers hold them, the clocks,
    the events, and the outbox as a whole."""
    from games.after_move import followers
    from games.models import Clock, Seat
    from games.seating import seat_players

    seats = list(Seat.objects.filter(game=game).values_list("index", "user_id"))
    clocks = list(Clock.objects.filter(game=game).values_list("seat", "user_id", "started_at"))
    return (f"followers {[type(f).__name__ for f in followers()]}; seats {seats}, "
            f"computers {seat_players().clockless(user for _, user in seats)}; "
            f"clocks {clocks}; "
            f"events {list(Event.objects.filter(game=game).values_list('seq', 'type'))}; "
            f"projection {game.projection}; outbox "
            f"{list(Notification.objects.values_list('pk', 'game_id', 'kind', 'status'))}")


def _sessions_opened() -> int:
    """Connections to the test database opened since it was made (PostgreSQL's count)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def _worker_tasks_done(mailbox: Collector, name: str) -> None:
    """A marker mail sent after everything enqueued so far (the worker takes tasks
    in order), and received."""
    from notifications import tasks

    marker = Notification.objects.create(
        to_email="marker@example.org", kind="reply_refused", dedup_key=name,
        subject="marker", body_text="marker", message_id=f"<{name}@test>")
    tasks.notification_deliver.delay(marker.pk)
    wait_for(lambda: sent_for([marker])(mailbox), name)


@pytest.fixture
def worker_as_shipped(worker, process_env, tmp_path):
    """The module's worker, replaced for the test by one that keeps its database
    connection as production's does (CONN_MAX_AGE 60 s: docker-compose.yml)."""
    worker["now"].stop()
    worker["now"] = worker_process({**process_env, "DATABASE_CONN_MAX_AGE": "60"},
                                   tmp_path / "kept.log", "kept").start()
    yield worker
    worker["now"].stop()
    worker["now"] = worker_process(process_env, tmp_path / "w1.log", "w1").start()


def test_the_worker_keeps_its_database_connection_from_task_to_task(worker_as_shipped,
                                                                    mailbox):
    """As a web thread keeps its connection from request to request (CONN_MAX_AGE):
    ten tasks, each reading the database, open no connection of their own."""
    from games.tasks import resolve_chance

    _worker_tasks_done(mailbox, "connected")  # the worker has its connection
    before = _sessions_opened()
    for _ in range(10):
        resolve_chance.delay(10**9)  # no such game: a read, then nothing to draw
    _worker_tasks_done(mailbox, "ten-tasks")
    # this test's own connection is already open; the worker's is the same one
    assert _sessions_opened() - before <= 1


def test_a_worker_whose_connection_died_draws_the_next_fly_on_a_new_one(worker_as_shipped,
                                                                         mailbox, settings):
    """The worker's connection is cut (the server restarted it, a failover): the
    task that finds it dead is retried on a fresh one, and the fly is drawn."""
    settings.MARRAM_DRAW_INLINE = False
    _worker_tasks_done(mailbox, "before-cut")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        assert cursor.fetchall(), "the worker holds no connection to cut"
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], variant="animals")
    _play_until_the_fly_appears(game)
    assert Event.objects.filter(game=game, type="creature_appears").count() == 1
    # the first task to use the cut connection was sent again, and that one succeeded
    log = worker_as_shipped["now"].log.read_text(errors="replace")
    assert "Retry in 1s: OperationalError" in log, log[-3000:]
