"""A move made with the keyboard alone keeps the focus on the next control the
player needs: after a position or a stack is chosen with Enter the focus is on
what comes next (the Confirm button, the rotation), never lost to the page's
body; after a Make-a-snake take is confirmed it is on the Up/Down choice; and a
click on another player's piece in Pond says why it cannot be chosen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.service.conftest import make_user, start_game, start_game_of
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

FOCUSED = """() => { const e = document.activeElement;
  return e === document.body || !e ? 'body'
    : `${e.tagName.toLowerCase()}#${e.id}[${Object.entries(e.dataset)
        .map(([k, v]) => k + '=' + v).join(',')}] ${e.textContent.trim().slice(0, 40)}`; }"""


def focused(page: Any) -> str:
    return page.evaluate(FOCUSED)


def settled(page: Any) -> None:
    page.wait_for_function("() => window.gamePage && !window.gamePage.busy")


def game_page(visitors: Any, live_server: Any, game: Any, username: str) -> Any:
    visitor = visitors()
    visitor.sign_in(username)
    page = visitor.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    return page


def test_pond_a_position_chosen_with_enter_leaves_the_focus_on_confirm(
        visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of("pond", [ann, bob], seed="0d0d" * 16)
    page = game_page(visitors, live_server, game, "ann")
    page.locator("#pond-board g.choice").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('#pond-preview[data-ready="true"]')  # the board redrawn after it
    assert page.evaluate("() => document.activeElement.id") == "confirm-button", focused(page)
    page.keyboard.press("Enter")  # confirms
    page.wait_for_function("() => window.gamePage.page.seq === 1 && !window.gamePage.busy")


def test_pond_a_click_on_the_other_players_piece_says_why_nothing_happens(
        visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of("pond", [ann, bob], seed="0d0d" * 16)
    from games import services

    services.action_submit(game=game, user=ann, action={"type": "egg", "player": 0,
                                                         "at": [1, 3]}, expected_seq=0)
    services.action_submit(game=game, user=bob, action={"type": "egg", "player": 1,
                                                         "at": [0, 1]}, expected_seq=1)
    page = game_page(visitors, live_server, game, "ann")
    page.locator('#pond-board g.cell[data-x="0"][data-y="1"]').click()  # bob's egg
    said = page.locator("#move-error").inner_text()
    assert said == ("That is bob's egg (dark): you play light. Choose one of your highlighted "
                    "pieces, or a highlighted empty position for an egg."), said


def test_make_a_snake_a_stack_chosen_with_enter_then_the_take_confirmed_lead_to_up_and_down(
        visitors, live_server, settings):
    ann, bob = make_user("ann"), make_user("bob")
    with eager_tasks(settings):  # the die is rolled by the task, in-process
        game = start_game_of("make_a_snake", [ann, bob], seed="5e" * 32)
        page = game_page(visitors, live_server, game, "ann")
        page.wait_for_selector("#stacks button")
        page.locator("#stacks button").first.focus()
        page.keyboard.press("Enter")
        assert page.evaluate("() => document.activeElement.id") == "confirm-move", \
            focused(page)
        page.keyboard.press("Enter")  # confirms the take
        page.wait_for_selector("#sides button.side-button")
        settled(page)
        page.wait_for_function("() => document.activeElement.classList.contains('side-button')",
                               timeout=10_000)
        side = page.evaluate("() => document.activeElement.dataset.side")
        assert side in ("up", "down"), focused(page)
        page.keyboard.press("Enter")  # chooses it: Confirm is next
        assert page.evaluate("() => document.activeElement.id") == "confirm-move", \
            focused(page)


def test_marram_a_place_chosen_with_enter_leaves_the_focus_on_the_move_panel(
        visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed="4b" * 32)
    page = game_page(visitors, live_server, game, "ann")
    page.locator("button.face-button").first.focus()
    page.keyboard.press("Enter")
    page.locator("svg#board g.highlight").first.focus()
    page.keyboard.press("Enter")
    # the claims and the score preview arrive, and the panel is drawn again
    page.wait_for_selector('[data-action="confirm"]')
    page.wait_for_function("() => !document.querySelector('#move-body .loading')")
    page.wait_for_timeout(300)
    where = focused(page)
    assert where != "body" and page.evaluate(
        "() => document.getElementById('move-body').contains(document.activeElement)"), where
