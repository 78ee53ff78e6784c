"""A move's CPU in the web application itself, beside another revision's, in
alternating runs.

    .venv/bin/python benchmarks/move_bench.py [--game marram|pond|animals_on_board|make_a_snake]
        [--against REV | --env NAME=VALUE] [--rounds 4] [--games 20] [--moves 40]
        [--changes] [--cold [--cold-events N|A-B]]

The whole-server comparison (benchmarks/compare_bench.py) moves by 10-20% from
one run to the next on a shared machine, more than most single changes to a
move's path are worth. This measures that path alone, in one process: the
application (marram_site.wsgi, production settings, a throwaway PostgreSQL and
Redis from scripts/testservices.py) is called directly, no server and no
threads, and each move's POST is timed in CPU time of the process (user and
system), from the request to its answer's body taken and closed (not the
client's parse of it), so with the view pushed to the next player after it
(``MARRAM_STREAM`` on, both seats of every game noted as listening, as their
streams would be). The move is a random legal
action of the player the game awaits, from the answer's view or, when the
turn passed, from a GET as that player (not timed).

Each run is a process of its own, on ``--games`` fresh games of two seats (the
lobby's default options; Marram's Animals variant) played ``--moves`` moves
deep. With ``--against REV``, REV is checked out into a temporary worktree and
each round runs this checkout's code and REV's in turn (the order swapped every
other round); prints each run's mean and median CPU a move, then the medians of
the runs and the median over the rounds of the ratio this / REV. With
``--changes`` each move asks for the changes to the state (docs/api.md), and the
client applies them as the game page does. With ``--env NAME=VALUE`` (repeatable)
in place of ``--against``, each round runs this checkout as it is and with those
settings in its environment.

With ``--cold``, a run measures instead the move of benchmarks/fair_bench.py's
cold phase: ``--games`` games (300 by default), each between two players of
its own, made through the services (with ``--cold-events N`` played on to N
events through them, as in the race's ``--cold-events``; with ``A-B`` each to
a number of events drawn from A to B, the same on both sides), and then every
per-process memory emptied (the state cache, the token cache); each game is
then touched once as the race's client touches it (a GET of the game as each
seat in turn until one can act, then that seat's POST of a random legal
action), the chance a move calls
for left to the worker's task, as production does. Timed for each touch: the
process's CPU, the CPU of the PostgreSQL backend serving the process (from
/proc: the database is local), and the statements the application sent (each
a round trip; a transaction's BEGIN and COMMIT are not among them), for the
GETs and the POST apart. Then each game is moved once more, hot (its state and
the mover's token in this process's memory, the view in hand as a stream
brings it: the POST alone, the state held as it was before the worker's draw
that the cold move called for, if any: that draw is made first, as the
worker makes it, on a state no cache holds, and timed apart), for the same
figures; and last a
snapshot of each game's state is written as a move that crosses the interval
writes it after its commit (games.snapshots), for the same figures. The
database connection is kept open throughout, as the web server's threads keep
theirs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GAMES = ("marram", "pond", "animals_on_board", "make_a_snake")


# ---------------------------------------------------------------- one run (a child process)

def wsgi_environ(method: str, path: str, token: str, body: bytes) -> dict:
    """A JSON API request with a player's token, as the WSGI server hands it on."""
    return {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr, "HTTP_HOST": "127.0.0.1", "REMOTE_ADDR": "127.0.0.1",
        "HTTP_ACCEPT": "application/json", "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)), "HTTP_AUTHORIZATION": f"Token {token}"}


def child(root: Path, game: str, games: int, moves: int, seed: int,
          changes: bool = False) -> dict:
    """Play the moves with ``root``'s code; the CPU a move, in microseconds."""
    sys.path[:0] = [str(root), str(root / "benchmarks")]
    os.chdir(root)
    import service_bench as sb

    sb.BROKER_URL = os.environ["REDIS_URL"]
    os.environ["MARRAM_STREAM"] = "1"  # each commit is published, with the next player's view
    prepared = sb.prepare(os.environ["DATABASE_URL"], games,
                          "animals" if game == "marram" else None, game)
    from live import stream as live
    from marram_site.wsgi import serving_application

    if changes:
        from live.changes import apply_changes

    from games.models import Seat

    app = serving_application()
    redis = live._redis()
    for g in prepared:  # both seats listen, each with its player's token, as their streams would
        seats = Seat.objects.filter(game_id=g["id"]).values_list("index", "user_id")
        for seat, user in seats:
            # a revision whose notes name no user (before streams followed the seat's player)
            member = (live.listening_member(seat, "api", user, "move_bench")
                      if hasattr(live, "HOLDERS") else
                      live.listening_member(seat, "api", "move_bench"))
            redis.zadd(live.LISTENING.format(game=g["id"]), {member: time.time() + 3600})

    def call(method: str, path: str, token: str, body: bytes = b"",
             cpu: list[float] | None = None) -> tuple[str, dict]:
        """The answer, read; with ``cpu``, the CPU time the server side took (not
        the client's reading of the answer) appended to it."""
        environ = wsgi_environ(method, path, token, body)
        status: list[str] = []
        started = time.process_time()
        answer = app(environ, lambda s, headers, exc=None: status.append(s))
        content = b"".join(answer)
        if hasattr(answer, "close"):  # as a server does (WSGI): request_finished, the publish
            answer.close()
        if cpu is not None:
            cpu.append(time.process_time() - started)
        return status[0], json.loads(content)

    views = {}
    for g in prepared:
        token = next(iter(g["tokens"].values()))
        _, view = call("GET", f"/api/games/{g['id']}/", token)
        seats = {p["username"]: p["seat"] for p in view["game"]["players"]}
        g["by_seat"] = {seats[name]: t for name, t in g["tokens"].items()}
        views[g["id"]] = view
    rng = random.Random(seed)
    cpu: list[float] = []
    refused = 0
    for _ in range(moves):
        for g in prepared:
            view = views[g["id"]]
            awaited = view["game"]["projection"].get("to_act") or []
            if view["status"] != "running" or not awaited:
                continue
            seat, path = awaited[0], f"/api/games/{g['id']}"
            if view.get("you") != seat or not view["legal_actions"]:
                view = call("GET", f"{path}/", g["by_seat"][seat])[1]
            if not view["legal_actions"]:
                continue
            body = json.dumps({"action": rng.choice(view["legal_actions"]),
                               "seq": view["seq"], **({"changes": True} if changes else {})
                               }).encode()
            status, answer = call("POST", f"{path}/actions/", g["by_seat"][seat], body, cpu)
            if status.startswith("201"):
                views[g["id"]] = answer["view"]
                if "state_changes" in answer["view"]:  # as the page reads them
                    answer["view"]["state"] = apply_changes(
                        view["state"], answer["view"].pop("state_changes"))
            else:  # chance drawn in between, say: read the game again
                refused += 1
                views[g["id"]] = call("GET", f"{path}/", g["by_seat"][seat])[1]
    return {"moves": len(cpu), "refused": refused,
            "mean_us": round(1e6 * statistics.mean(cpu)),
            "median_us": round(1e6 * statistics.median(cpu))}


# ---------------------------------------------------------------- one cold run (a child process)

def _backend_cpu(pid: int) -> float:
    """The CPU seconds the PostgreSQL backend ``pid`` has used (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def child_cold(root: Path, game: str, games: int, seed: int, profile: str | None = None,
               cold_events: tuple[int, int] = (0, 0)) -> dict:
    """The cold touch of each of ``games`` games (fresh, or each played on to a
    number of events drawn from the range ``cold_events``, the same on every run of a
    seed), then a hot move of each: CPU and statements, with ``root``'s code."""
    sys.path[:0] = [str(root), str(root / "benchmarks")]
    os.chdir(root)
    import service_bench as sb

    sb.BROKER_URL = os.environ["REDIS_URL"]
    os.environ["MARRAM_STREAM"] = "1"
    # the games made as the race makes them (their set-up's draws inline), none yet
    sb.prepare(os.environ["DATABASE_URL"], 0, None, game)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from games import selectors, services
    from games.models import Seat
    from games.snapshots import game_snapshot_save
    from live import stream as live
    from marram_site.wsgi import serving_application

    User = get_user_model()
    tag = f"cold{seed}x{os.getpid()}"
    users = User.objects.bulk_create([User(username=f"{tag}-{n}", email=f"{tag}-{n}@example.org")
                                      for n in range(2 * games)])
    tokens = {t.user_id: t.key for t in Token.objects.bulk_create(
        [Token(user=u, key=Token.generate_key()) for u in users])}
    prepared = []
    # the lobby's defaults; for a long game, Marram's Animals variant as the race plays it
    long = cold_events[1] > 0
    options = {"variant": "animals", "length": "long"} if long and game == "marram" else {}
    targets = random.Random(f"{seed}:targets")
    for g in range(games):
        a, b = users[2 * g], users[2 * g + 1]
        made = services.game_create(user=a, game=game, options=options, seats=2,
                                    days_per_move=3)
        services.game_join(game=made, user=b)
        # a long game (--cold-events): played on as its players would have
        pk = (sb.play_on(made.pk, targets.randint(*cold_events), seed, options)[1] if long
              else made.pk)
        prepared.append({"id": pk, "tokens": [tokens[a.pk], tokens[b.pk]]})
    redis = live._redis()
    for g in prepared:  # both seats listen, as their streams do
        for seat, user in Seat.objects.filter(game_id=g["id"]).values_list("index", "user_id"):
            member = live.listening_member(seat, "api", user, "move_bench")
            redis.zadd(live.LISTENING.format(game=g["id"]), {member: time.time() + 3600})
    settings.MARRAM_DRAW_INLINE = False  # production: the worker's task draws

    app = serving_application()
    # every memory of this process emptied, as 30 s and 2,000 games leave it
    from accounts.auth import CachedTokenAuthentication
    from live.state_cache import states

    CachedTokenAuthentication.forget_all()
    states.clear()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    statements: list[str] = []

    def counting(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        statements.append(sql)
        return execute(sql, params, many, context)

    def timed(work, *args, **kwargs):  # type: ignore[no-untyped-def]
        """What ``work(*args, **kwargs)`` returns, and its figures: the process's
        CPU, its PostgreSQL backend's, the statements it sent."""
        del statements[:]
        database, started = _backend_cpu(backend), time.process_time()
        with connection.execute_wrapper(counting):
            done = work(*args, **kwargs)
        return done, {"cpu": time.process_time() - started,
                      "db": _backend_cpu(backend) - database,
                      "statements": len(statements), "sql": list(statements)}

    def call(method: str, path: str, token: str, body: bytes = b"") -> tuple[str, dict, dict]:
        environ = wsgi_environ(method, path, token, body)
        status: list[str] = []
        content, figures = timed(lambda: b"".join(
            app(environ, lambda s, headers, exc=None: status.append(s))))
        return status[0], json.loads(content), figures

    def can_act(view: dict) -> bool:
        return (view["status"] == "running" and view.get("you") is not None
                and view.get("you") in (view["game"]["projection"].get("to_act") or [])
                and bool(view["legal_actions"]))

    rng = random.Random(seed)
    cold: dict[str, list[dict]] = {"get": [], "post": [], "touch": []}
    hot: list[dict] = []
    draws: list[dict] = []
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)
    for phase in ("cold", "hot"):
        for g in prepared:
            path = f"/api/games/{g['id']}"
            gets = []
            seat = view = None
            held = states.latest_before(g["id"], 1 << 30) if phase == "hot" else None
            if phase == "hot" and selectors.game_get(g["id"]).projection["awaiting"][
                    "kind"] == "chance":
                # the worker's draw the cold move called for, on a state it never held
                states.discard(g["id"])
                draws.append(timed(services.chance_resolve, g["id"])[1])
            for s, token in enumerate(g["tokens"]):
                if profiler is not None and phase == "cold":
                    profiler.enable()
                _, view, f = call("GET", f"{path}/", token)
                if profiler is not None:
                    profiler.disable()
                gets.append(f)
                if can_act(view):
                    seat = s
                    break
            if seat is None:
                continue
            if held is not None:
                # the state this process held before the draw, which another process
                # (the worker) made: the GETs above stand for the stream's view
                states.discard(g["id"])
                states.put(g["id"], *held)
            body = json.dumps({"action": rng.choice(view["legal_actions"]), "seq": view["seq"]}
                              ).encode()
            if profiler is not None and phase == "cold":
                profiler.enable()
            status, answer, f = call("POST", f"{path}/actions/", g["tokens"][seat], body)
            if profiler is not None:
                profiler.disable()
            if not status.startswith("201"):
                raise SystemExit(f"game {g['id']}: the move was refused: {status} {answer}")
            if phase == "cold":
                cold["get"].extend(gets)
                cold["post"].append(f)
                cold["touch"].append({k: sum(x[k] for x in [*gets, f])
                                      for k in ("cpu", "db", "statements")})
            else:  # the GETs stand for the view a stream brings: not counted
                hot.append(f)
    if profiler is not None:
        profiler.dump_stats(profile)
    written = []
    for g in prepared:  # a snapshot of each game's state as it is now, as a move writes it
        game = selectors.game_get(g["id"])
        rules, state = selectors.rules_of(game), selectors.game_state_get(game)
        written.append(timed(game_snapshot_save, game_id=game.pk, seq=game.seq + 1_000_000,
                             rules=rules, state=state)[1])

    def summary(rows: list[dict]) -> dict:
        if not rows:  # no move called for a draw
            return {"n": 0}
        return {"n": len(rows), "cpu_us": round(1e6 * statistics.mean(r["cpu"] for r in rows)),
                "cpu_median_us": round(1e6 * statistics.median(r["cpu"] for r in rows)),
                "db_us": round(1e6 * statistics.mean(r["db"] for r in rows)),
                "statements": round(statistics.mean(r["statements"] for r in rows), 2)}

    out = {"touch": summary(cold["touch"]), "get": summary(cold["get"]),
           "post": summary(cold["post"]), "hot": summary(hot), "snapshot": summary(written),
           "draw": summary(draws)}
    for name, rows in (("get", cold["get"]), ("post", cold["post"]), ("hot", hot)):
        out[name]["sql"] = rows[0]["sql"]
    return out


# ---------------------------------------------------------------- the runs

@contextlib.contextmanager
def worktree(rev: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="move-bench-") as tmp:
        path = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(path),
                        rev], check=True)
        try:
            yield path
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(path)], check=False)


def events_range(text: str) -> tuple[int, int]:
    """``--cold-events``: N, or A-B (each game's drawn from A to B)."""
    low, _, high = text.partition("-")
    try:
        bounds = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not N or A-B: {text!r}") from None
    if not 0 <= bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError(f"not a range of events: {text!r}")
    return bounds


def run(root: Path, args: argparse.Namespace, seed: int, env: dict[str, str]) -> dict:
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", str(root),
            "--game", args.game, "--games", str(args.games), "--moves", str(args.moves),
            "--seed", str(seed), *(["--changes"] if args.changes else []),
            *(["--cold"] if args.cold else []),
            "--cold-events", "-".join(map(str, args.cold_events))]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the run of {root} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


COLD_PARTS = ("touch", "get", "post", "hot", "snapshot", "draw")
"""A cold touch (its GETs and its POST), each cold GET, each cold POST, a hot POST,
a snapshot's write (what a move that crosses the interval adds after its commit),
the worker's draw that a cold move called for (on a state it never held)."""


def cold_report(args: argparse.Namespace, runs: dict[str, list[dict]]) -> None:
    """Each part's figures, median (min-max) over the rounds, and the ratio of the
    web process + PostgreSQL CPU to the baseline's, round by round."""
    print(f"\n{args.game}, cold: {args.games} games a run"
          + (" played on to {}-{} events".format(*args.cold_events) if args.cold_events[1]
             else "")
          + f", {args.rounds} rounds; "
          "CPU in us a request (mean over the run), median (min-max) of the runs")
    base = runs.get(args.against or "", runs["this"])

    def spread(values: list[float]) -> str:
        return f"{statistics.median(values):.0f} ({min(values):.0f}-{max(values):.0f})"

    for part in COLD_PARTS:
        if any(not r[part]["n"] for rs in runs.values() for r in rs):
            print(f"{part:6}none in some run")  # no cold move called for a draw
            continue
        for name, rs in runs.items():
            web = [r[part]["cpu_us"] for r in rs]
            db = [r[part]["db_us"] for r in rs]
            both = [w + d for w, d in zip(web, db, strict=True)]
            ratio = [(r[part]["cpu_us"] + r[part]["db_us"]) / (b[part]["cpu_us"] + b[part]["db_us"])
                     for r, b in zip(rs, base, strict=True)]
            print(f"{part:6}{name:12} web {spread(web):>18}  PostgreSQL {spread(db):>16}  "
                  f"both {spread(both):>18}  statements {rs[0][part]['statements']:5}  "
                  f"ratio {statistics.median(ratio):.3f} ({min(ratio):.3f}-{max(ratio):.3f})")
    for part in ("get", "post", "hot"):
        print(f"\nstatements of a {part} ({'this' if 'this' in runs else ''}):")
        for sql in runs["this"][0][part]["sql"]:
            print("   ", sql[:160].replace("\n", " "))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="marram", choices=GAMES)
    parser.add_argument("--against", help="a git revision to run beside this checkout")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=40, help="moves deep into each game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--changes", action="store_true",
                        help="ask for the changes to the state in each answer (on both "
                        "sides: a REV that takes the field)")
    parser.add_argument("--cold", action="store_true",
                        help="the cold phase's touch of fresh games, then a hot move of "
                        "each (--games 300 unless given)")
    parser.add_argument("--cold-events", type=events_range, default=(0, 0),
                        help="with --cold, each game played on to this many events first, "
                        "N or A-B (a correspondence game's cold move)")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="runs of this checkout with these settings, beside its runs "
                        "as it is (in place of --against)")
    parser.add_argument("--profile", help="with --cold, one run of this checkout alone "
                        "under cProfile, its cold requests' statistics written to this file")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold and args.games == parser.get_default("games"):
        args.games = 300
    if args.child and args.cold:
        print(json.dumps(child_cold(Path(args.child), args.game, args.games, args.seed,
                                    args.profile, args.cold_events)))
        return 0
    if args.child:
        print(json.dumps(child(Path(args.child), args.game, args.games, args.moves, args.seed,
                               args.changes)))
        return 0

    sys.path.insert(0, str(HERE))
    import service_bench as sb

    with contextlib.ExitStack() as stack:
        url = stack.enter_context(sb.database())
        redis_url = stack.enter_context(sb.broker())
        env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": redis_url}
        trees = {"this": ROOT}
        envs = {"this": env}
        if args.env:
            changed = " ".join(args.env)
            trees[changed] = ROOT
            envs[changed] = {**env, **dict(e.partition("=")[::2] for e in args.env)}
        if args.profile:
            argv = [sys.executable, str(Path(__file__).resolve()), "--child", str(ROOT),
                    "--cold", "--game", args.game, "--games", str(args.games),
                    "--seed", str(args.seed), "--profile", args.profile,
                    "--cold-events", "-".join(map(str, args.cold_events))]
            done = subprocess.run(argv, env=env, check=True, capture_output=True, text=True)
            print(done.stdout.strip().splitlines()[-1])
            return 0
        if args.against:
            trees[args.against] = stack.enter_context(worktree(args.against))
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(trees)[::-1]
            for name in order:
                r = run(trees[name], args, args.seed + round_, envs.get(name, env))
                runs[name].append(r)
                if args.cold:
                    print(f"round {round_ + 1} {name}: " + "; ".join(
                        f"{part} {r[part]['cpu_us']} us + PostgreSQL {r[part]['db_us']} us, "
                        f"{r[part]['statements']} statements" for part in COLD_PARTS
                        if r[part]["n"]),
                        file=sys.stderr, flush=True)
                    continue
                print(f"round {round_ + 1} {name}: {r['moves']} moves, CPU a move mean "
                      f"{r['mean_us']} us, median {r['median_us']} us"
                      + (f" ({r['refused']} refused)" if r["refused"] else ""),
                      file=sys.stderr, flush=True)
    if args.cold:
        cold_report(args, runs)
        return 0
    print(f"\n{args.game}: {args.games} games x {args.moves} moves a run, {args.rounds} rounds")
    print(f"{'code':12}{'mean us':>10}{'median us':>12}{'ratio of means':>16}")
    base = runs.get(args.against or "", runs["this"])
    for name, rs in runs.items():
        ratio = statistics.median(r["mean_us"] / b["mean_us"] for r, b in zip(rs, base,
                                                                                 strict=True))
        print(f"{name:12}{statistics.median(r['mean_us'] for r in rs):10.0f}"
              f"{statistics.median(r['median_us'] for r in rs):12.0f}{ratio:16.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
