"""What the pages say, in plain words: no "None" for a score a game keeps until
its end, no "0 minutes ago", a winner's score in the game's own measure (Pond
counts pieces), vacation time in days, and a rating as one whole number."""

from __future__ import annotations

from typing import Any

import pytest

from games import services as game_services
from ratings import services as rating_services
from tests.service.aob_kit import start_animals
from tests.service.conftest import make_user, start_game, start_game_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "5eed" * 16


def signed_in(visitors: Any, username: str) -> Any:
    visitor = visitors()
    visitor.sign_in(username)
    return visitor.page


def test_my_games_shows_a_dash_for_a_score_kept_until_the_end(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    snake = start_game_of("make_a_snake", [ann, bob], seed=SEED)
    animals = start_animals([ann, bob])
    page = signed_in(visitors, "ann")
    page.goto(f"{live_server.url}/games/")
    for game in (snake, animals):
        card = page.locator(f'.game-card[data-game="{game.pk}"]')
        words = card.inner_text()
        assert "None" not in words, words
        assert card.locator(".score-chip strong").all_inner_texts() == ["–", "–"]
        assert "under a minute" in words and "0 minutes" not in words


def test_a_finished_pond_game_says_the_winner_s_pieces_and_when_it_ended(
        visitors, live_server):
    ann, rita = make_user("ann"), make_user("rita")
    game = start_game_of("pond", [rita, ann], seed=SEED)
    game_services.game_resign(game=game, user=ann)
    page = signed_in(visitors, "ann")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    status = page.locator("#turn-status").inner_text()
    assert status == "Game over: rita wins with 0 pieces.", status
    page.goto(f"{live_server.url}/games/finished/")
    card = page.locator(f'.game-card[data-game="{game.pk}"]').inner_text()
    assert "Won by rita, just now" in card and "0 minutes" not in card, card


def test_the_vacation_allowance_is_said_in_days(visitors, live_server):
    make_user("ann")
    page = signed_in(visitors, "ann")
    page.goto(f"{live_server.url}/settings/notifications/")
    words = page.locator("#vacation").inner_text()
    assert "You have 14 days left of your 14 days this year." in words, words
    assert "14.0" not in words


def test_a_rating_is_one_whole_number_with_its_details_on_hover(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    game_services.game_resign(game=game, user=bob)
    rating_services.ratings_update(game.pk)
    page = signed_in(visitors, "ann")
    page.goto(f"{live_server.url}/players/ann/")
    card = page.locator('.rating-card[data-pool="marram"]')
    value = card.locator(".rating-value")
    assert value.inner_text().lstrip("-").isdigit(), value.inner_text()
    assert "Skill estimated at" in value.get_attribute("title")
    assert "mu " not in card.inner_text() and "σ" not in card.inner_text()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    changes = page.locator("#rating-changes tbody tr")
    assert [c.strip("+-").isdigit() for c in changes.locator(".rating-delta")
            .all_inner_texts()] == [True, True]
    page.goto(f"{live_server.url}/leaderboards/")
    lead = page.locator("#about-ratings").inner_text()
    assert "Plackett" not in lead and "mu" not in lead and "σ" not in lead
