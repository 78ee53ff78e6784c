"""The replay viewer in a browser: a finished game stepped through with the
buttons, the slider, the arrow keys and the list of events, its board and
scores at each step compared with the engine's replay of the stored events;
the score chart; the record's download link; and the admin's replay with the
stored event at each step."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import marram as engine
from engine.marram.replays import replay_events
from games import services
from games.models import Event, Game
from games.selectors import game_state_get
from tests.browser.conftest import DESKTOP, PHONE
from tests.service.conftest import make_user, play, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


@pytest.fixture
def finished() -> Game:
    ann, bob = make_user("ann"), make_user("bob")
    # from a fixed seed: the same game every run, still going when bob resigns
    game = start_game([ann, bob], variant="pitchfork", seed="9e7a" * 16)

    def compact_with_claims(actions: list[dict[str, Any]]) -> dict[str, Any]:
        # lay tiles in the holes with most neighbours, claiming on each, so that
        # features are completed and points scored
        state = game_state_get(Game.objects.get(pk=game.pk))
        places = [a for a in actions if a["type"] == "place"]
        if not places:
            return actions[0]
        move = max(places, key=lambda a: sum(
            (a["at"][0] + dx, a["at"][1] + dy) in state.board
            for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))))
        options = engine.claim_options(state, move)
        return {**move, "claim": options[-1]} if options else move

    game = play(game, until=lambda s: s.events >= 30 and s.scores[0] > 0 and s.scores[1] > 0,
                choose=compact_with_claims)
    assert game.status == Game.Status.RUNNING
    services.game_resign(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def states_of(game: Game) -> list[engine.GameState]:
    events = list(Event.objects.filter(game=game).order_by("seq").values_list("payload",
                                                                              flat=True))
    config = engine.config_from_json(game.config)
    return [replay_events(config, events[:n]).state for n in range(len(events) + 1)]


def at_step(page: Any, n: int) -> None:
    page.wait_for_selector(f"#replay[data-step='{n}'][data-loading=false]")


def assert_step(page: Any, state: engine.GameState) -> None:
    tiles = page.eval_on_selector_all("svg#replay-board g.tile", "els => els.map(e => "
                                      "[+e.dataset.x, +e.dataset.y, e.dataset.tile])")
    assert sorted(tiles) == sorted([x, y, p.tile.id] for (x, y), p in state.board.items())
    for seat, score in enumerate(state.scores):
        shown = page.text_content(f'#replay-players li[data-seat="{seat}"] [data-stat="score"]')
        assert shown.strip() == str(score)


def test_stepping_through_a_finished_game(visitors, live_server, finished, artifacts_dir):
    make_user("cyd")
    states = states_of(finished)
    count = finished.seq
    v = visitors(DESKTOP)
    v.sign_in("cyd")  # any signed-in user may replay a finished game
    page = v.page
    page.goto(f"{live_server.url}/games/{finished.pk}/replay/")
    page.wait_for_selector("#replay[data-ready=true]")
    at_step(page, count)  # it opens on the final position
    assert_step(page, states[count])
    assert "bob resigned" in page.text_content("#replay-event")
    assert page.locator("#replay-steps button.step-button").count() == count + 1
    # a line per player in the chart, and a legend naming each with a letter
    assert page.locator("#replay-chart polyline.score-line").count() == 2
    assert page.locator("#replay-legend li").count() == 2
    link = page.locator('a:has-text("Download the record")')
    assert link.get_attribute("href") == f"/api/games/{finished.pk}/record/?format=json"
    record = json.loads(page.evaluate("href => fetch(href).then(r => r.text())",
                                      link.get_attribute("href")))
    assert record["format"] == "marram-game-record" and len(record["events"]) == count
    page.screenshot(path=str(artifacts_dir / "replay-desktop-end.png"))

    page.click('[data-go="first"]')
    at_step(page, 0)
    assert_step(page, states[0])
    page.click('[data-go="forward"]')
    at_step(page, 1)
    assert_step(page, states[1])
    page.focus("#replay-event")  # arrows work anywhere but in a field or on the board
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    at_step(page, 5)
    assert_step(page, states[5])
    page.keyboard.press("ArrowLeft")
    at_step(page, 4)
    assert_step(page, states[4])
    page.locator("#replay-slider").fill(str(count // 2))
    at_step(page, count // 2)
    assert_step(page, states[count // 2])
    assert page.text_content("#replay-position").strip() == f"Step {count // 2} of {count}"
    page.screenshot(path=str(artifacts_dir / "replay-desktop-middle.png"))
    # a step with points: the event's score shows under "This step"
    scoring = next(n for n in range(1, count + 1) if states[n].scores != states[n - 1].scores)
    page.click(f'#replay-steps button[data-step="{scoring}"]')
    at_step(page, scoring)
    assert_step(page, states[scoring])
    assert "+" in page.text_content("#replay-scored")
    page.click('[data-go="back"]')
    at_step(page, scoring - 1)
    page.keyboard.press("End")
    at_step(page, count)
    assert_step(page, states[count])

    phone = visitors(PHONE)
    phone.sign_in("cyd")
    phone.page.goto(f"{live_server.url}/games/{finished.pk}/replay/#step-{count // 2}")
    phone.page.wait_for_selector("#replay[data-ready=true]")
    at_step(phone.page, count // 2)
    assert_step(phone.page, states[count // 2])
    phone.page.screenshot(path=str(artifacts_dir / "replay-phone.png"))
    phone.page.screenshot(path=str(artifacts_dir / "replay-phone-full.png"), full_page=True)


def test_the_admin_replay_shows_the_stored_events(visitors, live_server, finished,
                                                  artifacts_dir):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("root", "root@example.org", "dune-grass-42")
    v = visitors(DESKTOP)
    page = v.page
    page.goto(f"{live_server.url}/admin/login/?next=/admin/games/game/{finished.pk}/change/")
    page.fill("#id_username", "root")
    page.fill("#id_password", "dune-grass-42")
    page.click("input[type=submit]")
    page.click("a:has-text('Replay')")
    page.wait_for_selector("#replay[data-ready=true]")
    assert "agrees with the stored outcome" in page.text_content("#content")
    page.click('[data-go="first"]')
    at_step(page, 0)
    page.click('[data-go="forward"]')
    page.click('[data-go="forward"]')
    at_step(page, 2)
    shown = json.loads(page.text_content("#replay-payload"))
    stored = Event.objects.get(game=finished, seq=1)
    assert shown["payload"] == stored.payload
    assert shown["actor"] == (stored.actor.username if stored.actor else None)
    assert json.loads(page.text_content("#replay-summary"))["supply"]
    assert_step(page, states_of(finished)[2])
    page.screenshot(path=str(artifacts_dir / "admin-replay.png"), full_page=True)
