"""Nothing scrolls sideways on a phone: at 360 and 390 px every page a player
reaches, in each of the four games (home, lobby, the game's rules, a running
game, a finished game with its standings, its replay, my games, the finished
games, the leaderboards, a profile, the mail settings), is no wider than the
screen; and the header leaves the screen to the page, its links behind a menu
button that opens and closes them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import DESKTOP
from tests.service.conftest import make_user, start_game_of
from tests.service.endgame_kit import play_to_the_end
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "a5" * 32
GAMES = ("marram", "pond", "make_a_snake", "animals_on_board")
SHORT = {"marram": {"length": "short"}, "pond": {"options": "small"}}
"""Each game's quickest options, for the game played to its end."""

OVERFLOW = """() => {
  const past = (e) => e.getBoundingClientRect().right > window.innerWidth + 1;
  const scrolls = (e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX)
    && e.scrollWidth > e.clientWidth + 1;
  return {
    width: document.documentElement.scrollWidth,
    inner: [...document.querySelectorAll('body *')].filter(scrolls)
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className.baseVal ?? e.className}`
        + ` ${e.scrollWidth}/${e.clientWidth}`),
    past: [...document.querySelectorAll('body *')]
      .filter((e) => past(e) && !past(e.parentElement))
      .slice(0, 6)
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className.baseVal ?? e.className}`
        + ` ${Math.round(e.getBoundingClientRect().right)}`),
  };
}"""


@pytest.fixture
def eager(settings):
    with eager_tasks(settings):  # the die, the ratings at the end: in-process
        yield


def pages(key: str, running: int, finished: int) -> dict[str, str | None]:
    """Each page's path, and what shows that its scripts have drawn it."""
    return {
        "/": ".showcase [data-ready=true]",
        "/lobby/": None,
        f"/rules/{key}/": None,
        f"/games/{running}/": "#game[data-ready=true]",
        f"/games/{finished}/": "#final-standings:not([hidden])",
        f"/games/{finished}/replay/": "#replay[data-ready=true]",
        "/games/": None,
        "/games/finished/": None,
        "/leaderboards/": None,
        f"/leaderboards/{key}/": None,
        "/players/ann/": None,
        "/settings/notifications/": None,
    }


@pytest.mark.parametrize("key", GAMES)
@pytest.mark.parametrize("width", [360, 390])
def test_no_page_scrolls_sideways_on_a_phone(eager, visitors, live_server, key, width,
                                             artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    running = start_game_of(key, [ann, bob], seed=SEED)
    finished = play_to_the_end(start_game_of(key, [bob, ann], seed=SEED[::-1],
                                             options=SHORT.get(key)))
    visitor = visitors({"width": width, "height": 780})
    visitor.sign_in("ann")
    page = visitor.page
    measured: dict[str, Any] = {}
    for path, ready in pages(key, running.pk, finished.pk).items():
        response = page.goto(f"{live_server.url}{path}")
        assert response.ok, (path, response.status)
        if ready:
            page.wait_for_selector(ready)
        page.wait_for_load_state("load")
        seen = page.evaluate(OVERFLOW)
        fits = seen["width"] <= width and not seen["inner"]
        measured[path] = seen["width"] if fits else seen
        if not fits:
            name = path.strip("/").replace("/", "-") or "home"
            page.screenshot(path=str(artifacts_dir / f"wide-{width}-{key}-{name}.png"),
                            full_page=True)
    print(width, key, measured)
    assert {path: w for path, w in measured.items() if not isinstance(w, int)} == {}


@pytest.mark.parametrize("width", [360, 390])
def test_the_header_is_one_line_on_a_phone_its_links_behind_a_menu_button(
        visitors, live_server, width, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    start_game_of("marram", [ann, bob], seed=SEED)  # ann moves first: a game waits for her
    for signed_in in (False, True):
        visitor = visitors({"width": width, "height": 844})
        if signed_in:
            visitor.sign_in("ann")
        page = visitor.page
        page.goto(f"{live_server.url}/lobby/")
        assert page.locator(".site-header").bounding_box()["height"] <= 64
        toggle = page.locator("#nav-toggle")
        links = page.locator("#nav-links")
        assert toggle.is_visible() and links.is_hidden()
        assert toggle.get_attribute("aria-expanded") == "false"
        assert toggle.get_attribute("aria-controls") == "nav-links"
        assert page.get_by_role("button", name=re.compile("^Menu")).count() == 1
        if signed_in:  # the games waiting show on the button while the links are hidden
            assert toggle.locator(".badge").inner_text().startswith("1")
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "true" and links.is_visible()
        page.screenshot(path=str(artifacts_dir / f"menu-{width}-{signed_in}.png"))
        for link in links.locator("a").all():  # each a whole line, easy to tap
            box = link.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["height"] >= 40
        if signed_in:
            assert links.locator('a[aria-current="page"]').inner_text() == "Lobby"
        page.keyboard.press("Escape")
        assert links.is_hidden() and page.evaluate("document.activeElement.id") == "nav-toggle"
        toggle.click()
        page.locator(".site-footer").click()  # a click elsewhere closes it too
        assert links.is_hidden()
        toggle.click()
        links.get_by_role("link", name="Leaderboards").click()
        page.wait_for_url(re.compile("leaderboards"))  # signed out: by the sign-in page
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_without_script_the_links_show_whole_on_a_phone(chromium, live_server):
    context = chromium.new_context(viewport={"width": 360, "height": 844},
                                   java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/lobby/")
        assert page.locator("#nav-toggle").is_hidden()
        assert page.locator("#nav-links").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()


def test_on_a_desktop_the_links_show_and_a_long_title_wraps(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    # the longest words of options: the competitive mode with the advanced rules
    game = start_game_of("make_a_snake", [ann, bob], seed=SEED, options={"advanced": True})
    visitor = visitors(DESKTOP)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector("#replay[data-ready=true]")
    # the replay's title and Make-a-snake's many words of options, within the page
    kind = page.locator("h1 .game-kind").bounding_box()
    assert kind["x"] + kind["width"] <= DESKTOP["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    assert page.locator("#nav-toggle").is_hidden() and page.locator("#nav-links").is_visible()
