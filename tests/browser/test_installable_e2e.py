"""The site as an app a phone installs, in Chromium: its installability check
finds nothing wrong (manifest, icons, service worker; localhost is a secure
context); the service worker installs, keeps the static files in a cache named
by their version and nothing else, and with the network off shows the offline
page in place of any page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from marram_site import webapp
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, Visitor
from tests.service.conftest import make_user, start_game_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "0ff1" * 16

CONTROLLED = "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
CACHED = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    kept[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
  }
  return kept;
}"""


def only_static(paths: list[str]) -> bool:
    """The static files, the icons and the offline page: what anyone may see."""
    return all(p.startswith(("/static/", "/icons/")) or p == "/offline/" for p in paths)


@pytest.fixture
def profile_visitor(chromium, live_server, tmp_path) -> Iterator[Visitor]:
    """A visitor in a browser profile of its own: Chromium installs no app from an
    incognito context, which is what a test's new context is."""
    context = chromium.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
        viewport=PHONE, device_scale_factor=1)
    visitor = Visitor(chromium, live_server.url, PHONE, context=context)
    yield visitor
    visitor.close()


def controlled(page: Any) -> None:
    """Wait until the service worker is active and serves this page (it claims
    the pages open when it activates)."""
    page.wait_for_function(
        "() => navigator.serviceWorker.controller && "
        "navigator.serviceWorker.controller.state === 'activated'")


def test_chromium_judges_the_site_installable(profile_visitor, live_server):
    visitor = profile_visitor
    page = visitor.page
    page.goto(f"{live_server.url}/")
    controlled(page)
    cdp = visitor.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}


def test_offline_the_app_shows_the_offline_page_and_no_one_elses_game(visitors, live_server,
                                                                     artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of("pond", [ann, bob], seed=SEED)
    visitor = visitors(PHONE)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    controlled(page)
    page.reload()  # now through the worker: its static files from the cache
    page.wait_for_selector("#game[data-ready=true]")

    kept = page.evaluate(CACHED)
    assert list(kept) == [f"static-{webapp.static_version()}"], kept
    (paths,) = kept.values()
    assert "/offline/" in paths and "/static/games/site.css" in paths
    assert "/static/pond/game.js" in paths  # kept once a page asked for it
    assert only_static(paths), paths  # no page, no answer of the API

    visitor.context.set_offline(True)
    for path in (f"/games/{game.pk}/", "/games/", "/lobby/"):
        response = page.goto(f"{live_server.url}{path}")
        assert response.ok, path
        assert page.locator("h1").inner_text() == "You are offline", path
        assert "your games will be here when you are back" in page.inner_text("main").lower()
        assert page.url == f"{live_server.url}{path}"
        # the page is drawn with the site's style sheet, from the cache
        border = page.evaluate(
            "getComputedStyle(document.querySelector('.site-header')).borderBottomStyle")
        assert border == "solid", path
    assert "ann" not in page.content()
    page.screenshot(path=str(artifacts_dir / "offline_phone.png"))

    visitor.context.set_offline(False)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    assert all(only_static(paths) for paths in page.evaluate(CACHED).values())
