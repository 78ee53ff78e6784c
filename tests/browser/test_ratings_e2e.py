"""Ratings and rematches in a browser: a resignation ends a game and its page shows
each player's rating change under the final standings; a rematch offered with one
click and accepted on the other player's page opens the new game; the
leaderboard and a profile with its rating chart, reached from the site's menu;
a chat between two players beside the board."""

from __future__ import annotations

import re

import pytest

from games import services as game_services
from games.models import Game
from ratings import services
from ratings.models import Rating, Rematch
from tests.browser.conftest import DESKTOP, PHONE
from tests.service.conftest import make_user, start_game
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def test_the_end_of_a_game_shows_the_rating_changes_and_a_rematch_starts_in_two_clicks(
        visitors, live_server, settings, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    with eager_tasks(settings):  # the rating task runs as the resignation commits
        b = visitors(DESKTOP)
        b.sign_in("bob")
        b.page.goto(f"{live_server.url}/games/{game.pk}/resign/")
        b.page.get_by_role("button", name="Resign and end the game").click()
        b.page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
        standings = b.page.locator("#final-standings")
        standings.wait_for(state="visible")
        changes = b.page.locator("#rating-changes")
        assert changes.is_visible()
        delta = {row.get_attribute("data-player"): row.locator(".rating-delta").inner_text()
                 for row in changes.locator("tbody tr").all()}
        assert delta["bob"].startswith("-") and delta["ann"].startswith("+")
        bob_rating = Rating.objects.get(user=bob, pool="marram")
        assert changes.locator('tr[data-player="bob"] td').nth(2).inner_text() == \
            str(round(bob_rating.ordinal))
        b.page.screenshot(path=str(artifacts_dir / "rating-changes.png"), full_page=True)

        b.page.get_by_role("button", name="Offer a rematch").click()
        b.page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
        assert "bob offered a rematch." in b.page.locator("#rematch-status").inner_text()
        assert b.page.locator('#rematch li[data-player="ann"]').inner_text() == \
            "ann: not answered yet"

        a = visitors(PHONE)
        a.sign_in("ann")
        a.page.goto(f"{live_server.url}/games/{game.pk}/")
        a.page.get_by_role("button", name="Accept the rematch").click()
        new = Rematch.objects.get(game=game).new_game
        assert new is not None
        a.page.wait_for_url(f"{live_server.url}/games/{new.pk}/")
        a.page.locator("#turn-status").wait_for()
        new.refresh_from_db()
        assert new.status == Game.Status.RUNNING and new.options == game.options
        b.page.reload()
        assert f"game {new.pk}" in b.page.locator("#rematch-status").inner_text()


def test_the_leaderboard_and_a_profile_with_its_chart(visitors, live_server, artifacts_dir):
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    for loser, other in ((bob, ann), (cyd, ann), (ann, bob)):
        game = start_game([other, loser])
        game_services.game_resign(game=game, user=loser)
        services.ratings_update(game.pk)
    running = start_game([ann, cyd])

    v = visitors(DESKTOP)
    v.sign_in("cyd")
    v.page.get_by_role("link", name="Leaderboards").click()
    v.page.locator("#main").get_by_role("link", name="Marram", exact=True).click()
    v.page.wait_for_url(f"{live_server.url}/leaderboards/marram/")
    rows = v.page.locator("#leaderboard tbody tr")
    names = [r.get_attribute("data-player") for r in rows.all()]
    best = sorted(Rating.objects.filter(pool="marram"), key=lambda r: -r.ordinal)
    assert names == [r.user.username for r in best]
    assert names[0] == "ann"
    v.page.screenshot(path=str(artifacts_dir / "leaderboard.png"), full_page=True)

    rows.first.get_by_role("link", name="ann").click()
    v.page.wait_for_url(f"{live_server.url}/players/ann/")
    assert v.page.locator("#record").inner_text() == \
        "3 finished games played, 2 won; 1 game being played now."
    chart = v.page.locator('.rating-card[data-pool="marram"] svg.rating-chart')
    assert chart.is_visible()
    assert chart.locator("circle").count() == 4  # the start and three games
    box = chart.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 100
    points = [tuple(map(float, p.split(","))) for p in
              chart.locator("polyline").get_attribute("points").split()]
    ys = [y for _, y in points]
    # svg y grows downwards: up after each win, down after the loss
    assert ys[1] < ys[0] and ys[2] < ys[1] and ys[3] > ys[2]
    assert v.page.locator(f'[data-game="{running.pk}"]').is_visible()
    shown = v.page.locator(".rating-value")
    assert re.fullmatch(r"-?\d+", shown.inner_text())  # one whole number, the rest on hover
    assert "Skill estimated at" in shown.get_attribute("title")
    assert "mu " not in v.page.locator("#main").inner_text()
    v.page.screenshot(path=str(artifacts_dir / "profile.png"), full_page=True)


def test_two_players_chat_beside_the_board(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    a = visitors(DESKTOP)
    a.sign_in("ann")
    a.page.goto(f"{live_server.url}/games/{game.pk}/")
    a.page.locator("#chat summary").click()
    a.page.get_by_label("Message").fill('good luck <b>bob</b> & "friends"')
    a.page.get_by_role("button", name="Send").click()
    mine = a.page.locator("#chat .chat-message.mine .chat-text")
    mine.wait_for()
    assert mine.inner_text() == 'good luck <b>bob</b> & "friends"'  # as text, not markup
    # the chat sits beside the board, not under the page
    board, chat = a.page.locator("svg#board").bounding_box(), \
        a.page.locator("#chat").bounding_box()
    assert board is not None and chat is not None and chat["x"] > board["x"]

    b = visitors(PHONE)
    b.sign_in("bob")
    b.page.goto(f"{live_server.url}/games/{game.pk}/")
    assert b.page.locator("#chat .chat-message .chat-author").inner_text() == "ann"
    b.page.get_by_label("Message").fill("thanks!")
    b.page.get_by_role("button", name="Send").click()
    b.page.locator("#chat .chat-message.mine").wait_for()
    a.page.reload()
    assert [t.inner_text() for t in a.page.locator("#chat .chat-text").all()] == [
        'good luck <b>bob</b> & "friends"', "thanks!"]
