"""Animals on Board's tiles tell their animals apart at a glance: each tile
shows its animal drawn (the project's own drawings, species.json), its name and
its number in the species' own colour, and the tiles grow with the room the
table has: larger on a desktop, still within a phone's width."""

from __future__ import annotations

from typing import Any

import pytest

from engine.animals_on_board import GAME
from tests.browser.conftest import DESKTOP
from tests.service.aob_kit import start_animals, state_of, submit
from tests.service.conftest import make_user
from ui.animals_on_board.species import species

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param({"width": 390, "height": 844},
                                                               id="390"),
          pytest.param({"width": 360, "height": 780}, id="360")]


def tiles(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("""() => [...document.querySelectorAll('#aob-board .aob-tile')]
      .filter((t) => t.dataset.tile !== '?' && !t.querySelector('.aob-back'))
      .map((t) => {
        const svg = t.querySelector('svg');
        const box = svg.getBoundingClientRect();
        return {
          label: t.getAttribute('aria-label'),
          name: svg.querySelector('.aob-name')?.textContent ?? '',
          number: svg.querySelector('.aob-num')?.textContent ?? '',
          shapes: svg.querySelectorAll('.aob-animal > *').length,
          colours: [...new Set([...svg.querySelectorAll('.aob-animal > *')].map((s) =>
            (s.getAttribute('fill') === 'none' ? s.getAttribute('stroke')
              : s.getAttribute('fill'))))],
          width: box.width, height: box.height, right: box.right,
        };
      })""")


@pytest.mark.parametrize("viewport", WIDTHS)
def test_each_tile_shows_its_animal_its_name_and_grows_with_the_table(
        visitors, live_server, viewport, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_animals([ann, bob])
    for seat in (0, 1):  # both keep a tile: the others go face up into the middle
        submit(game, GAME.legal_actions(state_of(game), seat)[0])
    visitor = visitors(viewport)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    page.screenshot(path=str(artifacts_dir / "tiles.png"), full_page=True)
    seen = tiles(page)
    table = species()
    assert len(seen) >= 5
    for tile in seen:
        code = tile["label"].split("(")[-1].rstrip(")").split(")")[0]
        kind = table[code[0]]
        # the animal's name on the tile itself, not only in a tooltip, and its drawing
        assert tile["name"] == kind["name"] and tile["number"] == code[1:], tile
        assert tile["shapes"] == len(kind["drawing"]) >= 5, tile
        # in the species' own colour, with ink and paper for the eyes and such
        assert set(tile["colours"]) - {"#2b2b2b", "#fff"} == {kind["color"]}, tile
        assert tile["right"] <= viewport["width"]
        assert tile["height"] == pytest.approx(tile["width"] * 88 / 64, abs=1)
    if viewport is DESKTOP or viewport["width"] >= 1000:
        # room to spare on a desktop: the tiles are larger than a phone's
        assert min(t["width"] for t in seen) >= 70, seen
    else:
        assert min(t["width"] for t in seen) >= 56, seen
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
