"""Make-a-snake's Up and Down, told apart: each thumbnail in the move panel
draws the taken tile where it would lie against the end of the snake, in one
frame for both, so that a tile whose two faces mirror each other (green-6, a
half circle) shows which way each turns; a tile that lies the same either way
(a straight one) says so; and the two labels on the table never cover each
other."""

from __future__ import annotations

from typing import Any

import pytest

from engine.make_a_snake import GAME
from games import services
from games.selectors import game_state_get
from tests.browser.conftest import DESKTOP
from tests.service.conftest import make_user, seat_user, start_game_of
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


@pytest.fixture
def eager(settings):
    with eager_tasks(settings):  # the die is rolled by the task, in-process
        yield


ACROSS = """(svg) => {
  const middle = (r) => (r.left + r.right) / 2;
  return middle(svg.querySelector('.thumb-tile').getBoundingClientRect())
    - middle(svg.querySelector('.thumb-joint').getBoundingClientRect());
}"""
"""How far right of the joint a thumbnail draws the tile, in pixels."""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def taken(page: Any, game: Any, colour: str, tile: str) -> None:
    """ann takes the top tile of ``colour`` (``tile``, as the seed dealt it)."""
    game.refresh_from_db()
    state = game_state_get(game)
    assert state.stacks[colour][state.drawn[colour]] == tile
    take = next(a for a in GAME.legal_actions(state, 0)
                if a["type"] == "take" and a["colour"] == colour)
    services.action_submit(game=game, user=seat_user(game, 0), action=take,
                           expected_seq=game.seq)
    page.goto(f"{page.url.split('/games/')[0]}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    page.wait_for_selector("#sides .side-button .tile-thumb")


@pytest.mark.parametrize("seed, colour, tile, alike", [
    pytest.param("02" * 32, "green", "green-6", False, id="a half circle: mirror images"),
    pytest.param("01" * 32, "red", "red-1", True, id="a straight tile: alike"),
])
def test_up_and_down_show_where_they_lie_and_their_labels_apart(
        eager, visitors, live_server, seed, colour, tile, alike, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of("make_a_snake", [ann, bob], seed=seed)
    visitor = visitors(DESKTOP)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    taken(page, game, colour, tile)
    page.screenshot(path=str(artifacts_dir / "sides.png"), full_page=True)
    thumbs = page.locator("#sides .tile-thumb")
    assert thumbs.count() == 2
    # where each thumbnail draws the tile, across from the joint with the snake
    up, down = (thumbs.nth(i).evaluate(ACROSS) for i in range(2))
    if alike:  # the same picture, and the panel says why
        assert up == pytest.approx(down, abs=0.5)
        assert thumbs.nth(0).screenshot() == thumbs.nth(1).screenshot()
        assert "lies the same way up or down" in page.locator("#sides").inner_text()
    else:  # each drawn against the snake's end: up turns one way, down the other
        assert up * down < 0 and abs(up) > 5 and abs(down) > 5, (up, down)
        assert "lies the same way" not in page.locator("#sides").inner_text()
    # one frame for both, and the piece the tile joins drawn in each
    assert thumbs.nth(0).get_attribute("viewBox") == thumbs.nth(1).get_attribute("viewBox")
    assert page.locator("#sides .tile-thumb .thumb-before").count() == 2
    # the table's two labels stand apart, whichever way the tile lies
    labels = page.locator("#snake-table .preview-label")
    assert labels.count() == 2
    assert sorted(labels.all_text_contents()) == ["down", "up"]
    assert not overlap(labels.nth(0).bounding_box(), labels.nth(1).bounding_box())
