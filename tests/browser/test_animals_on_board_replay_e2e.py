"""Animals on Board's replay of a running game: a player's replay shows what
that player knew (their own ark, the others' counts and the tiles they took
face up), the admin's replay every ark, drawn by the game's own replay module."""

from __future__ import annotations

import random

import pytest

from engine.animals_on_board import GAME
from tests.browser.conftest import DESKTOP, PASSWORD
from tests.service.aob_kit import hunting_action, start_animals, state_of, submit
from tests.service.conftest import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def at_last_step(page, seq: int) -> None:
    page.wait_for_selector(f"#replay[data-step='{seq}'][data-loading=false]")


def test_a_player_s_replay_shows_their_ark_the_admin_s_every_ark(visitors, live_server,
                                                                   artifacts_dir):
    ann, bob, cyd = (make_user(n) for n in ("ann", "bob", "cyd"))
    game = start_animals([ann, bob, cyd])
    rng = random.Random(4)
    while True:  # until somebody has taken a group in the first round or later
        state = state_of(game)
        if any(len(ark) > 1 for ark in state.arks):
            break
        submit(game, hunting_action(state, GAME.awaiting(state).players[0], rng))
    state = state_of(game)
    game.refresh_from_db()

    v = visitors(DESKTOP)
    v.sign_in("bob")
    page = v.page
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    at_last_step(page, game.seq)
    stage = page.locator("#replay-stage")
    ark = stage.locator(".aob-ark .aob-tile")
    assert sorted(ark.nth(i).get_attribute("aria-label").split("(")[-1].rstrip(")")
                  for i in range(ark.count())) == sorted(state.arks[1])
    # the other arks only as the table saw them: the tiles taken face up, and how
    # many more each holds unseen
    others = stage.locator(".aob-arks")
    assert "The other arks, as taken face up" in others.inner_text()
    shown = others.locator(".aob-tile")
    assert sorted(shown.nth(i).get_attribute("aria-label").split("(")[-1].rstrip(")")
                  for i in range(shown.count())) == sorted(
        t for seat in (0, 2) for t in state.arks[seat] if t not in state.unseen[seat])
    for seat in (0, 2):
        unseen = len([t for t in state.arks[seat] if t in state.unseen[seat]])
        assert (f"{unseen} more unseen" in others.inner_text()) == (unseen > 0)
    for seat in (0, 2):
        assert f"ark: {len(state.arks[seat])} tile" in stage.locator(
            f'.aob-replay-players [data-seat="{seat}"]').inner_text()

    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    admin = visitors(DESKTOP).page
    admin.goto(f"{live_server.url}/admin/login/?next=/admin/games/game/{game.pk}/replay/")
    admin.fill("#id_username", "root")
    admin.fill("#id_password", PASSWORD)
    admin.click("input[type=submit]")
    at_last_step(admin, game.seq)
    # every ark, beside the table as the players saw it (the tiles taken face up)
    every = admin.locator('#replay-stage .aob-arks[aria-labelledby="aob-arks-heading"]')
    assert "Every ark (the admin's view)" in every.inner_text()
    assert every.locator(".aob-tile").count() == sum(len(a) for a in state.arks)
    admin.screenshot(path=str(artifacts_dir / "animals-admin-replay.png"), full_page=True)


def test_a_finished_game_s_replay_shows_every_ark_and_the_face_down_tile_at_each_step(
        visitors, live_server, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_animals([ann, bob])
    rng = random.Random(4)
    while True:  # until bob has taken a group while a tile lies face down
        state = state_of(game)
        if len(state.arks[1]) > 1 and state.face_down is not None:
            break
        submit(game, hunting_action(state, GAME.awaiting(state).players[0], rng))
    game.refresh_from_db()
    at, hidden = game.seq, state
    from games import services

    services.game_resign(game=game, user=bob)
    game.refresh_from_db()

    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    page.goto(f"{live_server.url}/games/{game.pk}/replay/")
    at_last_step(page, game.seq)
    page.locator("#replay-slider").fill(str(at))
    at_last_step(page, at)
    stage = page.locator("#replay-stage")
    arks = stage.locator(".aob-arks")
    assert arks.count() == 1, "every ark is shown once the game is over"
    shown = [t.get_attribute("aria-label") for t in arks.locator(".aob-tile").all()]
    assert sorted(label.split("(")[-1].rstrip(")") for label in shown) == \
        sorted(hidden.arks[0] + hidden.arks[1])
    face_down = stage.locator(".aob-middle .aob-face-down")
    assert face_down.count() == 1
    assert f"({hidden.face_down}), lying face down" in face_down.get_attribute("aria-label")
    assert stage.locator(".aob-middle [aria-label^='the face-down tile']").count() == 0
    assert "The stack, next tile first:" in stage.inner_text()
    page.screenshot(path=str(artifacts_dir / "animals-finished-replay.png"), full_page=True)
