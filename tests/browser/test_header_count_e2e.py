"""The header's count of the games waiting for the player, on every game's page:
when another player's move makes it the player's turn, the count on the "My
games" link and on the phone's Menu button follows at once (the shared client,
games/static/games/client.js, from the count the server gives with each state),
with no reload; and when the player's own move leaves it to the others, it drops."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from tests.browser.conftest import PHONE
from tests.service.conftest import make_user, start_game_of
from tests.service.endgame_kit import play_to_the_end
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "e7" * 32
ANN = 1  # ann's seat: bob sits first

COUNTS = """() => {
  const count = (badge) => badge ? badge.firstChild.textContent.trim() : null;
  const link = [...document.querySelectorAll('.site-header a')]
    .find((a) => a.getAttribute('href') === '/games/');
  return [count(link.querySelector('.badge')),
          count(document.querySelector('#nav-toggle .badge'))];
}"""


@pytest.fixture
def eager(settings):
    with eager_tasks(settings):  # chance draws in-process
        yield


def waits_for_ann(game: Game) -> bool:
    return ANN in (game.projection or {}).get("to_act", [])


def counts(page: Any) -> list[str | None]:
    return page.evaluate(COUNTS)


@pytest.mark.parametrize("key", ["marram", "pond", "make_a_snake", "animals_on_board"])
def test_the_header_counts_the_games_waiting_as_the_turns_come_and_go(eager, visitors,
                                                                     live_server, key):
    ann, bob = make_user("ann"), make_user("bob")
    other = start_game_of("marram", [ann, bob], seed=SEED)  # ann's turn there
    game = play_to_the_end(start_game_of(key, [bob, ann], seed=SEED),
                           until=lambda g: not waits_for_ann(g))
    visitor = visitors(PHONE)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    page.evaluate("() => { window.notReloaded = true; }")
    assert counts(page) == ["1", "1"]  # the other game
    # bob plays until it is ann's turn here too: her page counts two, by itself
    play_to_the_end(game, until=waits_for_ann)
    page.wait_for_function(f"() => ({COUNTS})()[0] === '2'", timeout=20_000)
    assert counts(page) == ["2", "2"]
    assert page.evaluate("window.notReloaded") is True
    label = page.locator("#nav-toggle .badge .visually-hidden").inner_text()
    assert label.strip() == "2 games waiting for you"
    # her turns in both games played elsewhere: none waits, and no badge is left
    play_to_the_end(other, until=lambda g: 0 not in g.projection.get("to_act", []))
    play_to_the_end(game, until=lambda g: not waits_for_ann(g))
    page.wait_for_function(f"() => ({COUNTS})()[0] === null", timeout=20_000)
    assert counts(page) == [None, None]
