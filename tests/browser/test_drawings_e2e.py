"""The game page, in Chromium, draws a standard game's tiles from the table of
drawings its board and its hands name (ui/marram/static/marram/drawings.js), the same as the
engine draws them; and says so when it cannot load that table."""

from __future__ import annotations

import pytest

from engine.marram.view import face_view, tile_view
from games.selectors import game_state_get
from tests.browser.conftest import DESKTOP
from tests.browser.test_guess_and_pass_e2e import open_game
from tests.service.conftest import make_user, play, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def test_every_tile_of_a_standard_game_is_drawn_as_the_engine_draws_it(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = play(start_game([ann, bob], variant="animals", seed="d7a3" * 16),
                until=lambda state: len(state.board) >= 12)
    state = game_state_get(game)
    page = open_game(visitors, live_server, game, "ann").page
    drawn = page.evaluate("() => window.marramGame.page.state.board")
    assert len(drawn) == len(state.board) >= 12
    for tile in drawn:
        at = tuple(tile["at"])
        full = tile_view(state, at, state.board[at])
        assert {k: tile[k] for k in ("terrain", "regions", "items", "beasts")} == {
            k: full[k] for k in ("terrain", "regions", "items", "beasts")}, at
    assert page.locator("svg#board g.tile").count() == len(state.board)
    # and each face of each tile in hand, as printed
    hands = page.evaluate("() => window.marramGame.page.state.hand_tiles")
    assert set(hands) == {t for hand in state.hands for t in hand}
    for tile_id, faces in hands.items():
        for face, shown in faces.items():
            full = face_view(state.config.catalogue[tile_id], face)
            assert {k: shown[k] for k in ("terrain", "regions", "items", "beasts", "spade")} \
                == {k: full[k] for k in ("terrain", "regions", "items", "beasts", "spade")}
    mine = state.hands[page.evaluate("() => window.marramGame.page.you")]
    assert page.locator("ul.hand li.hand-tile").count() == len(mine) > 0
    assert page.locator("ul.hand svg").count() == 2 * len(mine)


def test_a_page_that_cannot_load_the_drawings_says_so(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    v = visitors(DESKTOP)
    v.sign_in("ann")
    v.expect_refusal(503, "/tables/drawings/")
    v.page.route("**/api/games/kinds/marram/tables/drawings/",
                 lambda route: route.fulfill(status=503, body="{}"))
    v.page.goto(f"{live_server.url}/games/{game.pk}/")
    v.page.wait_for_function(
        "() => document.getElementById('turn-status').textContent.includes('drawings')")
    assert "reload the page" in v.page.locator("#turn-status").text_content()
    assert v.page.locator("svg#board g.tile").count() == 0
    # the page's script stops there, with the refusal as its error: nothing else failed
    assert v.errors == ["the tiles' drawings: the server answered 503"]
    v.errors.clear()
