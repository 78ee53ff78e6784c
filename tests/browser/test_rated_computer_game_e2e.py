"""A game against the computer is rated when the player asks for it where the
game is started (the home page's Rated box); left unticked, its end says why it
is unrated in words that fit where it was started."""

from __future__ import annotations

import pytest

from games import services as game_services
from games.models import Game
from ratings import services as rating_services
from tests.service.conftest import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def play_the_computer_and_resign(visitors, live_server, *, rated: bool):
    ann = make_user("ann")
    visitor = visitors()
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/")
    form = page.locator("form.play-computer")
    form.get_by_label("Game", exact=True).select_option("pond")
    form.get_by_label("Computer player 1", exact=True).select_option("easy")
    rated_box = form.get_by_label("Rated", exact=True)
    assert rated_box.is_visible() and not rated_box.is_checked()
    if rated:
        rated_box.check()
    form.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(f"{live_server.url}/games/*/")
    game = Game.objects.get()
    game_services.game_resign(game=game, user=ann)
    rating_services.ratings_update(game.pk)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    return page


def test_a_game_against_the_computer_started_as_rated_moves_the_ratings(
        visitors, live_server):
    page = play_the_computer_and_resign(visitors, live_server, rated=True)
    rows = page.locator("#rating-changes tbody tr")
    assert sorted(r.get_attribute("data-player") for r in rows.all()) == \
        ["Plover (computer, easy)", "ann"]


def test_an_unrated_game_against_the_computer_says_why_in_the_words_of_its_start(
        visitors, live_server):
    page = play_the_computer_and_resign(visitors, live_server, rated=False)
    said = page.locator("#rating-changes").inner_text()
    assert said == ("Unrated: a computer player took part, and the game was not started "
                    "as a rated one."), said
    assert "lobby" not in said
