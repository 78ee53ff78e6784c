"""Every page under the Content-Security-Policy, in Chromium: each answer carries
the policy, and the pages work without one violation (the visitors report any
``securitypolicyviolation`` event and console error, see conftest.CSP_VIOLATIONS):
home, sign-in and sign-up, the lobby, my games, finished games, a game, its
replay, the mail page, the mail settings, the API docs and the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game
from tests.browser.conftest import DESKTOP, PASSWORD
from tests.service.conftest import make_user, play, start_game
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "c5b0" * 16


def visit(visitor: Any, path: str, ready: str | None = None) -> Any:
    """Open a page, check its policy, and wait until its scripts have drawn it."""
    response = visitor.page.goto(f"{visitor.base}{path}")
    assert response.ok, (path, response.status)
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy, policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    if ready:
        visitor.page.wait_for_selector(ready)
    visitor.page.wait_for_load_state("load")
    return response


@pytest.fixture
def eager(settings):
    with eager_tasks(settings):  # the mail of a move lands on the mail page
        yield


def test_every_page_keeps_to_the_content_security_policy(eager, visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    running = play(start_game([ann, bob], variant="animals", seed=SEED),
                   until=lambda state: state.events >= 8)
    over = start_game([ann, bob])
    services.game_resign(game=over, user=bob)
    services.game_create(user=bob, variant="classic", length="short", seats=3)
    assert Game.objects.get(pk=over.pk).status == Game.Status.FINISHED

    v = visitors(DESKTOP)
    for path in ("/", "/accounts/login/", "/accounts/signup/"):
        visit(v, path)
    v.sign_in("ann")
    visit(v, "/")
    visit(v, "/lobby/", "[data-game]")
    visit(v, "/games/", "[data-game]")
    visit(v, "/games/finished/", "[data-game]")
    visit(v, f"/games/{running.pk}/", "#game[data-ready=true] svg#board g.tile")
    v.page.click("#zoom-in")  # the board's own styles, set by its script
    visit(v, f"/games/{running.pk}/replay/", "#replay[data-ready=true]")
    visit(v, f"/games/{over.pk}/replay/", "#replay[data-ready=true]")
    visit(v, "/mail/", "article.mail img")
    # the pictures load as they come into view: all of them, now
    v.page.evaluate("() => { for (const i of document.images) i.loading = 'eager'; }")
    v.page.wait_for_function("() => [...document.images].every(i => i.complete && "
                             "i.naturalWidth > 0)")
    visit(v, "/settings/notifications/")
    # Swagger UI: its bundle and start-up script from the site; one operation opened
    visit(v, "/api/docs/", ".swagger-ui .opblock")
    v.page.locator(".opblock-summary").first.click()
    v.page.wait_for_selector(".opblock-body")
    assert not v.errors, v.errors

    get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    admin = visitors(DESKTOP)
    visit(admin, "/admin/login/")
    admin.page.fill("#id_username", "root")
    admin.page.fill("#id_password", PASSWORD)
    admin.page.click("input[type=submit]")
    admin.page.wait_for_url(f"{admin.base}/admin/")
    visit(admin, "/admin/")
    visit(admin, "/admin/games/game/")
    visit(admin, f"/admin/games/game/{running.pk}/change/")
    visit(admin, f"/admin/games/game/{running.pk}/replay/", "#replay[data-ready=true]")
    visit(admin, "/admin/games/event/")
    assert not admin.errors, admin.errors


def test_what_the_policy_refuses_is_reported(visitors, live_server):
    """The check above can fail: an inline script and an image from elsewhere, put
    in a page, are refused and reported."""
    v = visitors(DESKTOP)
    visit(v, "/")
    v.page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "document.body.dataset.ran = 'yes'";
        document.body.append(script);
        const img = document.createElement("img");
        img.src = "https://example.org/tracker.png";
        document.body.append(img);
        const styled = document.createElement("p");
        styled.setAttribute("style", "color: red");
        document.body.append(styled);
    }""")
    v.page.wait_for_function("() => window.cspViolations.length >= 3")
    assert v.page.evaluate("() => document.body.dataset.ran") is None
    reported = [e for e in v.errors if e.startswith("CSP violation")]
    assert any("script-src" in e and "inline" in e for e in reported), v.errors
    assert any("img-src" in e and "example.org" in e for e in reported), v.errors
    assert any("style-src" in e for e in reported), v.errors
    v.errors.clear()  # provoked on purpose
