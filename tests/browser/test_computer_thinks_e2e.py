"""Against the strong computer in ``./dev run``'s setup (Celery tasks run in the
web process as the commits enqueue them; MARRAM_BACKGROUND_TASKS on): the
player's Confirm is answered at once, the page says the computer is thinking,
and shows the computer's moves when they come, by polling, as in production,
where a worker makes them."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bots import services as bots
from games import background
from tests.browser.conftest import DESKTOP
from tests.browser.test_play_e2e import choose_claim_step
from tests.service.conftest import dealt_from, make_user
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "5eed0c0d" * 8
THINKING = 60_000
"""How long the test waits for the computer's moves, in ms (seconds each on a
loaded machine)."""


@pytest.fixture
def embedded(settings):
    """Tasks as ``./dev run`` runs them."""
    with eager_tasks(settings):
        settings.MARRAM_BACKGROUND_TASKS = True
        yield
        assert background.idle(120), "the computer is still thinking"


def my_turn(page: Any) -> None:
    page.wait_for_function(
        "() => window.marramGame && !window.marramGame.ui.busy && "
        "(window.marramGame.page.legal_actions || []).some(a => a.type === 'place')",
        timeout=THINKING)


def lay_first_tile(page: Any) -> Any:
    """Lay the first placement the page offers, no claim, by clicks; Confirm's answer
    and how long it took to come, in seconds."""
    action = page.evaluate(
        "() => window.marramGame.page.legal_actions.find(a => a.type === 'place')")
    page.click(f'button.face-button[data-tile="{action["tile"]}"][data-face="{action["face"]}"]')
    x, y = action["at"]
    page.click(f'svg#board g.highlight[data-x="{x}"][data-y="{y}"]')
    page.click(f'button.rotation-button[data-rotation="{action["rotation"]}"]')
    choose_claim_step(page, None)
    page.wait_for_selector("#score-preview[data-ready=true]")
    with page.expect_response(lambda r: "/actions/" in r.url and
                              r.request.method == "POST") as sent:
        started = time.monotonic()
        page.click('button[data-action="confirm"]')
    took = time.monotonic() - started
    return sent.value.json(), took


def test_confirm_is_answered_at_once_while_the_strong_computer_thinks(
        embedded, visitors, live_server, artifacts_dir):
    ann = make_user("ann")
    with dealt_from(SEED):  # ann sits first
        game = bots.play_the_computer(user=ann, game="marram", levels=["strong"])
    computer = next(s.name for s in game.seats.all() if s.user != ann)
    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")

    for turn in range(2):
        my_turn(page)
        lay_first_tile(page)  # the turn's first tile: the turn goes on
        my_turn(page)
        answer, _ = lay_first_tile(page)  # the last: the computer's turn
        # answered before the computer has moved: its turn awaits the computer
        view = answer["view"]
        assert view["legal_actions"] == [], view["status_text"]
        assert view["status_text"] == f"{computer} is thinking about its move."
        page.wait_for_function(
            "text => document.getElementById('turn-status').textContent.includes(text)",
            arg="is thinking about its move")
        if turn == 0:
            page.screenshot(path=str(artifacts_dir / "computer-thinking.png"))
        # its moves arrive by themselves, and the turn is ann's again
        my_turn(page)
        assert page.evaluate("() => window.marramGame.page.seq") >= view["seq"] + 2
        assert "Your turn" in page.locator("#turn-status").inner_text()
