"""The Celery workers as docker-compose.yml ships them: the default queue's
worker as threads of one process (``--pool=threads``), and the computers' moves
and the reviews on a queue of their own (``MARRAM_COMPUTER_QUEUE``) for a worker
of processes.

Real parts: Redis, and the default queue's worker started with the command
compose gives it, on the test database (so every test here commits).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest
import yaml

from games.management.commands.verify_game import game_problems
from games.models import Event, Game
from games.selectors import game_state_get, rules_of
from games.services import action_submit
from tests.service import test_celery_worker as real
from tests.service.conftest import make_user, seat_user, start_game_of
from tests.service.test_celery_worker import ROOT, Process, wait_for

process_env, smtp = real.process_env, real.smtp  # the workers' environment, its SMTP

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("redis_url")]

GAMES = 8
"""Games moved at once, each roll a task for the worker's threads (a thread a core)."""
ROUNDS = 8
SEED = "5e" * 32


def shipped_command(service: str) -> list[str]:
    """A service's command in docker-compose.yml, each ``${NAME:-default}`` as its
    default."""
    command = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"][service][
        "command"]
    return [re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", word) for word in command]


@pytest.fixture
def threads_worker(process_env, tmp_path_factory) -> Iterator[Process]:
    """The default queue's worker with the arguments compose gives it, the test's
    own: it is stopped before the test's tables are emptied, so that no task of
    its (the drain a commit asks for ``DRAIN_LAG`` later) holds a lock the
    emptying waits on."""
    program, *args = shipped_command("worker")
    assert program == "celery" and "--pool=threads" in args, args
    log = tmp_path_factory.mktemp("shipped") / "worker.log"
    argv = [sys.executable, "-m", program, *args, "-n", "shipped@%h", "--purge",
            "--without-gossip", "--without-mingle", "--without-heartbeat"]
    worker = Process(argv, {**process_env, "DATABASE_CONN_MAX_AGE": "60"}, log, "ready.")
    yield worker.start()
    worker.stop()


def _queues_of(tasks: tuple[str, ...], **env: str) -> list[str]:
    """The queues the settings route ``tasks`` to, in one process with ``env``."""
    code = ("import sys, django; django.setup(); from marram_site.celery import app; "
            "print(*(app.amqp.router.route({}, t)['queue'].name for t in sys.argv[1:]))")
    inherited = {k: v for k, v in os.environ.items()
                 if k not in ("MARRAM_COMPUTER_QUEUE", "MARRAM_REVIEW_QUEUE")}
    found = subprocess.run([sys.executable, "-c", code, *tasks], cwd=ROOT, check=True,
                           capture_output=True, text=True,
                           env={**inherited, "DJANGO_SETTINGS_MODULE": "marram_site.settings",
                                **env})
    return found.stdout.split()


def test_the_computers_moves_and_reviews_go_to_the_computers_queue_as_shipped():
    thinking = ("bots.tasks.bot_move", "reviews.tasks.review_make")
    rest = ("games.tasks.resolve_chance", "notifications.tasks.outbox_drain",
            "bots.tasks.bots_sweep")
    shipped = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["x-marram-env"]
    # as shipped: the thinking to the computers' queue, the rest to the default one
    assert _queues_of(thinking + rest, MARRAM_COMPUTER_QUEUE=shipped[
        "MARRAM_COMPUTER_QUEUE"]) == ["computers", "computers", "celery", "celery", "celery"]
    # a site that runs one worker for everything leaves them on the default queue
    assert _queues_of(thinking) == ["celery", "celery"]
    # the reviews may still have a queue of their own
    assert _queues_of(thinking, MARRAM_COMPUTER_QUEUE="computers",
                      MARRAM_REVIEW_QUEUE="reviews") == ["computers", "reviews"]


def _awaited_player(game: Game) -> int | None:
    """The seat the game waits for, or None while it waits for a draw."""
    game.refresh_from_db()
    wait = rules_of(game).awaiting(game_state_get(game))
    return None if wait.chance else wait.players[0]


def test_the_threads_of_the_shipped_worker_roll_for_many_games_at_once(threads_worker,
                                                                      settings):
    """Eight games of Make-a-snake (a turn: the server's roll, the player's take
    and connect), every connect asking the worker for the next roll: each round's
    moves are made in all eight games before any roll is waited for, so the
    worker's threads roll for several games at once. Every roll is drawn once,
    and every game replays to what was stored."""
    settings.MARRAM_DRAW_INLINE = False
    games = [start_game_of("make_a_snake", [make_user(f"a{g}"), make_user(f"b{g}")],
                           seed=SEED) for g in range(GAMES)]
    connects = {g.pk: 0 for g in games}
    for _ in range(ROUNDS):
        for game in games:
            wait_for(lambda g=game: _awaited_player(g) is not None, "a roll")
            seat = _awaited_player(game)
            assert seat is not None
            action = dict(rules_of(game).legal_actions(game_state_get(game), seat)[0])
            action_submit(game=game, user=seat_user(game, seat), action=action,
                          expected_seq=game.seq)
            connects[game.pk] += action["type"] == "connect"
    wait_for(lambda: not Game.objects.filter(pk__in=connects,
                                             projection__awaiting__kind="chance").exists(),
             "every roll")
    assert sum(connects.values()) == GAMES * ROUNDS // 2  # take, connect, take, ...
    for game in games:
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING
        assert game_problems(game) == []
        # the start's roll, then one after each connect: none missed, none drawn twice
        assert Event.objects.filter(game=game, type="roll").count() == 1 + connects[game.pk]
    log = threads_worker.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
