"""The API's documentation page and the site's icon in Chromium, on a machine
without internet: Swagger UI comes from the site's own static files
(drf-spectacular-sidecar), asks nothing of another host, and lists the API's
operations; the admin, which links no icon, gets the site's from /favicon.ico."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import DESKTOP
from tests.service.conftest import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def elsewhere(visitor: Any, live_server: Any) -> list[str]:
    """The addresses of every request the visitor's pages make to another host
    (this machine has no internet: such a request would fail, and the page with it)."""
    here = urlsplit(live_server.url).netloc
    requests: list[str] = []
    visitor.context.on("request", lambda r: requests.append(r.url)
                       if urlsplit(r.url).scheme in ("http", "https", "ws", "wss")
                       and urlsplit(r.url).netloc != here else None)
    return requests


def icon_width(page: Any, href: str) -> int:
    """Load ``href`` as the page's own image; its width once decoded (headless
    Chromium does not fetch icons by itself)."""
    return page.evaluate("""href => new Promise((done, failed) => {
        const image = new Image();
        image.onload = () => done(image.naturalWidth);
        image.onerror = () => failed(new Error("no image at " + href));
        image.src = href;
    })""", href)


def test_the_docs_page_lists_the_operations_without_internet(visitors, live_server,
                                                             artifacts_dir):
    v = visitors(DESKTOP)
    refused = elsewhere(v, live_server)
    page = v.page
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".opblock")
    page.screenshot(path=str(artifacts_dir / "api-docs.png"), full_page=True)
    assert page.locator(".info .title").first.text_content().startswith("marram API")
    operations = {
        (block.locator(".opblock-summary-method").text_content(),
         block.locator(".opblock-summary-path").get_attribute("data-path"))
        for block in page.locator(".opblock").all()
    }
    assert {("POST", "/api/games/{game_id}/actions/"), ("GET", "/api/games/{game_id}/"),
            ("POST", "/api/auth/token/"), ("GET", "/api/games/")} <= operations, operations
    assert len(operations) >= 15
    # an operation opens on its parameters and answers
    page.locator(".opblock-post", has_text="/api/games/{game_id}/actions/").first \
        .locator(".opblock-summary-control").click()
    page.wait_for_selector(".opblock.is-open .responses-table")
    icon = page.locator("link[rel~=icon]").first.get_attribute("href")
    assert icon == "/favicon.ico" and icon_width(page, icon) >= 16
    assert refused == []
    scripts = [s.get_attribute("src") for s in page.locator("script[src]").all()]
    # Swagger UI from the sidecar; its start-up script from the docs view itself
    # (a file, not inline, for the Content-Security-Policy)
    assert any(s.startswith("/static/drf_spectacular_sidecar/") for s in scripts), scripts
    assert all(s.startswith("/static/drf_spectacular_sidecar/") or s == "/api/docs/?script="
               for s in scripts), scripts


def test_the_admin_shows_the_sites_icon(visitors, live_server):
    make_user("ann", staff=True)
    v = visitors(DESKTOP)
    refused = elsewhere(v, live_server)
    page = v.page
    page.goto(f"{live_server.url}/admin/login/")
    assert page.get_by_label("Username").count() == 1
    # no icon linked: browsers ask the site's root for /favicon.ico
    assert page.locator("link[rel~=icon]").count() == 0
    assert icon_width(page, "/favicon.ico") >= 16
    assert refused == []
