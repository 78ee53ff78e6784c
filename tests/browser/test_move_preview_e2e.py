"""Marram's game page draws a flip before it is confirmed from the server's
move_previews (no tile is turned over in the browser): the tile drawn in place
at the chosen rotation is the tile the board shows once the flip is made."""

from __future__ import annotations

from typing import Any

import pytest

from engine import marram as engine
from engine.marram.actions import flips, placements
from engine.marram.view import move_previews, tile_view
from games.selectors import game_state_get
from tests.browser.conftest import DESKTOP
from tests.service.conftest import make_user, play, seat_user, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def drawn(page: Any, at: list[int]) -> list[str]:
    """The drawing of the tile at ``at``: its terrain, beasts, items and spade."""
    return page.eval_on_selector_all(
        f'svg#board g.tile[data-x="{at[0]}"][data-y="{at[1]}"] :is(g.terrain, g.beasts, '
        "g.items, .spade)", "els => els.map(e => e.outerHTML)")


def test_the_flip_drawn_before_confirming_is_the_flip_made(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed="f1e0" * 16)

    def ann_may_flip(state) -> bool:
        wait = engine.awaiting(state)
        return (wait["kind"] == "move" and seat_user(game, wait["player"]) == ann
                and bool(flips(state, wait["player"]))
                and bool(placements(state, wait["player"])))

    game = play(game, until=ann_may_flip,
                choose=lambda actions: next(a for a in actions if a["type"] != "flip"))
    seat = next(s for s in (0, 1) if seat_user(game, s) == ann)
    state = game_state_get(game)
    previews = {tuple(f["at"]): f["rotations"] for f in move_previews(state, seat)["flip"]}
    laid = {pos: tile_view(state, pos, placed) for pos, placed in state.board.items()}

    def looks(tile: dict[str, Any]) -> list[Any]:
        return [tile["regions"], tile["items"], [b["sides"] for b in tile["beasts"]]]

    # a flip that changes how the tile looks (a flip fits the same neighbours, so
    # some look the same turned over)
    flip = next(f for f in flips(state, seat) if looks(previews[tuple(f["at"])][f["rotation"]])
                != looks(laid[tuple(f["at"])]))
    at = flip["at"]

    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    before = drawn(page, at)
    page.click('button[data-action="flip"]')
    page.click(f'svg#board g.highlight[data-x="{at[0]}"][data-y="{at[1]}"]')
    page.click(f'button.rotation-button[data-rotation="{flip["rotation"]}"]')
    page.wait_for_selector('button[data-claim="none"]')
    page.click('button[data-claim="none"]')
    preview = drawn(page, at)
    assert preview != before  # turned over: grass and sand swapped
    with page.expect_response(lambda r: "/actions/" in r.url and r.request.method == "POST"):
        page.click('button[data-action="confirm"]')
    page.wait_for_function("seq => window.marramGame.page.seq === seq",
                           arg=game.seq + 1, timeout=20_000)
    assert drawn(page, at) == preview
