"""What PgBouncer costs a move: the same web server on an application host, its
database reached either through PgBouncer in transaction mode on the database
host (as tests/service/test_hosts.py deploys it) or straight, on two hosts made
of network namespaces (tests/service/hosts_kit.py; run as root).

Three web servers run side by side, one per way of reaching the database:

- ``pooler``: PgBouncer on the database host, ``DATABASE_PREPARE_THRESHOLD=0``
  (it cannot keep prepared statements);
- ``direct0``: PostgreSQL itself, nothing prepared either (the pooler's own cost);
- ``direct5``: PostgreSQL itself with the default threshold of 5 (what going
  through the pooler costs in all, prepared statements included).

A client plays Marram games through each in turn, a batch of sequential moves
at a time, rounds alternating the order; it prints each way's median time a move
(with the range of the rounds' medians) and its ratio to ``direct5``.

    sudo nice -n 10 .venv/bin/python benchmarks/pooler_bench.py [--rounds 5] [--moves 40]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.http_client import call  # noqa: E402
from tests.service import hosts_kit  # noqa: E402
from tests.service.proxy_kit import web_server  # noqa: E402

MAKE_GAMES = """
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from games import services
from games.models import Seat
made = []
for number in range({count}):
    users = [get_user_model().objects.create_user(f"b{{number}}{{side}}", password="x" * 12)
             for side in "ab"]
    game = services.game_create(user=users[0], game="marram", seats=2)
    services.game_join(game=game, user=users[1])
    made.append({{str(seat.index): Token.objects.get_or_create(user=seat.user)[0].key
                 for seat in Seat.objects.filter(game=game)}} | {{"id": game.pk}})
print(json.dumps(made))
"""


def play(address: str, port: int, game: dict, moves: int) -> list[float]:
    """``moves`` moves of the game, one after another; the time of each POST."""
    times: list[float] = []
    path = f"/api/games/{game['id']}/"
    while len(times) < moves:
        for seat in ("0", "1"):
            status, view = call(address, port, game[seat], "GET", path)
            assert status == 200, view
            if view["status"] != "running":
                raise RuntimeError(f"game {game['id']} is over: make longer games")
            if view["legal_actions"]:
                break
        else:
            continue
        action = dict(view["legal_actions"][0])
        action.pop("player", None)
        began = time.perf_counter()
        status, answer = call(address, port, game[seat], "POST", path + "actions/",
                              {"seq": view["seq"], "action": action})
        times.append(time.perf_counter() - began)
        assert status == 201, answer
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=40, help="moves a way a round")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        net = stack.enter_context(hosts_kit.network())
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(dir="/tmp")))
        workdir.chmod(0o755)
        db = net.add("db", 30, front=False, back=True)
        app = net.add("app1", 11, front=True, back=True)
        cluster = hosts_kit.Cluster(db, workdir, "primary")
        cluster.initdb()
        cluster.start()
        cluster.sql(f"CREATE DATABASE {hosts_kit.DATABASE}", "postgres")
        direct = {**os.environ, "DATABASE_URL": cluster.url(),
                  "DJANGO_SETTINGS_MODULE": "marram_site.settings"}
        for name in ("DJANGO_ENV", "REDIS_URL"):
            direct.pop(name, None)
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                       cwd=ROOT, env=direct, check=True)
        # a game per way per round: each round plays fresh games from their start
        made = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                               MAKE_GAMES.format(count=3 * args.rounds)], cwd=ROOT,
                              env=direct, check=True, capture_output=True, text=True)
        games = json.loads(made.stdout.strip().splitlines()[-1])
        pooler = hosts_kit.Pooler(db, workdir, cluster)
        pooler.start()
        base = {"DJANGO_SECRET_KEY": "bench-only", "DJANGO_ALLOWED_HOSTS": app.address,
                "MARRAM_WEB_WORKERS": "1", "MARRAM_WEB_THREADS": "2",
                "DATABASE_CONN_MAX_AGE": "60", "MARRAM_DRAW_INLINE": "1",
                "MARRAM_WEB_ACCESS_LOG": "0", "REDIS_URL": "", "CACHE_URL": ""}
        pooled = (f"postgres://{hosts_kit.USER}@{db.back}:{hosts_kit.POOLER_PORT}/"
                  f"{hosts_kit.DATABASE}")
        ways = {"pooler": (pooled, "0"), "direct0": (cluster.url(), "0"),
                "direct5": (cluster.url(), "5")}
        ports = {}
        for number, (name, (url, threshold)) in enumerate(ways.items()):
            ports[name] = stack.enter_context(web_server(
                workdir, name=name, env={**base, "DATABASE_URL": url,
                                         "DATABASE_PREPARE_THRESHOLD": threshold},
                address=app.address, port=8001 + number, prefix=app.argv([])))
        medians: dict[str, list[float]] = {name: [] for name in ways}
        order = list(ways)
        for round_ in range(args.rounds):
            for name in order:
                game = games.pop()
                play(app.address, ports[name], game, 5)  # each server warm on this game
                times = play(app.address, ports[name], game, args.moves)
                medians[name].append(statistics.median(times) * 1000)
            order.reverse()
            print(f"round {round_ + 1}: " + ", ".join(
                f"{name} {medians[name][-1]:.2f} ms" for name in ways), flush=True)
        base_ms = statistics.median(medians["direct5"])
        print(f"\n{args.rounds} rounds of {args.moves} sequential moves a way "
              "(median of the rounds' medians, their range; ratio to direct5):")
        for name in ways:
            found = statistics.median(medians[name])
            # each round's ratio to the same round's direct5: the machine's drift
            # between rounds cancels out
            ratios = [mine / base for mine, base in zip(medians[name], medians["direct5"],
                                                         strict=True)]
            print(f"  {name:8} {found:6.2f} ms a move ({min(medians[name]):.2f}-"
                  f"{max(medians[name]):.2f})  x{found / base_ms:.2f}; rounds' ratios: "
                  f"median x{statistics.median(ratios):.2f} ({min(ratios):.2f}-"
                  f"{max(ratios):.2f})")


if __name__ == "__main__":
    main()
