"""The platform's pages speak of no one game: each game's words and styles are its
own (ui/<key>/, engine/<key>/) and the platform asks the game for them. A list
names the chance a game waits for in the game's words; the mail settings and
the mail page's reply give the notation of the game answered, or of each game;
the API's documentation lists every game's actions with examples from its legal
actions; Marram's game page is drawn by Marram's own style sheets, which no other
game's page loads."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import registry
from games.game_ui import ui_for
from games.schema import action_examples
from notifications.models import Notification
from tests.service.conftest import make_user, start_game, start_game_of
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]

SEED = "5eed" * 16


def signed_in(visitors: Any, username: str, viewport: dict[str, int] = DESKTOP) -> Any:
    visitor = visitors(viewport)
    visitor.sign_in(username)
    return visitor.page


def test_my_games_names_the_chance_a_game_waits_for(visitors, live_server, settings):
    settings.MARRAM_DRAW_INLINE = False  # the roll waits for its task, which no worker runs
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of("make_a_snake", [ann, bob], seed=SEED)
    assert game.projection["awaiting"] == {"kind": "chance", "what": "the roll of the die"}
    page = signed_in(visitors, "ann")
    page.goto(f"{live_server.url}/games/")
    card = page.locator(f'.game-card[data-game="{game.pk}"]')
    assert "Waiting for the roll of the die" in card.inner_text()
    assert "fly" not in card.inner_text() and "frog" not in card.inner_text()


def notations(page: Any) -> dict[str, list[str]]:
    return page.eval_on_selector_all("#moves-by-mail .notations li", """els =>
        Object.fromEntries(els.map(e => [e.dataset.game,
            [...e.querySelectorAll('code')].map(c => c.textContent)]))""")


@pytest.mark.parametrize("viewport", WIDTHS)
def test_the_mail_settings_give_each_games_notation(visitors, live_server, viewport,
                                                    artifacts_dir):
    make_user("ann")
    page = signed_in(visitors, "ann", viewport)
    page.goto(f"{live_server.url}/settings/notifications/")
    shown = notations(page)
    assert shown == {g.key: list(ui_for(g.key).notation) for g in registry.games()}
    for game in registry.games():  # each a move the game's notation reads
        for line in shown[game.key]:
            assert game.parse_action(line, 0)["type"]
    page.locator("#moves-by-mail").screenshot(path=str(artifacts_dir / "notation.png"))


def test_the_reply_page_gives_the_notation_of_the_game_answered(visitors, live_server,
                                                                settings):
    ann, bob = make_user("ann"), make_user("bob")
    with eager_tasks(settings):  # the turn mail delivered as ./dev run delivers it
        game = start_game_of("pond", [ann, bob], seed=SEED)
    turn = Notification.objects.get(user=ann, game=game, kind="your_turn")
    page = signed_in(visitors, "ann")
    page.goto(f"{live_server.url}/mail/{turn.pk}/reply/")
    assert notations(page) == {"pond": list(ui_for("pond").notation)}
    words = page.locator("#moves-by-mail").inner_text()
    assert "in the notation of Pond" in words and "place" not in words


def test_the_api_docs_list_every_games_actions_with_examples(visitors, live_server,
                                                             artifacts_dir):
    page = visitors(DESKTOP).page
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".info .description")
    description = page.locator(".info .description").inner_text()
    assert "Play Marram" not in description
    for game in registry.games():
        assert f"{game.title} ({game.key})" in description
        examples = action_examples(game.key)
        assert examples, game.key
        for kind, action in examples.items():
            assert action["type"] == kind
            assert json.dumps(action) in description
    page.locator(".info").screenshot(path=str(artifacts_dir / "api-docs-games.png"))


def stylesheets(page: Any) -> list[str]:
    return page.eval_on_selector_all("link[rel=stylesheet]", "els => els.map(e => "
                                     "new URL(e.href).pathname)")


@pytest.mark.parametrize("viewport", WIDTHS)
def test_marrams_page_is_drawn_by_its_own_style_sheets(visitors, live_server, viewport,
                                                       artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=SEED)
    page = signed_in(visitors, "ann", viewport)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    sheets = stylesheets(page)
    assert "/static/marram/panels.css" in sheets
    # the hand's faces, the board's height: Marram's own rules
    faces = page.locator(".hand-tile .face-button svg.marram-tile").first.bounding_box()
    board = page.locator("svg.marram-board").first.bounding_box()
    if viewport is DESKTOP:
        assert faces["width"] == 76 and board["height"] == 800 - 190
    else:
        assert faces["width"] == 60 and board["height"] == pytest.approx(0.42 * 844, abs=1)
    page.screenshot(path=str(artifacts_dir / "marram-page.png"))
    # the platform's style sheets hold none of it
    for sheet in ("/static/games/site.css", "/static/games/panels.css"):
        text = page.evaluate("url => fetch(url).then(r => r.text())", sheet)
        assert "marram" not in text.lower(), sheet
        for marram_only in (".hand-tile", ".claim-button", ".score-log", ".hand-mini",
                            ".creatures-list", ".guess-form", ".rules-table", ".move-overlay"):
            assert marram_only not in text, (sheet, marram_only)
    # another game's page loads none of Marram's
    pond = start_game_of("pond", [ann, bob], seed=SEED)
    page.goto(f"{live_server.url}/games/{pond.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    assert not [s for s in stylesheets(page) if s.startswith("/static/marram/")]
