"""Push benchmark: how soon a move's push reaches the push service, how large each
kind of push is, and that none goes to a device on which the game's page is open.

    .venv/bin/python benchmarks/push_bench.py [--moves 300] [--pace-ms 200]
        [--games 20] [--open-every 10] [--push-concurrency 2] [--json FILE]

Starts a throwaway PostgreSQL and Redis (unless DATABASE_URL / REDIS_URL are set),
the web server with the production settings (service_bench's, 2 workers of 2
threads), a Celery worker for the push queue and one for the default queue (mail
made and dropped), as docker-compose runs them, and the push service stand-in of
tests/service/push_kit.py on 127.0.0.1 in this process: it checks each request's
VAPID token and decrypts its message with the subscription's key, as the tests do
(the workers may reach it through MARRAM_WEBHOOK_ALLOWED_NETWORKS).

Pond games between pairs of players, each player with one device at the stand-in:
every move of Pond hands the turn to the other player, whose device is pushed.
The moves go through the HTTP API one at a time, ``--pace-ms`` apart (a phone's
pushes come from moves minutes apart, not from a burst); each one's latency is
from its answer (201: the move is committed) to its push's arrival at the
stand-in, both read on this machine's clock. Every ``--open-every``-th move, the
player to be told has the game's page open on the device (notifications.push's
page_open, what the page's report writes): no push may arrive for that move, and
its row must be kept as not sent, with the reason.

The sizes: a push of each of the six kinds, made by the services in this process
(a turn, the time running down, the game over, a chat line of 200 characters, an
invitation, a rematch offer) and sent by the workers: the message's bytes (JSON)
and the encrypted body's (RFC 8188's one record: 103 bytes more, the 86-byte
header with the sender's key, a padding delimiter and the 16-byte tag).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import service_bench as sb  # noqa: E402

ROOT = sb.ROOT
KEY: tuple[str, str] = ("", "")
"""The site's VAPID key pair, made once the project's modules are importable."""


def bench_env(url: str) -> dict[str, str]:
    """service_bench's production settings with push on: the site's key, the
    stand-in's loopback allowed, chance drawn in the move, mail made and dropped."""
    return {**_service_env(url), "MARRAM_VAPID_PRIVATE_KEY": KEY[0],
            "MARRAM_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8", "MARRAM_DRAW_INLINE": "1",
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
            "PYTHONUNBUFFERED": "1"}


_service_env = sb.server_env
sb.server_env = bench_env  # the web server sb.web_server starts runs these too


@contextlib.contextmanager
def celery_worker(url: str, log: Path, queue: str, concurrency: int) -> Iterator[None]:
    argv = [sys.executable, "-m", "celery", "-A", "marram_site", "worker", "-Q", queue,
            "--loglevel=INFO", f"--concurrency={concurrency}",
            "-n", f"push-bench-{queue}-{os.getpid()}@%h", "--purge"]
    with log.open("ab") as out:
        process = subprocess.Popen(argv, cwd=ROOT, env=bench_env(url), stdout=out,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the {queue} worker did not start:\n"
                                   + log.read_text(errors="replace")[-3000:])
            time.sleep(0.1)
        yield
    finally:
        from testservices import stop

        stop(process, timeout=20)


def django_setup(url: str) -> None:
    os.environ.update(bench_env(url))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def wait_until(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.002)
    return None


# ---------------------------------------------------------------- the moves


class Table:
    """A game of Pond between two players, each with a device at the stand-in."""

    def __init__(self, n: int, service: Any) -> None:
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        from games import services
        from notifications import push

        User = get_user_model()
        self.users = [User.objects.create_user(f"push{n}-{side}-{uuid.uuid4().hex[:6]}")
                      for side in ("a", "b")]
        self.tokens = {u.pk: Token.objects.create(user=u).key for u in self.users}
        self.devices = {u.pk: push.device_add(user=u, name="phone", subscription=service
                                              .subscribe(f"u{u.pk}")) for u in self.users}
        game = services.game_create(user=self.users[0], game="pond", seats=2, days_per_move=3)
        services.game_join(game=game, user=self.users[1])
        self.game_id = game.pk

    def awaited(self) -> Any:
        from games.models import Game, Seat

        game = Game.objects.get(pk=self.game_id)
        if game.status != Game.Status.RUNNING:
            return None
        seat = Seat.objects.filter(game_id=self.game_id, awaited=True).first()
        return seat.user if seat is not None else None


def move(client: sb.Client, table: Table, mover: Any, rng: random.Random) -> tuple[int, Any]:
    token = table.tokens[mover.pk]
    status, view = client.request("get", "GET", f"/api/games/{table.game_id}/", token)
    assert status == 200 and view["legal_actions"], (status, view)
    action = dict(rng.choice(view["legal_actions"]))
    action.pop("player", None)
    return client.request("post", "POST", f"/api/games/{table.game_id}/actions/", token,
                          {"seq": view["seq"], "idempotency_key": uuid.uuid4().hex,
                           "action": action})


def turns_of(service: Any, path: str, game_id: int) -> int:
    return sum(1 for p in service.to(path)
               if p.message and p.message["kind"] == "push_turn" and p.message["game"] == game_id)


def play_move(client: sb.Client, service: Any, table: Table, rng: random.Random,
              opened: bool) -> dict[str, Any]:
    """One move of the player ``table`` awaits, the other's page open on their device
    or not: what became of its push."""
    from notifications import push
    from notifications.models import Notification

    mover = table.awaited()
    other = next(u for u in table.users if u.pk != mover.pk)
    path, device, game_id = f"u{other.pk}", table.devices[other.pk], table.game_id
    if opened:
        push.page_open(user=other, device_id=device.pk, game_id=game_id, open=True)
    before = turns_of(service, path, game_id)
    held = Notification.objects.filter(push_device=device, status="skipped",
                                       note="the game's page is open on that device")
    skipped = held.count()
    status, answer = move(client, table, mover, rng)
    answered = time.time()
    assert status == 201, (status, answer)
    if opened:
        kept = bool(wait_until(lambda: held.count() > skipped))
        time.sleep(0.3)  # time for a push to arrive, were one sent
        push.page_open(user=other, device_id=device.pk, game_id=game_id, open=False)
        return {"held": True, "kept": kept, "arrived": turns_of(service, path, game_id) - before}
    if answer["status"] != "running":
        return {"over": True}
    if not wait_until(lambda: turns_of(service, path, game_id) > before):
        return {"lost": True}
    last = [p for p in service.to(path) if p.message and p.message["kind"] == "push_turn"
            and p.message["game"] == game_id][-1]
    return {"latency": last.arrived - answered}


def play(port: int, service: Any, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    client = sb.Client(port, {})
    tables = [Table(n, service) for n in range(args.games)]
    latencies: list[float] = []
    held = {"moves": 0, "arrived": 0, "kept": 0}
    problems: list[str] = []
    for made in range(args.moves):
        started = time.perf_counter()
        at = made % len(tables)
        if tables[at].awaited() is None:  # the game is over: another in its place
            tables[at] = Table(len(tables) + made, service)
        opened = bool(args.open_every) and made % args.open_every == args.open_every - 1
        outcome = play_move(client, service, tables[at], rng, opened)
        if "latency" in outcome:
            latencies.append(outcome["latency"])
        elif "held" in outcome:
            held["moves"] += 1
            held["kept"] += outcome["kept"]
            held["arrived"] += outcome["arrived"]
        elif "lost" in outcome:
            problems.append(f"move {made + 1}: no push within 15 s")
        rest = args.pace_ms / 1000 - (time.perf_counter() - started)
        if rest > 0:
            time.sleep(rest)
    problems += [f"{p.path}: {p.problems}" for p in service.pushes if p.problems]
    return {"latencies": latencies, "held": held, "problems": problems,
            "stages": stages(service)}


def stages(service: Any) -> dict[str, float]:
    """Where the time of a turn's push goes, medians in ms over the pushes that
    arrived, read from the rows' own times: from the row written with the move to
    its fan-out (the drain: a row per device written), from there to the device's
    task starting, and from that start to the arrival (the message encrypted,
    signed and posted)."""
    from notifications.models import Notification

    arrived = {p.message["id"]: p.arrived for p in service.pushes
               if p.message and p.message["kind"] == "push_turn"}
    rows = Notification.objects.filter(kind="push_turn", push_device__isnull=False,
                                       status="sent").values_list("message_id", "created_at",
                                                                  "sent_at", "dedup_key")
    players = dict(Notification.objects.filter(kind="push_turn", push_device__isnull=True)
                   .values_list("pk", "created_at"))
    found: dict[str, list[float]] = {"fan_out": [], "task": [], "send": []}
    for message_id, created, sent, key in rows:
        at = arrived.get(message_id.strip("<>"))
        written = players.get(int(key.rpartition(":")[2]))
        if at is None or written is None or sent is None:
            continue
        found["fan_out"].append((created - written).total_seconds())
        found["task"].append((sent - created).total_seconds())
        found["send"].append(at - sent.timestamp())
    return {k: round(1000 * statistics.median(v), 1) for k, v in found.items() if v}


# ---------------------------------------------------------------- the sizes


def sizes(service: Any) -> dict[str, dict[str, int]]:
    """A push of each kind, made through the services: to whichever of two players
    each goes (both have a device); the first of each kind."""
    from django.contrib.auth import get_user_model

    from chat.services import chat_post
    from games import services
    from games.models import Clock
    from notifications import push
    from notifications import services as notes
    from ratings.services import game_invite_users, rematch_offer

    User = get_user_model()
    ann, bob = (User.objects.create_user(f"{name}-{uuid.uuid4().hex[:6]}")
                for name in ("ann", "bob"))
    paths = ("sizes-ann", "sizes-bob")
    for user, path in zip((ann, bob), paths, strict=True):
        push.device_add(user=user, subscription=service.subscribe(path), name="phone")

    def arrived(count: int) -> bool:
        return bool(wait_until(lambda: sum(len(service.to(p)) for p in paths) >= count))

    game = services.game_create(user=ann, game="marram", seats=2, days_per_move=3)
    services.game_join(game=game, user=bob)
    arrived(1)  # the first player's turn
    chat_post(game_id=game.pk, user=ann, text=("Well played, that was a fine move. " * 6)[:200])
    open_game = services.game_create(user=ann, game="marram", seats=2)
    game_invite_users(game_id=open_game.pk, user=ann, usernames=[bob.get_username()],
                      url_for=lambda token: f"/invitations/{token}/")
    clock = Clock.objects.get(game=game, started_at__isnull=False)
    notes.clocks_check(now=clock.started_at + clock.bank - timedelta(hours=5))
    arrived(4)
    services.game_resign(game=game, user=ann)
    rematch_offer(game_id=game.pk, user=ann)
    arrived(7)  # the game over to both, the rematch to bob
    found: dict[str, dict[str, int]] = {}
    for p in sorted((p for path in paths for p in service.to(path)), key=lambda p: p.arrived):
        if p.message and p.message["kind"] not in found:
            found[p.message["kind"]] = {"json": len(p.plain), "encrypted": len(p.body)}
    return found


def vapid_key() -> tuple[str, str]:
    """A new VAPID key pair, as ``manage.py vapid_keys`` makes it."""
    printed = subprocess.run([sys.executable, "manage.py", "vapid_keys"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.splitlines()
    return printed[0].split("=", 1)[1], printed[1].split(": ", 1)[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--pace-ms", type=float, default=200.0)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--open-every", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2, help="web server processes")
    parser.add_argument("--threads", type=int, default=sb.THREADS)
    parser.add_argument("--push-concurrency", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json")
    args = parser.parse_args()

    global KEY
    from tests.service.push_kit import push_service

    KEY = vapid_key()
    logs = Path(tempfile.mkdtemp(prefix="push-bench-"))
    with sb.database() as url, sb.broker() as redis_url:
        sb.BROKER_URL = redis_url
        django_setup(url)
        with push_service(KEY[1]) as service, \
                celery_worker(url, logs / "push.log", "push", args.push_concurrency), \
                celery_worker(url, logs / "mail.log", "celery", 1), \
                sb.web_server(url, args.workers, args.threads) as port:
            played = play(port, service, args)
            sized = sizes(service)
        from django.db import connections

        connections.close_all()
    ms = sorted(1000 * x for x in played["latencies"])
    held = played["held"]
    result = {
        "moves": args.moves, "pace_ms": args.pace_ms, "pushed": len(ms),
        "latency_ms": {"median": round(statistics.median(ms), 1),
                       "p90": round(sb.percentile(ms, 90), 1),
                       "min": round(ms[0], 1), "max": round(ms[-1], 1)} if ms else {},
        "open_page": held, "sizes": sized, "stages_ms": played["stages"],
        "problems": played["problems"][:10],
    }
    print(f"{len(ms)} turns pushed over {args.moves} moves {args.pace_ms:g} ms apart: from "
          f"the move's answer to the push at the push service, median "
          f"{result['latency_ms'].get('median')} ms, p90 {result['latency_ms'].get('p90')} ms, "
          f"{result['latency_ms'].get('min')}-{result['latency_ms'].get('max')} ms")
    print("medians (ms): the move's row to its fan-out {fan_out}, to the device's task "
          "{task}, the send {send}".format(**{"fan_out": "-", "task": "-", "send": "-",
                                              **played["stages"]}))
    print(f"the game's page open on the device: {held['moves']} moves, {held['arrived']} pushes "
          f"arrived, {held['kept']} kept as not sent (the page is open)")
    print("sizes (bytes):  kind             message  encrypted")
    for kind, size in sorted(sized.items()):
        print(f"                {kind:16} {size['json']:7}  {size['encrypted']:9}")
    if played["problems"]:
        print("problems:", *played["problems"][:10], sep="\n  ")
    print(f"worker logs: {logs}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 1 if played["problems"] or held["arrived"] else 0


if __name__ == "__main__":
    sys.exit(main())
