"""The site has a name of its own (MARRAM_SITE_NAME, ``marram`` by default): the
header, the footer and every page's title go by it, and a game's page is titled
by its game ("Pond, game 12 · marram"), never by another game's name."""

from __future__ import annotations

from typing import Any

import pytest

from tests.service.conftest import make_user, start_game_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]

SEED = "5eed" * 16


def titles(page: Any, base: str, paths: dict[str, str]) -> dict[str, str]:
    seen = {}
    for path in paths:
        page.goto(f"{base}{path}")
        seen[path] = page.title()
    return seen


@pytest.mark.parametrize("viewport", WIDTHS)
def test_pages_go_by_the_sites_name_and_a_game_by_its_own(visitors, live_server, viewport,
                                                          artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    pond = start_game_of("pond", [ann, bob], seed=SEED)
    visitor = visitors(viewport)
    visitor.sign_in("ann")
    page = visitor.page
    assert titles(page, live_server.url, {
        "/": "", "/lobby/": "", f"/games/{pond.pk}/": "", f"/games/{pond.pk}/replay/": "",
        "/rules/pond/": "", "/games/": "", "/leaderboards/": ""}) == {
        "/": "Board games by correspondence · marram",
        "/lobby/": "Lobby · marram",
        f"/games/{pond.pk}/": f"Pond, game {pond.pk} · marram",
        f"/games/{pond.pk}/replay/": f"Replay of Pond, game {pond.pk} · marram",
        "/rules/pond/": "The rules of Pond · marram",
        "/games/": "My games · marram",
        "/leaderboards/": "Leaderboards · marram",
    }
    assert "Marram" not in page.locator(".site-header").inner_text()
    assert page.locator(".brand").inner_text() == "marram"


@pytest.mark.parametrize("viewport", WIDTHS)
def test_an_operator_names_the_site(visitors, live_server, settings, viewport, artifacts_dir):
    settings.MARRAM_SITE_NAME = "The Riverside Games Club"
    ann, bob = make_user("ann"), make_user("bob")
    pond = start_game_of("pond", [ann, bob], seed=SEED)
    visitor = visitors(viewport)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/games/{pond.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    assert page.title() == f"Pond, game {pond.pk} · The Riverside Games Club"
    assert page.locator(".brand").inner_text() == "The Riverside Games Club"
    assert "The Riverside Games Club" in page.locator(".site-footer").inner_text()
    page.screenshot(path=str(artifacts_dir / "game-page.png"))
    # the longer name fits the header at every width
    header = page.locator(".site-header").bounding_box()
    brand = page.locator(".brand").bounding_box()
    assert brand["x"] + brand["width"] <= header["width"]
    wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], wide
