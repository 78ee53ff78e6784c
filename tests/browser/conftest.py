"""Shared by the browser tests of the pages (test_play_e2e, test_replay_e2e):
Debian's Chromium driven by the Python ``playwright`` package against
pytest-django's live server, and signing in through the sign-in page."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
PASSWORD = "dune-grass-42"  # tests.service.conftest.make_user's
# In every page of every browser test: what the Content-Security-Policy blocks is
# reported as an error, and the test fails (Visitor.close).
CSP_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolations.push(e.violatedDirective);
  console.error(`CSP violation: ${e.violatedDirective} refused ${e.blockedURI || "inline"}`
                + ` in ${e.sourceFile || document.location.pathname}:${e.lineNumber}`);
});
"""


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    # Missing is a failure, not a skip: ./dev test and CI have both.
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: the browser tests drive Debian's chromium "
                    "package (apt-get install chromium)", pytrace=False)
    try:
        from playwright import sync_api
    except ImportError:
        pytest.fail("the playwright package is missing: ./dev test installs the dev "
                    "dependencies (pip install -e '.[dev]')", pytrace=False)
    # One per module: Playwright's sync API runs one at a time. It keeps an asyncio
    # loop running in this thread, which Django takes for an async context: the
    # tests' own database calls are sync.
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture
def cold_caches() -> Iterator[None]:
    """Game ids repeat across tests that flush the database: forget cached states
    (and the throttles' counts)."""
    from django.core.cache import cache

    from accounts.auth import CachedTokenAuthentication
    from live.state_cache import states

    states.clear()
    CachedTokenAuthentication.forget_all()
    cache.clear()
    yield
    states.clear()


class Visitor:
    """One person's browser context, with the page errors it collected."""

    def __init__(self, browser: Any, base: str, viewport: dict[str, int],
                 context: Any = None) -> None:
        self.base = base
        # a context of its own (a persistent one: not incognito), or a new one
        self.context = context or browser.new_context(viewport=viewport, device_scale_factor=1)
        self.context.set_default_timeout(15_000)
        self.context.add_init_script(CSP_VIOLATIONS)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.refusals: list[tuple[int, str]] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # failed loads are told by their responses below, with their address
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" and "Failed to load resource" not in m.text
                     else None)
        self.page.on("response", self._check_response)

    def expect_refusal(self, status: int, url_part: str) -> None:
        """An error answer the test provokes on purpose."""
        self.refusals.append((status, url_part))

    def _check_response(self, response: Any) -> None:
        if response.status < 400:
            return
        for expected in self.refusals:
            if expected[0] == response.status and expected[1] in response.url:
                self.refusals.remove(expected)
                return
        self.errors.append(f"{response.status} {response.url}")

    def sign_in(self, username: str) -> None:
        page = self.page
        page.goto(f"{self.base}/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{self.base}/games/")

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture
def visitors(chromium: Any, live_server: Any) -> Iterator[Any]:
    made: list[Visitor] = []

    def make(viewport: dict[str, int] = DESKTOP) -> Visitor:
        visitor = Visitor(chromium, live_server.url, viewport)
        made.append(visitor)
        return visitor

    yield make
    for visitor in made:
        visitor.close()
