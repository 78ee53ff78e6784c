"""A player asks for the review of a finished game on its replay page, in
``./dev run``'s setup (the review's task runs on the web process's background
thread once the answer is sent, as a worker would run it): the page says it is
being made, shows it by itself when it is ready, and a costly move named in it
opens its step of the replay."""

from __future__ import annotations

import pytest

from games import background
from tests.browser.conftest import DESKTOP
from tests.service.conftest import make_user, start_game_of
from tests.service.endgame_kit import play_to_the_end
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def test_the_review_comes_to_the_replay_page_and_its_moves_open_their_steps(
        visitors, live_server, settings):
    ann, bob = make_user("ann"), make_user("bob")
    game = play_to_the_end(start_game_of("pond", [ann, bob], seed="5e" * 32))
    with eager_tasks(settings):  # tasks as ./dev run runs them, from here on
        settings.MARRAM_BACKGROUND_TASKS = True
        settings.MARRAM_REVIEW_PLAYOUTS, settings.MARRAM_REVIEW_SAMPLES = 30, 4
        follow_the_review(visitors, live_server, game)
        assert background.idle(60), "the review is still being made"


def follow_the_review(visitors, live_server, game) -> None:
    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    page.wait_for_selector("#replay[data-ready=true]")
    page.get_by_role("button", name="Review the moves").click()
    # the answer comes at once; the page follows the review until it is ready
    page.wait_for_selector("#review-pending, .review-marked", timeout=15_000)
    page.wait_for_selector(".review-marked", timeout=30_000)
    assert "The costliest moves" in page.text_content("#review")
    page.wait_for_selector(f"#replay[data-ready=true][data-step='{game.seq}']")
    links = page.locator(".review-marked [data-review-step]")
    link = next(links.nth(i) for i in range(links.count())
                if links.nth(i).get_attribute("data-review-step") != str(game.seq))
    step = link.get_attribute("data-review-step")
    link.click()
    page.wait_for_selector(f"#replay[data-step='{step}'][data-loading=false]")
    assert page.url.endswith(f"#step-{step}")
