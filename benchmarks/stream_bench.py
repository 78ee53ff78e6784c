"""Open game pages: polling, server-sent events and long polling side by side.

    .venv/bin/python benchmarks/stream_bench.py [--pages 1000] [--games 500]
        [--seconds 30] [--moves-per-s 2] [--rounds 2]

Starts PostgreSQL, Redis and the web server as benchmarks/service_bench.py does
(production settings, the server's own layout, MARRAM_STREAM on so that every
commit publishes its seq) and the stream server (uvicorn on
marram_site/stream.py, as docker-compose runs it), then holds ``--pages`` open
pages of ``--games`` running games while one player elsewhere makes
``--moves-per-s`` moves a second on random games. Each page follows its game
one way, the modes taking turns within each round:

- ``poll``: the page's fallback, as games/static/games/client.js polls: the
  events since its seq every 3 s with its session cookie and the ETag it has;
- ``sse``: an event stream from the stream server; one poll on connecting;
- ``longpoll``: the stream server's ``wait?since=``, asked again at each answer;
  one poll before the first.

In every mode a page that learns of a move reads the game as the page does
(``/games/<id>/state.json``, session cookie). Printed for each mode: the CPU the
server side spent (the web server, PostgreSQL, the stream server and Redis) as a share
of the machine's cores, its requests a second, and how long after a move's POST
was sent its pages learned of it (median and p95 over the pages of the games
moved; the POST's own time included). The pages and the mover are this process:
they stand for browsers on other machines, so their CPU is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

import poll_bench as pb  # noqa: E402
import service_bench as sb  # noqa: E402

MODES = ("poll", "sse", "longpoll")
POLL_SECONDS = 3.0


class Page:
    """One open page of one game, with its session cookie."""

    def __init__(self, game: dict, cookie: str, token: str, stream_port: int, web_port: int,
                 learned: dict[tuple[int, int], list[float]], counts: dict[str, int]):
        self.game, self.cookie, self.token = game, cookie, token
        self.stream_port, self.web_port = stream_port, web_port
        self.seq = game["seq"]
        self.etag: str | None = None
        self.learned, self.counts = learned, counts
        self.web: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.keep = True
        """Whether the page keeps its connection to the web server open between requests:
        a polling page does; one that follows a stream opens one when it reads
        (in production nginx keeps a few open to the web servers for all of them)."""

    async def get(self, path: str, etag: str | None = None) -> tuple[int, str, bytes]:
        """A GET to the web server on the page's keep-alive connection."""
        if self.web is None:
            self.web = await asyncio.open_connection("127.0.0.1", self.web_port)
        reader, writer = self.web
        writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
                      f"Cookie: sessionid={self.cookie}\r\n"
                      + (f"If-None-Match: {etag}\r\n" if etag else "") + "\r\n").encode())
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        length = next((int(line.split(":", 1)[1]) for line in head.split("\r\n")[1:]
                       if line[:15].lower() == "content-length:"), 0)
        body = await reader.readexactly(length) if length else b""
        self.counts["requests"] += 1
        if not self.keep:  # a page that follows a stream reads the game rarely
            writer.close()
            self.web = None
        return int(head[9:12]), head, body

    async def learn(self, seq: int) -> None:
        """The page hears the game is at ``seq``: it reads the game if that is new."""
        if seq <= self.seq:
            return
        self.learned.setdefault((self.game["id"], seq), []).append(time.monotonic())
        self.seq = seq
        status, _, _ = await self.get(f"/games/{self.game['id']}/state.json")
        self.counts[f"state_{status}"] = self.counts.get(f"state_{status}", 0) + 1

    async def poll_once(self) -> None:
        status, head, body = await self.get(
            f"/api/games/{self.game['id']}/events/?since={self.seq}", self.etag)
        self.etag = pb.etag_of(head) or self.etag
        if status == 200:
            await self.learn(orjson.loads(body)["seq"])

    async def follow(self, mode: str, start: float, stop: float) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, start - loop.time()))
        base = f"/stream/games/{self.game['id']}"
        try:
            if mode == "poll":
                due = loop.time()
                while loop.time() < stop:
                    await self.poll_once()
                    due += POLL_SECONDS
                    await asyncio.sleep(max(0.0, due - loop.time()))
            elif mode == "sse":
                reader, writer = await asyncio.open_connection("127.0.0.1", self.stream_port)
                writer.write(f"GET {base}/events?t={self.token} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             "Accept: text/event-stream\r\n\r\n".encode())
                await reader.readuntil(b"retry: 3000\n\n")
                self.counts["requests"] += 1
                await self.poll_once()
                self.counts["connected"] = self.counts.get("connected", 0) + 1
                while True:
                    line = await asyncio.wait_for(reader.readline(), stop - loop.time())
                    if line.startswith(b"data: "):
                        await self.learn(int(line[6:]))
            else:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.stream_port)
                await self.poll_once()
                while loop.time() < stop:
                    writer.write(f"GET {base}/wait?t={self.token}&since={self.seq} HTTP/1.1\r\n"
                                 "Host: 127.0.0.1\r\n\r\n".encode())
                    head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"),
                                                   stop - loop.time())).decode("latin-1")
                    length = int(next(line.split(":", 1)[1] for line in head.split("\r\n")
                                      if line[:15].lower() == "content-length:"))
                    answer = orjson.loads(await reader.readexactly(length))
                    self.counts["requests"] += 1
                    if answer["seq"] is not None:
                        await self.learn(answer["seq"])
        except TimeoutError:
            pass
        finally:
            if self.web is not None:
                self.web[1].close()


def mover(port: int, games: list[dict], per_second: float, stop: threading.Event,
          moved: dict[tuple[int, int], float]) -> None:
    """Moves on random games, ``per_second`` of them: the awaited player's GET,
    then a random legal action; when each POST was sent, by the game's new seq."""
    rng = random.Random(7)
    client = sb.Client(port, {})
    counts: dict[str, int] = {"moves": 0}
    lock = threading.Lock()
    due = time.monotonic()
    while not stop.is_set():
        game = rng.choice(games)
        for token in game["tokens"].values():
            status, view = client.request("get", "GET", f"/api/games/{game['id']}/", token)
            if status == 200 and view["status"] == "running" and view["legal_actions"]:
                sent = time.monotonic()
                status, answer = sb.post_random_action(client, game["id"], token, view, rng,
                                                       counts, lock)
                if status == 201:
                    moved[(game["id"], answer["seq"])] = sent
                break
        due += 1 / per_second
        time.sleep(max(0.0, due - time.monotonic()))


@contextlib.contextmanager
def stream_server(url: str) -> Iterator[tuple[int, int]]:
    """The stream server as docker-compose runs it, on the benchmark's database
    and Redis settings: its port and pid."""
    port = sb.free_port()
    process = subprocess.Popen(
        [str(sb.VENV_BIN / "uvicorn"), "marram_site.stream:app", "--host", "127.0.0.1",
         "--port", str(port), "--no-access-log", "--log-level", "warning"],
        cwd=sb.ROOT, env=sb.server_env(url))
    try:
        sb.wait_until_up(process, port, "/stream/health", "the stream server",
                         lambda body: orjson.loads(body)["subscribed"])
        yield port, process.pid
    finally:
        process.terminate()
        process.wait(15)


def pid_of(marker: bytes, port: int) -> int | None:
    """The pid of the process whose command line names ``marker`` and ``port``."""
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                argv = (proc / "cmdline").read_bytes()
            except OSError:
                continue
            if marker in argv and str(port).encode() in argv:
                return int(proc.name)
    return None


def server_cpu(pids: list[int]) -> float:
    return sum(sb.process_cpu(p) for pid in pids for p in [pid, *sb.children(pid)])


def one_mode(mode: str, pages: list[Page], web_port: int, pids: list[int],
             args: argparse.Namespace) -> dict:
    learned: dict[tuple[int, int], list[float]] = {}
    moved: dict[tuple[int, int], float] = {}
    counts = {"requests": 0}
    for page in pages:
        page.learned, page.counts, page.web, page.etag = learned, counts, None, None
        page.keep = mode == "poll"
    warm = 2 * POLL_SECONDS
    result: dict = {}

    async def run() -> None:
        loop = asyncio.get_running_loop()
        began = loop.time()
        stop_at = began + warm + args.seconds
        rng = random.Random(1)
        tasks = [asyncio.ensure_future(page.follow(mode, began + rng.uniform(0, POLL_SECONDS),
                                                   stop_at)) for page in pages]
        await asyncio.sleep(warm)
        stop = threading.Event()
        moving = threading.Thread(target=mover, args=(web_port, [p.game for p in pages],
                                                      args.moves_per_s, stop, moved))
        before, asked = server_cpu(pids), counts["requests"]
        moving.start()
        await asyncio.sleep(args.seconds)
        result["cpu"] = server_cpu(pids) - before
        result["requests"] = counts["requests"] - asked
        stop.set()
        await asyncio.gather(*tasks)
        await asyncio.to_thread(moving.join)

    asyncio.run(run())
    delays = [t - moved[key] for key, times in learned.items() if key in moved for t in times]
    cores = os.cpu_count() or 1
    return {
        "cpu_percent": 100 * result["cpu"] / args.seconds / cores,
        "requests_per_s": result["requests"] / args.seconds,
        "moves": len(moved),
        "delay_p50_ms": 1000 * sb.percentile(delays, 50) if delays else float("nan"),
        "delay_p95_ms": 1000 * sb.percentile(delays, 95) if delays else float("nan"),
        "heard": len(delays),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--moves-per-s", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    os.environ["MARRAM_STREAM"] = "1"

    with sb.database() as url, sb.broker() as redis_url:
        sb.BROKER_URL = redis_url
        games = sb.prepare(url, args.games, "classic")
        from live import stream as live

        pb.with_seqs(games)
        cookies = pb.sessions_for(games)
        tokens = {g["id"]: live.stream_token(g["id"]) for g in games}
        from django.db import connections

        connections.close_all()
        with stream_server(url) as (stream_port, stream_pid), \
                sb.web_server(url, sb.WORKERS, sb.THREADS) as web_port:
            redis_port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
            pids = [sb.web_server.pid, sb.postmaster(url), stream_pid,  # type: ignore[attr-defined]
                    pid_of(b"redis-server", redis_port)]
            pages = []
            for n in range(args.pages):
                game = games[n % len(games)]
                name = list(game["tokens"])[n // len(games) % 2]
                pages.append(Page(game, cookies[name], tokens[game["id"]], stream_port,
                                  web_port, {}, {}))
            figures: dict[str, list[dict]] = {mode: [] for mode in MODES}
            for r in range(args.rounds):
                for mode in MODES[r % 3:] + MODES[:r % 3]:
                    figure = one_mode(mode, pages, web_port, [p for p in pids if p], args)
                    figures[mode].append(figure)
                    print(f"round {r + 1} {mode:9} server CPU {figure['cpu_percent']:5.1f}% "
                          f"of the machine, {figure['requests_per_s']:7.1f} requests/s, "
                          f"{figure['moves']} moves heard {figure['heard']} times, "
                          f"p50 {figure['delay_p50_ms']:.0f} ms after the POST was sent, p95 "
                          f"{figure['delay_p95_ms']:.0f} ms", flush=True)

    print(f"\n{args.pages} open pages of {args.games} games, {args.moves_per_s:g} moves/s, "
          f"{args.seconds:g} s measured, medians of {args.rounds} rounds "
          f"({os.cpu_count()} cores; server side: web server {sb.WORKERS}x{sb.THREADS}, "
          f"PostgreSQL, stream server, "
          f"Redis)")
    print(f"{'':10}{'server CPU %':>14}{'requests/s':>12}{'heard p50 ms':>14}"
          f"{'heard p95 ms':>14}{'x poll CPU':>12}")
    poll_cpu = statistics.median(f["cpu_percent"] for f in figures["poll"])
    for mode in MODES:
        cpu = statistics.median(f["cpu_percent"] for f in figures[mode])
        print(f"{mode:10}{cpu:14.1f}"
              f"{statistics.median(f['requests_per_s'] for f in figures[mode]):12.1f}"
              f"{statistics.median(f['delay_p50_ms'] for f in figures[mode]):14.0f}"
              f"{statistics.median(f['delay_p95_ms'] for f in figures[mode]):14.0f}"
              f"{cpu / max(poll_cpu, 1e-9):12.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
