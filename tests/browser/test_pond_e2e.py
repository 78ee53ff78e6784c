"""A whole game of Pond played by clicks in Chromium, between two players each in
their own browser (one on a phone's width), from the lobby to the end: each
move chosen on the board among the highlighted positions, what it would develop
and score shown before Confirm, the other page following by polling, the last
move outlined for the player coming back, one move made with the keyboard alone,
and the final standings; then the replay viewer steps through it.

The moves are a short game on the small pond (4x4, target 7) found with the
engine: ann (light) reaches 7 on the 13th event, bob has 2.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Event, Game
from tests.browser.conftest import DESKTOP, PHONE
from tests.service.conftest import dealt_from, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "0d0d" * 16
GAME = [
    {"type": "egg", "player": 0, "at": [1, 3]},
    {"type": "egg", "player": 1, "at": [0, 1]},
    {"type": "egg", "player": 0, "at": [3, 3]},
    {"type": "egg", "player": 1, "at": [3, 1]},
    {"type": "egg", "player": 0, "at": [1, 0]},
    {"type": "egg", "player": 1, "at": [2, 2]},
    # ann's egg at 0,0 develops her egg at 1,0 and bob's at 0,1 into tadpoles
    {"type": "egg", "player": 0, "at": [0, 0]},
    # bob's tadpole steps east; it develops ann's tadpole at 1,0 into a frog
    {"type": "move", "player": 1, "from": [0, 1], "to": [1, 1]},
    # ann's egg at 2,0 develops her frog at 1,0 into an egg: row 0 is e e e,
    # three light eggs: +3 for ann
    {"type": "egg", "player": 0, "at": [2, 0]},
    {"type": "move", "player": 1, "from": [1, 1], "to": [2, 1]},
    {"type": "egg", "player": 0, "at": [3, 0]},
    {"type": "move", "player": 1, "from": [2, 2], "to": [2, 3]},
    # ann's egg at 3,2 develops bob's frog at 3,1 into an egg: column 3 reads
    # e E e from the north, three eggs: +2 for ann, +1 for bob; ann has 7
    {"type": "egg", "player": 0, "at": [3, 2]},
]


def cell(page: Any, pos: list[int]) -> Any:
    return page.locator(f'#pond-board g.cell[data-x="{pos[0]}"][data-y="{pos[1]}"]')


def wait_for_seq(page: Any, seq: int) -> None:
    page.wait_for_function("seq => window.gamePage && window.gamePage.page.seq === seq && "
                           "!window.gamePage.busy", arg=seq, timeout=20_000)


def highlighted(page: Any, kind: str) -> list[list[int]]:
    return sorted(page.eval_on_selector_all(
        f"#pond-board g.choice-{kind}", "els => els.map(e => [+e.dataset.x, +e.dataset.y])"))


def preview_lines(page: Any) -> list[str]:
    page.wait_for_selector('#pond-preview[data-ready="true"]')
    return page.locator("#pond-preview li").all_inner_texts()


def choose_by_clicks(page: Any, action: dict) -> None:
    if action["type"] == "egg":
        cell(page, action["at"]).click()
    else:
        cell(page, action["from"]).click()
        assert action["to"] in highlighted(page, "dest")
        cell(page, action["to"]).click()


def choose_by_keyboard(page: Any, action: dict) -> None:
    """Tab to the position and press Enter, as a keyboard user would."""
    target = cell(page, action["at"])
    page.locator("#pond-board g.choice").first.focus()
    for _ in range(40):
        if page.evaluate("el => document.activeElement === el", target.element_handle()):
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")


def test_a_whole_game_of_pond_by_clicks_from_the_lobby_to_the_end(visitors, live_server,
                                                                  artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    pages = {}
    for seat, (user, viewport) in enumerate(((ann, DESKTOP), (bob, PHONE))):
        v = visitors(viewport)
        v.sign_in(user.username)
        pages[seat] = v.page
    first, second = pages[0], pages[1]
    # ann starts a small Pond in the lobby; bob joins it from its page (in the
    # order they sat down: dealt_from keeps it)
    with dealt_from(SEED):
        first.goto(f"{live_server.url}/lobby/")
        first.get_by_label("Pond", exact=True).check()
        first.get_by_label("Small pond: 4x4, 11 eggs each, first to 7").check()
        first.get_by_role("button", name="Create the game").click()
        first.wait_for_url(f"{live_server.url}/games/*/")
        game = Game.objects.get()
        assert (game.game, game.options) == ("pond", {"options": "small"})
        second.goto(f"{live_server.url}/games/{game.pk}/")
        second.get_by_role("button", name="Join this game").click()
        second.wait_for_selector("#game[data-ready=true]")
    first.goto(f"{live_server.url}/games/{game.pk}/")
    first.wait_for_selector("#game[data-ready=true]")
    assert "Your turn" in first.locator("#turn-status").inner_text()
    # an empty pond: every one of the 16 positions takes an egg; bob may do nothing
    assert len(highlighted(first, "egg")) == 16
    assert highlighted(second, "egg") == [] and second.locator("#confirm-button").count() == 0

    # Escape cancels a chosen move: nothing is sent
    cell(first, [2, 2]).click()
    first.wait_for_selector("#confirm-button")
    first.keyboard.press("Escape")
    assert first.locator("#confirm-button").count() == 0
    assert len(highlighted(first, "egg")) == 16

    for seq, action in enumerate(GAME):
        page, other = pages[action["player"]], pages[1 - action["player"]]
        if seq == 4:
            choose_by_keyboard(page, action)
        else:
            choose_by_clicks(page, action)
        lines = preview_lines(page)
        if seq == 8:
            # before Confirm: the frog at 1,0 would develop into an egg and row 0 score
            assert lines == ["Develops 1 piece: 1,0", "Scores 3 pieces: +3 for you (light)"]
            page.screenshot(path=str(artifacts_dir / "pond-preview.png"))
        elif seq == 12:
            assert lines == ["Develops 1 piece: 3,1",
                             "Scores 3 pieces: +2 for you (light), +1 for bob (dark)",
                             "It ends the game: you win."]
        if seq == 4:
            page.locator("#confirm-button").focus()
            page.keyboard.press("Enter")
        else:
            page.click("#confirm-button")
        wait_for_seq(page, seq + 1)
        wait_for_seq(other, seq + 1)
        assert Event.objects.get(game=game, seq=seq).payload == action
        if seq == 8:
            # bob coming back sees ann's egg outlined, what it developed and scored
            at = other.locator("#pond-board g.last-at")
            assert (at.get_attribute("data-x"), at.get_attribute("data-y")) == ("2", "0")
            assert other.locator("#pond-board g.last-scored").count() == 3
            since = other.locator("#since-list").inner_text()
            assert "ann placed an egg at 2,0" in since
            assert "developed 1,0; scored 3 pieces (3 light)" in since
            assert other.locator('#players li[data-seat="0"] [data-stat="score"]') \
                .inner_text() == "3"
            other.screenshot(path=str(artifacts_dir / "pond-phone.png"), full_page=True)
            # on the phone's width the pond and the move panel fit across the screen
            for part in ("#pond-board svg", ".move-panel"):
                box = other.locator(part).bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], part

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    for page in pages.values():
        page.wait_for_selector("#final-standings:not([hidden])")
        assert "The game ended because a pile reached the target." in \
            page.locator("#final-standings").inner_text()
        rows = page.locator("#standings tbody tr").all_inner_texts()
        assert rows[0].split("\t")[0] == "1" and "ann" in rows[0] and "7" in rows[0]
        assert "bob" in rows[1] and "2" in rows[1]
        assert page.locator("#pond-board g.choice").count() == 0
        # how it ended, for both: ann's last egg and what it scored
        assert page.locator("#since-heading").inner_text() == "Latest moves"
        assert "ann placed an egg at 3,2: developed 3,1; scored 3 pieces (2 light and 1 dark)" \
            in page.locator("#since-list").inner_text()
    first.screenshot(path=str(artifacts_dir / "pond-final.png"), full_page=True)

    # the replay viewer draws each step's pond with Pond's module: after the 9th
    # event, ann's egg at 2,0 outlined and the three eggs it scored starred
    first.click("text=Replay")
    first.wait_for_selector(f"#replay[data-step='{len(GAME)}'][data-loading=false]")
    assert first.locator("#replay-stage .pond-svg").count() == 1
    first.click('#replay-steps button.step-button[data-step="9"]')
    first.wait_for_selector("#replay[data-step='9'][data-loading=false]")
    stage = first.locator("#replay-stage")
    at = stage.locator("g.last-at")
    assert (at.get_attribute("data-x"), at.get_attribute("data-y")) == ("2", "0")
    assert stage.locator("g.last-scored").count() == 3
    assert "Scores 3 pieces: +3 for ann (light)" in stage.inner_text()
    assert "ann (light): pile 3, spawn 6" in stage.inner_text()
    first.screenshot(path=str(artifacts_dir / "pond-replay.png"), full_page=True)


def test_a_stale_move_is_refused_then_offered_again_on_the_fresh_pond(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    with dealt_from(SEED):
        game = services.game_create(user=ann, game="pond", seats=2,
                                    options={"options": "small"})
        services.game_join(game=game, user=bob)
    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    # the page stops polling (as in a background tab) while ann plays by mail and
    # bob answers: her page still shows the empty pond
    page.evaluate("Object.defineProperty(document, 'hidden', {get: () => true})")
    services.action_submit(game=game, user=ann, action={"type": "egg", "at": [3, 3]},
                           expected_seq=0)
    services.action_submit(game=game, user=bob, action={"type": "egg", "at": [2, 3]},
                           expected_seq=1)
    cell(page, [0, 0]).click()
    assert preview_lines(page) == ["Develops nothing", "Scores nothing"]
    v.expect_refusal(409, "/actions/")
    page.click("#confirm-button")
    page.wait_for_function("() => document.getElementById('move-error').textContent")
    assert "moved on" in page.locator("#move-error").inner_text()
    wait_for_seq(page, 2)
    assert Event.objects.filter(game=game).count() == 2  # nothing stored
    # the egg at 0,0 is still legal: it is offered again, on the pond as it is now
    # (bob's egg at 2,3 developed ann's at 3,3 into a tadpole)
    assert preview_lines(page) == ["Develops nothing", "Scores nothing"]
    assert cell(page, [3, 3]).get_attribute("aria-label") == "3,3: light tadpole"
    page.click("#confirm-button")
    wait_for_seq(page, 3)
    assert Event.objects.get(game=game, seq=2).payload == {"type": "egg", "player": 0,
                                                           "at": [0, 0]}


def test_the_rules_page_draws_the_six_pieces_as_the_board_does(visitors, live_server):
    page = visitors(DESKTOP).page
    page.goto(f"{live_server.url}/rules/pond/")
    page.wait_for_selector("#pieces-list svg.pond-icon")
    drawn = page.eval_on_selector_all(
        "#pieces-list li", "els => els.map(e => [e.dataset.piece, "
        "e.querySelector('svg g.piece').getAttribute('class')])")
    assert drawn == [[f"{c} {f}", f"piece {c} {f}"] for c in ("light", "dark")
                     for f in ("egg", "tadpole", "frog")]
