"""Animals on Board played in the browser from the lobby to the end, by clicks
and keys, by three players (one on a phone's width): the game made and joined
in the lobby, each player keeping a tile in secret on their own page, splits by
choosing tiles of a group, takes by choosing a group at its price, a Confirm
step, and the final standings on every page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.management.commands.verify_game import game_problems
from games.models import Game
from games.selectors import game_state_get
from tests.browser.conftest import DESKTOP, PHONE
from tests.service.aob_kit import SEED
from tests.service.conftest import dealt_from, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def ready(page: Any) -> None:
    page.wait_for_selector("#game[data-ready=true]")


def settled(page: Any, seq: int) -> None:
    page.wait_for_function("seq => window.gamePage && window.gamePage.page.seq === seq && "
                           "!window.gamePage.busy", arg=seq, timeout=20_000)


def current(page: Any, game: Game) -> dict[str, Any]:
    """The page brought up to the game's seq (by reloading it), and its state."""
    game.refresh_from_db()
    if page.evaluate("() => window.gamePage.page.seq") != game.seq:
        page.reload()
        ready(page)
    settled(page, game.seq)
    return page.evaluate("() => window.gamePage.page")


def confirm(page: Any, game: Game, words: str) -> None:
    game.refresh_from_db()
    before = game.seq
    assert words in page.locator("#aob-choice").inner_text()
    page.locator("#aob-confirm").click()
    settled(page, before + 1)


def play_turn(page: Any, game: Game, state: dict[str, Any]) -> str:
    """The seat to move takes the biggest group it can pay for, else splits half
    the tiles off the biggest group: a short game (42 moves)."""
    legal = state["legal_actions"]
    takes = [a for a in legal if a["type"] == "take"]
    view = state["state"]
    if takes:
        g = max(takes, key=lambda a: view["prices"][a["group"]])["group"]
        page.get_by_role("button", name=f"Take group {g} (").click()
        confirm(page, game, f"Take group {g} onto your ark")
        return "take"
    if any(a["type"] == "split" for a in legal):
        g = max(range(len(view["middle"])), key=lambda i: len(view["middle"][i]))
        tiles = page.locator(f'.aob-group[data-group="{g}"] button.aob-tile')
        half = len(view["middle"][g]) // 2
        for i in range(half):
            tiles.nth(i).click()
            assert tiles.nth(i).get_attribute("aria-pressed") == "true"
        if half > 1:  # choosing a tile again unchooses it
            tiles.nth(0).click()
            assert "Split " in page.locator("#aob-choice").inner_text()
            tiles.nth(0).click()
        confirm(page, game, f"off group {g} and gain a food crate")
        return "split"
    page.locator("#aob-pass").click()
    confirm(page, game, "Pass")
    return "pass"


def test_three_players_play_a_whole_game_from_the_lobby(visitors, live_server, artifacts_dir):
    names = ("ann", "bob", "cyd")
    for name in names:
        make_user(name)
    people = {}
    for name, viewport in zip(names, (DESKTOP, DESKTOP, PHONE), strict=True):
        people[name] = visitors(viewport)
        people[name].sign_in(name)
    with dealt_from(SEED):  # the seats in the order joined, the tiles from a known seed
        ann = people["ann"].page
        ann.goto(f"{live_server.url}/lobby/")
        ann.get_by_label("Animals on Board").check()
        ann.get_by_label("3", exact=True).check()
        ann.get_by_role("button", name="Create the game").click()
        ann.wait_for_url("**/games/*/")
        game = Game.objects.get()
        for name in ("bob", "cyd"):
            page = people[name].page
            page.goto(f"{live_server.url}/lobby/")
            page.get_by_role("button", name=f"Join game {game.pk}").click()
            page.wait_for_url(f"**/games/{game.pk}/")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.game == "animals_on_board"
    pages = {name: people[name].page for name in names}
    for page in pages.values():
        page.goto(f"{live_server.url}/games/{game.pk}/")
        ready(page)

    # the secret keep: everybody at once, each on their own page, by keys for bob
    bob = pages["bob"]
    first = bob.locator(".aob-drawn button.aob-tile").first
    first.focus()
    bob.keyboard.press("Enter")
    assert first.get_attribute("aria-pressed") == "true"
    bob.keyboard.press("Escape")  # cancelled
    assert bob.locator("#aob-confirm").count() == 0
    bob.locator(".aob-drawn button.aob-tile").nth(1).focus()
    bob.keyboard.press(" ")
    kept = bob.evaluate("() => window.gamePage.page.state.drawn[1]")
    confirm(bob, game, f"({kept}) on your ark, in secret")
    assert "You have kept a tile" in bob.locator("#move-hint").inner_text()
    # ann's page hears of it by polling: who has chosen, not what
    ann = pages["ann"]
    settled(ann, 1)
    assert "has chosen a tile" in ann.locator('#players [data-seat="1"]').inner_text()
    assert not re.search(rf"(?<![A-Za-z0-9]){kept}(?![A-Za-z0-9])", ann.content())
    # cyd's page stops polling (as a page in a background tab does) and goes stale
    cyd = pages["cyd"]
    cyd.evaluate("Object.defineProperty(document, 'hidden', {get: () => true})")
    ann.locator(".aob-drawn button.aob-tile").first.click()
    confirm(ann, game, "on your ark, in secret")
    # cyd's keep, sent at the seq it saw, is played all the same: the keeps are
    # made at the same time, and ann's changed nothing of cyd's three tiles
    cyd.locator(".aob-drawn button.aob-tile").first.click()
    confirm(cyd, game, "on your ark, in secret")
    assert cyd.locator("#move-error").inner_text() == ""
    people["cyd"].page.screenshot(path=str(artifacts_dir / "animals-on-board-phone.png"),
                                  full_page=True)

    done: list[str] = []
    for _ in range(150):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        seat = game.projection["to_act"][0]
        page = pages[names[seat]]
        state = current(page, game)
        assert state["state"]["you"] == seat and "Your turn" in page.locator(
            "#turn-status").inner_text()
        done.append(play_turn(page, game, state))
        if len(done) == 3:
            pages["ann"].screenshot(path=str(artifacts_dir / "animals-on-board.png"),
                                    full_page=True)
        if len(done) == 6:
            # ann sees the tiles bob and cyd took face up, as the engine lists them
            ann = pages["ann"]
            shown = current(ann, game)["state"]
            arks = game_state_get(game)
            for s in (1, 2):
                face_up = sorted(t for t in arks.arks[s] if t not in arks.unseen[s])
                assert shown["face_up"][s] == face_up
            seen = ann.locator("section[aria-labelledby=aob-seen-heading]")
            assert seen.locator(".aob-tile").count() == len(shown["face_up"][1]) + len(
                shown["face_up"][2]) > 0
            assert f"{names[1]}: " in seen.inner_text() and "face up" in seen.inner_text()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, done
    assert {"take", "split"} <= set(done) and game_problems(game) == []
    for page in pages.values():
        current(page, game)
        standings = page.locator("#final-standings")
        standings.wait_for(state="visible")
        assert standings.locator(".tag-win").count() >= 1
        assert "Game over" in page.locator("#turn-status").inner_text()
    phone = pages["cyd"]
    assert phone.evaluate("() => document.documentElement.scrollWidth <= "
                          "document.documentElement.clientWidth")
    pages["ann"].screenshot(path=str(artifacts_dir / "animals-on-board-end.png"), full_page=True)

    # the replay draws each step's table with the game's own module
    replay = pages["bob"]
    replay.goto(f"{live_server.url}/games/{game.pk}/replay/")
    replay.wait_for_selector(f"#replay[data-step='{game.seq}'][data-loading=false]")
    stage = replay.locator("#replay-stage")
    assert stage.locator(".aob-arks .aob-tile").count() == sum(
        len(ark) for ark in game_state_get(game).arks)
    replay.click('[data-go="first"]')
    replay.wait_for_selector("#replay[data-step='0'][data-loading=false]")
    assert "The middle is empty until the players have kept" in stage.inner_text()
    assert stage.locator(".aob-drawn .aob-tile").count() == 3  # bob's own three tiles
    replay.screenshot(path=str(artifacts_dir / "animals-on-board-replay.png"), full_page=True)
