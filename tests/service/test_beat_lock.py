"""Beat on two machines, the schedule run by one (marram_site.beat): two real beat
processes on one Redis; the first takes the lock and sends the schedule's tasks,
the second waits and sends nothing; the first killed (its machine lost), the
second takes over within the lock's time and sends them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis

from tests.service.proxy_kit import ROOT

LOCK_SECONDS = 2
BROKER_DB = 9
"""A Redis database of this test's own: the tasks its beats send are no worker's."""
DEADLINE = 60.0
SWEEP = "Sending due task outbox-sweep"


class Beat:
    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "marram_site", "beat", "-l", "info",
                 f"--schedule={log.with_suffix('.schedule')}"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, line: str) -> float:
        """When ``line`` appeared in the log (waiting for it)."""
        deadline = time.monotonic() + DEADLINE
        while line not in self.text():
            assert self.process.poll() is None, self.text()[-3000:]
            assert time.monotonic() < deadline, f"no {line!r} in:\n{self.text()[-3000:]}"
            time.sleep(0.05)
        return time.monotonic()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@pytest.fixture
def beat_env(redis_url) -> Iterator[dict[str, str]]:
    url = urlunsplit(urlsplit(redis_url)._replace(path=f"/{BROKER_DB}"))
    yield {**os.environ, "REDIS_URL": url, "CELERY_TASK_ALWAYS_EAGER": "0",
           "MARRAM_BEAT_LOCK_SECONDS": str(LOCK_SECONDS), "PYTHONUNBUFFERED": "1"}
    redis.Redis.from_url(url).flushdb()


def test_one_beat_runs_the_schedule_and_another_takes_over_when_its_machine_is_lost(
        beat_env, tmp_path):
    first = Beat(beat_env, tmp_path / "first.log")
    second = None
    try:
        first.wait_for("holds the lock: running the schedule")
        first.wait_for(SWEEP)
        second = Beat(beat_env, tmp_path / "second.log")
        second.wait_for("waits: another beat holds the lock")
        first.wait_for(SWEEP)  # (read after the second's wait began)
        assert SWEEP not in second.text() and "holds the lock: running" not in second.text()

        first.process.send_signal(signal.SIGKILL)  # no chance to let the lock go
        lost = time.monotonic()
        first.process.wait()
        took_over = second.wait_for("holds the lock: running the schedule")
        second.wait_for(SWEEP)
        # the lock runs out LOCK_SECONDS after its last renewal, which was at most a
        # third of that before the kill; the second tries every third of it
        assert took_over - lost < LOCK_SECONDS * (1 + 1 / 3) + 1
    finally:
        first.stop()
        if second is not None:
            second.stop()


def test_a_beat_stopped_cleanly_lets_the_lock_go_at_once(beat_env, tmp_path):
    first = Beat(beat_env, tmp_path / "first.log")
    try:
        first.wait_for("holds the lock: running the schedule")
        first.process.send_signal(signal.SIGTERM)
        assert first.process.wait(timeout=30) == 0
        assert redis.Redis.from_url(beat_env["REDIS_URL"]).get("marram:beat") is None
    finally:
        first.stop()
