"""The development mail page (/mail/, notifications/mailbox*.py): how long a player's
mail box takes to load in a browser when it holds many mails with board pictures.
Run: python benchmarks/mail_page_bench.py [--mails 30] [--loads 7]

It makes a throwaway SQLite database as ``./dev run`` would, plays games until ann
has ``--mails`` "your move" mails (each with its board picture), serves the site
with Django's development server (the server of ``./dev run``) and loads /mail/ in
Debian's Chromium ``--loads`` times, each in a fresh browser context (nothing
cached), up to the page's load event and up to the pictures of its first screen
(a lazy picture does not hold the load event back). Printed: the median and the
range of each, beside the load time of the same page with no mail in the same run
(the machine is shared and noisy), and how many pictures each load fetched.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "mail-page-bench"

SEED = r"""
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from engine import marram as engine
from games import services
from games.models import Game, Seat
from games.selectors import game_state_get
from notifications.models import Notification
from notifications.services import mail_settings_update

call_command("migrate", verbosity=0)
User = get_user_model()
ann = User.objects.create_user("ann", "ann@example.com", "{password}")
bob = User.objects.create_user("bob", "bob@example.com", "{password}")
User.objects.create_user("cyd", "cyd@example.com", "{password}")
mail_settings_update(user=ann, policy="every_turn")
wanted, games = {mails}, 0
while Notification.objects.filter(user=ann, kind="your_turn", status="sent").count() < wanted:
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    services.game_join(game=game, user=bob)
    games += 1
    for _ in range(400):
        game.refresh_from_db()
        state = game_state_get(game)
        sent = Notification.objects.filter(user=ann, kind="your_turn", status="sent").count()
        if state.finished or sent >= wanted:
            break
        wait = engine.awaiting(state)
        if wait["kind"] == "chance":
            services.chance_resolve(game)
            continue
        seat = Seat.objects.get(game=game, index=wait["player"])
        services.action_submit(game=game, user=seat.user,
                               action=engine.legal_actions(state)[0], expected_seq=game.seq)
print(games, Notification.objects.filter(user=ann, status="sent").count())
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(env: dict[str, str], port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=1)
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the development server did not start")


IN_VIEW = ("[...document.querySelectorAll('.mail-board img')].filter(i => {"
           " const r = i.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0; })")
"""The pictures of the first screen (a script's expression)."""


def loads(browser, base: str, user: str, times: int) -> tuple[list[float], list[float],
                                                               list[int]]:
    """Load /mail/ ``times`` times as ``user``, each in a fresh context: the time to
    the load event (ms), to the first screen's pictures too (ms: a lazy picture
    does not hold the load event back) and the pictures fetched by then."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(user)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/games/")
    signed_in = context.storage_state()
    context.close()
    took, shown, pictures = [], [], []
    for _ in range(times):
        context = browser.new_context(viewport={"width": 1280, "height": 860},
                                      storage_state=signed_in)
        page = context.new_page()
        fetched = []
        page.on("requestfinished",
                lambda r, fetched=fetched: fetched.append(r) if "/board.png" in r.url else None)
        page.goto(f"{base}/mail/", wait_until="load")
        page.wait_for_function(f"() => {IN_VIEW}.every(i => i.complete)")
        load, screen = page.evaluate(
            "() => { const n = performance.getEntriesByType('navigation')[0];"
            f" const ends = {IN_VIEW}.map(i => performance.getEntriesByName(i.currentSrc)[0])"
            "   .filter(e => e).map(e => e.responseEnd);"
            " return [n.loadEventEnd - n.startTime, Math.max(n.loadEventEnd, ...ends)]; }")
        took.append(load)
        shown.append(screen)
        pictures.append(len(fetched))
        context.close()
    return took, shown, pictures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=30)
    parser.add_argument("--loads", type=int, default=7)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "marram_site.settings",
               "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3", "CELERY_TASK_ALWAYS_EAGER": "1",
               "MARRAM_BASE_URL": f"http://127.0.0.1:{port}", "DJANGO_LOG_LEVEL": "WARNING",
               "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
        for name in ("REDIS_URL", "CACHE_URL", "DJANGO_ENV", "EMAIL_HOST"):
            env.pop(name, None)
        seeded = subprocess.run(
            [sys.executable, "-c", SEED.replace("{password}", PASSWORD)
             .replace("{mails}", str(args.mails))],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        if seeded.returncode:
            raise SystemExit(seeded.stderr)
        games, mails = map(int, seeded.stdout.split())
        server = serve(env, port)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                            args=["--headless=new", "--no-sandbox"])
                base = f"http://127.0.0.1:{port}"
                loads(browser, base, "ann", 1)  # the server's first requests load its code
                full, screen, pictures = loads(browser, base, "ann", args.loads)
                empty, _, _ = loads(browser, base, "cyd", args.loads)
                browser.close()
        finally:
            server.terminate()
            server.wait()
    print(json.dumps({
        "games": games,
        "mails": mails,
        "loads": args.loads,
        "load_ms_median": round(statistics.median(full)),
        "load_ms_range": [round(min(full)), round(max(full))],
        "first_screen_ms_median": round(statistics.median(screen)),
        "first_screen_ms_range": [round(min(screen)), round(max(screen))],
        "pictures_fetched": sorted(set(pictures)),
        "empty_box_load_ms_median": round(statistics.median(empty)),
    }, indent=2))


if __name__ == "__main__":
    main()
