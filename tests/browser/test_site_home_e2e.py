"""A new player's view of the site: the home page shows every game side by side,
each drawn by its own board renderer from a real position, with a line on what
it is, how many play it and its rules; the rules index lists them; and "Play
against the computer" takes the chosen game's options and any computer players.
At a desktop's width and a phone's."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from engine import registry
from games.game_ui import ui_for
from games.models import Game
from games.pages.reads import players_words
from tests.service.conftest import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]

DRAWN = {
    # what each game's own renderer draws of its position, counted from the position
    "marram": ("svg.marram-picture g.tile", lambda p: len(p["board"])),
    "pond": (".pond-svg g.cell", lambda p: p["view"]["size"] ** 2),
    "make_a_snake": (".snake-panel svg.snake-svg", lambda p: len(p["players"])),
    "animals_on_board": (".aob-group", lambda p: len(p["view"]["middle"])),
}


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return page.eval_on_selector_all(selector, """els => els.map(e => {
        const r = e.getBoundingClientRect();
        return {x: r.x, y: r.y, right: r.right, bottom: r.bottom, width: r.width};
    })""")


def no_sideways_scroll(page: Any) -> None:
    wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page is {wide[0]}px wide in a {wide[1]}px window"


@pytest.mark.parametrize("viewport", WIDTHS)
def test_the_home_page_shows_every_game_drawn_by_its_own_renderer(
        visitors, live_server, artifacts_dir, viewport):
    page = visitors(viewport).page
    page.goto(f"{live_server.url}/")
    games = registry.games()
    assert len(games) == 4
    cards = page.locator(".showcase-card")
    assert cards.count() == len(games)
    page.wait_for_function("n => document.querySelectorAll('.showcase-picture[data-ready=true]')"
                           ".length === n", arg=len(games))
    for rules, card in zip(games, cards.all(), strict=True):
        ui = ui_for(rules.key)
        assert card.get_attribute("data-game") == rules.key
        assert card.locator(":scope > h2").inner_text() == rules.title
        assert card.locator(".showcase-line").inner_text() == ui.tagline != ""
        assert card.locator(".showcase-players").inner_text() == players_words(rules.seat_counts)
        link = card.get_by_role("link", name=f"The rules of {rules.title}")
        assert link.get_attribute("href") == f"/rules/{rules.key}/"
        selector, count = DRAWN[rules.key]
        drawn = card.locator(f".showcase-picture {selector}")
        assert drawn.count() == count(ui.home_picture()) > 0, rules.key
        picture = card.locator(".showcase-picture").bounding_box()
        assert picture["height"] > 60 and picture["width"] > 150, (rules.key, picture)
    placed = boxes(page, ".showcase-card")
    if viewport is DESKTOP:
        # side by side: one row, left to right, none over another
        assert len({round(b["y"]) for b in placed}) == 1, placed
        assert all(a["right"] <= b["x"] for a, b in pairwise(placed)), placed
    else:
        # one under another, the whole width
        assert len({round(b["x"]) for b in placed}) == 1, placed
        assert all(a["bottom"] <= b["y"] for a, b in pairwise(placed)), placed
    for picture, card in zip(boxes(page, ".showcase-picture"), placed, strict=True):
        assert card["x"] <= picture["x"] and picture["right"] <= card["right"] + 0.5
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts_dir / "home.png"), full_page=True)

    page.get_by_role("link", name="Every game's rules").click()
    page.wait_for_url(f"{live_server.url}/rules/")
    assert page.locator("h1").inner_text() == "The rules"
    listed = page.locator("main .rules-index")
    for rules in games:
        assert listed.get_by_role("link", name=rules.title, exact=True).get_attribute(
            "href") == f"/rules/{rules.key}/"
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts_dir / "rules-index.png"), full_page=True)
    listed.get_by_role("link", name="Pond", exact=True).click()
    page.wait_for_url(f"{live_server.url}/rules/pond/")
    assert page.locator("h1").inner_text() == "How to play Pond"


def visible_fields(page: Any) -> list[str]:
    """The labels of the play-against-the-computer form's fields a person sees."""
    return page.eval_on_selector_all(
        "form.play-computer .field", """els => els.filter(e => e.offsetParent !== null)
        .map(e => (e.querySelector('legend, label') || e).textContent.trim())""")


@pytest.mark.parametrize("viewport", WIDTHS)
def test_play_against_the_computer_with_the_games_options_and_several_computers(
        visitors, live_server, artifacts_dir, viewport):
    make_user("ann")
    visitor = visitors(viewport)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/")
    form = page.locator("form.play-computer")
    game = form.get_by_label("Game", exact=True)
    # Marram, the first game: its own options, read from what the engine declares
    marram = registry.get("marram")
    assert game.input_value() == "marram"
    assert visible_fields(page) == ["Game", *(o.label for o in marram.options_declared),
                                    "Computer player 1", "Computer player 2",
                                    "Computer player 3", "Rated"]
    # Pond: its options only, and one computer player (it is played by two)
    game.select_option("pond")
    pond = registry.get("pond")
    assert visible_fields(page) == ["Game", *(o.label for o in pond.options_declared),
                                    "Computer player 1", "Rated"]
    # Make-a-snake against two computers of different levels, in its lollipop hunt
    game.select_option("make_a_snake")
    snake = registry.get("make_a_snake")
    assert visible_fields(page) == ["Game", *(o.label for o in snake.options_declared),
                                    "Computer player 1", "Computer player 2",
                                    "Computer player 3", "Rated"]
    mode = next(o for o in snake.options_declared if o.name == "mode")
    lollipop = next(c for c in mode.choices if c.value == "lollipop")
    form.locator('[data-games="make_a_snake"]').get_by_label(lollipop.label).check()
    form.get_by_label("Computer player 1").select_option("easy")
    form.get_by_label("Computer player 2").select_option("strong")
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts_dir / "play-the-computer.png"), full_page=True)
    form.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(f"{live_server.url}/games/*/")
    created = Game.objects.get()
    assert created.game == "make_a_snake" and created.status == "running"
    assert created.options["mode"] == "lollipop"
    seated = sorted(s.user.get_username() for s in created.seats.all())
    assert len(seated) == 3 and "ann" in seated
    assert any("computer, easy" in name for name in seated)
    assert any("computer, strong" in name for name in seated)
    assert "has started" in page.locator(".messages").inner_text()
