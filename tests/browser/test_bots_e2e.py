"""Play against the computer from the home page: the game starts at once, the
person makes a move on the game page, and the computer's reply, made by the real
Celery worker, arrives on the page by itself."""

from __future__ import annotations

import pytest

from games.models import Event, Game
from tests.browser.conftest import DESKTOP
from tests.service.conftest import make_user
from tests.service.test_celery_worker import (  # noqa: F401  (the worker and its fixtures)
    fresh_visits,
    mailbox,
    process_env,
    quiet_worker,
    smtp,
    wait_for,
    worker,
)

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("cold_caches", "redis_url", "worker")]


def test_play_against_the_computer_from_the_home_page(visitors, live_server, artifacts_dir):
    ann = make_user("ann")
    visitor = visitors(DESKTOP)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/")
    page.get_by_label("Game", exact=True).select_option("pond")
    page.get_by_label("Computer player 1", exact=True).select_option("easy")
    page.screenshot(path=str(artifacts_dir / "home.png"))
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    assert game.status == "running"
    page.wait_for_selector("#game[data-ready=true]")
    assert "Plover (computer, easy)" in page.content()
    # whoever was drawn to begin, ann's turn comes (the bot's first move, if it began)
    page.wait_for_function("() => document.querySelectorAll('#pond-board g.choice-egg')"
                           ".length > 0", timeout=30_000)
    before = Event.objects.filter(game=game).count()
    page.locator("#pond-board g.choice-egg").first.click()  # an egg from the spawn...
    page.click("#confirm-button")  # ...laid there
    mine = wait_for(lambda: Event.objects.filter(game=game, actor=ann, seq__gte=before)
                    .first(), "ann's move")
    reply = wait_for(lambda: Event.objects.filter(game=game, seq__gt=mine.seq,
                                                  actor__bot__level="easy").first(),
                     "the computer's reply")
    # the page shows the reply by itself (polling), and ann may move again
    page.wait_for_function("seq => window.gamePage && window.gamePage.page.seq > seq",
                           arg=reply.seq, timeout=30_000)
    page.wait_for_function("() => document.querySelectorAll('#pond-board g.choice')"
                           ".length > 0", timeout=30_000)
    assert "Your turn" in page.locator("#turn-status").inner_text()
    page.screenshot(path=str(artifacts_dir / "against-the-computer.png"))
