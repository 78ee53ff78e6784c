"""The lobby's "Start a game" offers only the chosen game's options and its seat
counts, read by the page's script from what the server marked (no rule in the
script); without the script the whole form shows and the server refuses what
does not fit, saying why. A game started with invitations says how many were
sent. At a desktop's width and a phone's."""

from __future__ import annotations

from typing import Any

import pytest

from engine import registry
from games.models import Game, Invitation
from tests.browser.conftest import CSP_VIOLATIONS, PASSWORD
from tests.service.conftest import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


def offered(page: Any) -> tuple[list[str], list[str]]:
    """The option fields (their legends) and the seat counts a person sees."""
    form = "form[data-game-form]"
    options = page.eval_on_selector_all(
        f"{form} .field[data-games]", """els => els.filter(e => e.offsetParent !== null)
        .map(e => e.querySelector('legend, label').textContent.trim())""")
    seats = page.eval_on_selector_all(
        f"{form} input[name=seats]", """els => els.filter(e => e.offsetParent !== null)
        .map(e => e.value)""")
    return options, seats


def declared(key: str) -> tuple[list[str], list[str]]:
    rules = registry.get(key)
    return [o.label for o in rules.options_declared], [str(n) for n in rules.seat_counts]


@pytest.mark.parametrize("viewport", WIDTHS)
def test_the_lobby_offers_the_chosen_games_options_and_seats(visitors, live_server, viewport,
                                                             artifacts_dir):
    make_user("ann")
    visitor = visitors(viewport)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/lobby/")
    form = page.locator("form[data-game-form]")
    assert offered(page) == declared("marram")  # the first game, chosen by default
    for key in ("pond", "make_a_snake", "animals_on_board", "marram"):
        form.get_by_label(registry.get(key).title, exact=True).check()
        assert offered(page) == declared(key), key
    # Pond: 2 players only, its own option; the seat count 4 chosen for Marram goes
    players = form.get_by_role("group", name="Players")
    players.get_by_label("4", exact=True).check()
    form.get_by_label("Pond", exact=True).check()
    assert form.locator("input[name=seats]:checked").input_value() == "2"
    form.get_by_label("Invite by email").fill("bob@example.org")
    wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], wide
    page.screenshot(path=str(artifacts_dir / "lobby-pond.png"), full_page=True)
    form.get_by_role("button", name="Create the game").click()
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    assert (game.game, game.seat_count) == ("pond", 2)
    assert Invitation.objects.filter(game=game).count() == 1
    said = page.locator(".messages").inner_text()
    assert f"Game {game.pk} is open; 1 invitation sent." in said and "invited" not in said


def test_without_its_script_the_lobby_shows_everything_and_the_server_says_what_does_not_fit(
        chromium, live_server, artifacts_dir):
    make_user("ann")
    context = chromium.new_context(viewport=DESKTOP, java_script_enabled=False)
    context.add_init_script(CSP_VIOLATIONS)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill("ann")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{live_server.url}/games/")
        page.goto(f"{live_server.url}/lobby/")
        form = page.locator("form[data-game-form]")
        # every game's options and every seat count
        legends = form.locator(".field[data-games] legend").all_inner_texts()
        assert legends == [o.label for g in registry.games() for o in g.options_declared]
        assert form.get_by_label("3", exact=True).is_visible()
        form.get_by_label("Pond", exact=True).check()
        form.get_by_label("3", exact=True).check()
        form.get_by_role("button", name="Create the game").click()
        page.wait_for_load_state()
        assert "Pond is for 2 players, not 3" in page.locator(".form-errors").inner_text()
        page.screenshot(path=str(artifacts_dir / "lobby-refused.png"), full_page=True)
        assert not Game.objects.exists()
    finally:
        context.close()
