"""Accounts in a browser: a link to pass on copied from the waiting game's page and
followed by someone without an account, who signs up (from the form or the
header) and takes the seat; every account page reached from the header's menu,
with a password reset by mail; and resigning from a two-player game, asked first
and told as the end of the game, beside the clock in words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import expect

from games import services
from games.models import Game
from tests.browser.conftest import DESKTOP, PASSWORD, PHONE
from tests.service.conftest import dealt_from, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "ac0c0a75" * 8  # the players sit in the order given: ann moves first


@pytest.fixture
def site_here(settings, live_server):
    """Links made by the site (mail, links to pass on) point at the live server."""
    settings.MARRAM_BASE_URL = live_server.url


def expect_heading(page: Any, text: str) -> None:
    """The page with this title has loaded (waiting for it, as a click navigates)."""
    expect(page.get_by_role("heading", level=1)).to_have_text(text)


def test_a_link_copied_from_the_waiting_page_brings_a_new_player_to_the_seat(
        site_here, visitors, live_server, artifacts_dir):
    ann = make_user("ann")
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    host = visitors(DESKTOP)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"],
                                   origin=live_server.url)
    host.sign_in("ann")
    page = host.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("button", name="Make a link to pass on").click()
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    link = page.get_by_label("Link to pass on")
    url = link.input_value()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/invitations/[\w-]+/", url), url
    page.get_by_role("button", name="Copy", exact=True).click()
    page.get_by_role("status").filter(has_text="Copied.").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == url
    page.screenshot(path=str(artifacts_dir / "waiting-page-link.png"), full_page=True)

    # someone without an account opens the link on their phone
    guest = visitors(PHONE)
    g = guest.page
    g.goto(url)
    g.wait_for_url(re.compile(r".*/accounts/login/\?next=.*"))
    g.get_by_role("link", name="Create an account").click()
    g.get_by_label("Username").fill("eve")
    g.get_by_label("Email").fill("eve@example.org")
    g.get_by_label("Password", exact=True).fill("sea-holly-77")
    g.get_by_label("Password confirmation").fill("sea-holly-77")
    g.get_by_role("button", name="Sign up").click()
    g.wait_for_url(url)  # back on the invitation, signed in
    assert "ann invites you" in g.locator("main").inner_text()
    g.get_by_role("button", name="Take the seat").click()
    g.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert "You have a seat in this game." in g.locator(".messages").inner_text()
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert sorted(s.user.username for s in game.seats.all()) == ["ann", "eve"]


def test_the_headers_sign_up_button_keeps_the_invitation(site_here, visitors, live_server):
    ann = make_user("ann")
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    host = visitors(DESKTOP)
    host.sign_in("ann")
    host.page.goto(f"{live_server.url}/games/{game.pk}/")
    host.page.get_by_role("button", name="Make a link to pass on").click()
    host.page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    url = host.page.get_by_label("Link to pass on").input_value()

    g = visitors(DESKTOP).page
    g.goto(url)
    g.wait_for_url(re.compile(r".*/accounts/login/\?next=.*"))
    # the header's button, not the form's link
    g.get_by_role("banner").get_by_role("link", name="Sign up").click()
    g.get_by_label("Username").fill("eve")
    g.get_by_label("Email").fill("eve@example.org")
    g.get_by_label("Password", exact=True).fill("sea-holly-77")
    g.get_by_label("Password confirmation").fill("sea-holly-77")
    g.get_by_role("button", name="Sign up").click()
    g.wait_for_url(url)  # back on the invitation, signed in
    assert "ann invites you" in g.locator("main").inner_text()


def test_every_account_page_is_in_the_menu_and_a_reset_mail_sets_a_new_password(
        site_here, visitors, live_server, artifacts_dir):
    make_user("ann")
    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    menu = page.locator("#account-menu")

    def open_item(name: str) -> None:
        menu.locator("summary").click()
        menu.get_by_role("link", name=name, exact=True).click()

    open_item("Mail settings")
    page.wait_for_url(f"{live_server.url}/settings/notifications/")
    expect_heading(page, "Mail")
    open_item("Vacation")
    page.wait_for_url(f"{live_server.url}/settings/notifications/#vacation")
    assert page.locator("#vacation").get_by_role("heading", name="Vacation").is_visible()
    assert not menu.get_by_role("link", name="Vacation").is_visible()  # chosen: closed

    open_item("Change email")
    expect_heading(page, "Change email")
    page.get_by_label("New email address").fill("ann@new.example")
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Change email").click()
    expect(page.locator(".messages")).to_contain_text("Your mail now goes to ann@new.example.")

    open_item("Change password")
    expect_heading(page, "Change password")
    page.get_by_label("Old password").fill(PASSWORD)
    page.get_by_label("New password", exact=True).fill("sea-holly-77")
    page.get_by_label("New password confirmation").fill("sea-holly-77")
    page.get_by_role("button", name="Change password").click()
    expect_heading(page, "Password changed")

    # the menu closes on Escape and on a click elsewhere
    menu.locator("summary").click()
    assert menu.get_by_role("link", name="Vacation").is_visible()
    page.screenshot(path=str(artifacts_dir / "account-menu.png"))
    page.keyboard.press("Escape")
    assert not menu.get_by_role("link", name="Vacation").is_visible()
    menu.locator("summary").click()
    page.get_by_role("heading", level=1).click()
    assert not menu.get_by_role("link", name="Vacation").is_visible()

    mail.outbox.clear()
    open_item("Reset password by mail")
    expect_heading(page, "Reset your password")
    page.get_by_label("Email").fill("ann@new.example")
    page.get_by_role("button", name="Mail me a link").click()
    expect_heading(page, "Check your mail")
    [sent] = mail.outbox
    assert sent.to == ["ann@new.example"]
    link = re.search(rf"{re.escape(live_server.url)}/accounts/password/reset/\S+/", sent.body)
    assert link, sent.body

    menu.locator("summary").click()
    menu.get_by_role("button", name="Sign out").click()
    page.goto(link.group(0))
    expect_heading(page, "Set a new password")
    page.get_by_label("New password", exact=True).fill("marram-grass-9")
    page.get_by_label("New password confirmation").fill("marram-grass-9")
    page.get_by_role("button", name="Set my password").click()
    expect_heading(page, "Your password is set")
    page.get_by_role("main").get_by_role("link", name="Sign in").click()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill("marram-grass-9")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_server.url}/games/")
    expect(menu.locator("summary")).to_have_accessible_name("Account menu for ann")


def test_resigning_from_a_two_player_game_is_asked_and_ends_it(visitors, live_server,
                                                               artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    with dealt_from(SEED):  # ann moves first
        game = services.game_create(user=ann, variant="classic", length="long", seats=2,
                                    days_per_move=3)
        services.game_join(game=game, user=bob)
    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    clock = page.locator("#players .clock")
    assert clock.inner_text() == ("6 days left on the clock. Each turn played in time adds "
                                  "3 days, up to 9 days.")

    page.get_by_text("Resign from this game").click()
    resign = page.locator("details.resign")
    assert "If you resign, the game ends now and bob wins." in resign.inner_text()
    assert "play on" not in page.locator("main").inner_text()
    resign.get_by_role("link", name="Resign…").click()
    expect_heading(page, f"Resign from game {game.pk}?")
    page.get_by_role("link", name="Keep playing").click()
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING

    page.goto(f"{live_server.url}/games/{game.pk}/resign/")
    page.screenshot(path=str(artifacts_dir / "resign-confirmation.png"))
    page.get_by_role("button", name="Resign and end the game").click()
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    assert page.locator(".messages").inner_text() == \
        "You resigned: the game is over and bob wins."
    assert "Game over: bob wins" in page.locator("#turn-status").inner_text()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
