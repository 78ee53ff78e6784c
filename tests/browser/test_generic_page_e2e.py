"""A game with no UI folder of its own (the tests' tic-tac-toe) is played on the
generic game page: its view, each legal action a button, moves sent by the
generic client (games/client.js), and the other player's move arriving by polling."""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from games import services
from games.models import Event, Game
from tests.browser.conftest import DESKTOP
from tests.engine.tictactoe import GAME as TICTACTOE
from tests.service.conftest import make_user, seat_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


@pytest.fixture(autouse=True)
def tictactoe():
    registry.register(TICTACTOE)
    yield
    registry.unregister(TICTACTOE.key)


def wait_for_seq(page: Any, seq: int) -> None:
    page.wait_for_function("seq => window.gamePage && window.gamePage.page.seq === seq && "
                           "!window.gamePage.busy", arg=seq, timeout=20_000)


def test_two_players_mark_cells_on_the_generic_page(visitors, live_server, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(user=ann, game="tictactoe", seats=2)
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    first, second = seat_user(game, 0), seat_user(game, 1)
    pages, visitor_of = {}, {}
    for user in (first, second):
        v = visitors(DESKTOP)
        visitor_of[user.username] = v
        v.sign_in(user.username)
        v.page.goto(f"{live_server.url}/games/{game.pk}/")
        v.page.wait_for_selector("#game[data-ready=true]")
        pages[user.username] = v.page
    mover, waiter = pages[first.username], pages[second.username]
    assert "Your turn" in mover.locator("#turn-status").inner_text()
    assert waiter.locator("#generic-actions button").count() == 0
    assert mover.locator("#generic-actions button").count() == 9

    mover.get_by_role("button", name="mark 5").click()
    wait_for_seq(mover, 1)
    assert Event.objects.get(game=game, seq=0).payload == {"type": "mark", "player": 0,
                                                           "cell": 4}
    assert '"board": "....X...."' in mover.locator("#generic-view").inner_text()
    # the other player's page hears of it by polling, and offers the free cells
    wait_for_seq(waiter, 1)
    waiter.wait_for_function("() => document.querySelectorAll('#generic-actions button')"
                             ".length === 8")
    assert "Your turn" in waiter.locator("#turn-status").inner_text()
    mover.screenshot(path=str(artifacts_dir / "generic-page.png"))

    # a stale page's move is refused and the page brought up to date, nothing stored
    # (the page stops polling, as a page in a background tab does, so it stays stale)
    waiter.evaluate("Object.defineProperty(document, 'hidden', {get: () => true})")
    services.action_submit(game=game, user=second, action={"type": "mark", "cell": 0},
                           expected_seq=1)
    stale = waiter
    visitor_of[second.username].expect_refusal(409, "/actions/")
    stale.get_by_role("button", name="mark 9").click()
    stale.wait_for_function("() => document.getElementById('move-error').textContent")
    assert "moved on" in stale.locator("#move-error").inner_text()
    assert Game.objects.get(pk=game.pk).seq == 2
