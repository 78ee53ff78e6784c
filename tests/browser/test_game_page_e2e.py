"""The game page as a returning player finds it, in Chromium: the moves made since
their last move outlined and listed, the header's badge following the turns, what
a move would score before it is confirmed, a page that neither jumps after a move
nor lets the sticky board cover the panels, a sensible zoom at the start, and
the final standings; the home page's picture and the rules page.

Exact positions come from custom tile sets (tests/service/test_game_page_reads.py);
the other player's moves go through the services, as another browser's would.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import DESKTOP
from tests.browser.test_guess_and_pass_e2e import open_game, wait_for_seq
from tests.service.conftest import custom_game, make_user, start_game
from tests.service.test_game_page_reads import (
    CIRCLE,
    CIRCLE_DECK,
    ENDGAME,
    place,
    submit,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def badge(page: Any) -> str | None:
    """The number on the header's "My games" badge, None without one."""
    return page.evaluate("""() => {
      const link = [...document.querySelectorAll('.site-header a')]
        .find(a => a.getAttribute('href') === '/games/');
      const b = link && link.querySelector('.badge');
      return b ? b.firstChild.textContent.trim() : null; }""")


def outlined(page: Any) -> list[list[int]]:
    return sorted(page.eval_on_selector_all(
        "svg#board g.last-move", "els => els.map(e => [+e.dataset.x, +e.dataset.y])"))


def choose_last_corner(page: Any) -> None:
    """ann's SE tile, front, at (1, 1), as it comes: the claims and the preview load."""
    page.click('button.face-button[data-tile="SE"][data-face="front"]')
    page.click('svg#board g.highlight[data-x="1"][data-y="1"]')
    page.click('button.rotation-button[data-rotation="0"]')
    page.wait_for_selector('button[data-claim="none"]')
    page.wait_for_selector('#score-preview[data-ready="true"]')


@pytest.fixture
def circle(transactional_db):
    """ann has laid NE (a boot on the sand circle) and SW; bob is to move."""
    ann, bob = make_user("ann"), make_user("bob")
    game = custom_game([ann, bob], CIRCLE, CIRCLE_DECK)
    submit(game, ann, place("NE", (1, 0), {"arc": 6}))
    submit(game, ann, place("SW", (0, 1)))
    game.refresh_from_db()
    return game, ann, bob


def test_the_other_players_moves_arrive_outlined_listed_and_counted(circle, visitors,
                                                                     live_server,
                                                                     artifacts_dir):
    game, ann, bob = circle
    a = open_game(visitors, live_server, game, "ann")
    page = a.page
    assert badge(page) is None  # bob's turn: nothing waits for ann
    assert outlined(page) == []  # ann moved last
    page.evaluate("() => { window.notReloaded = true; }")

    # bob lays two tiles (his browser, here the services); ann's page follows by itself
    submit(game, bob, place("F1", (-1, 0)))
    submit(game, bob, place("F2", (0, -1)))
    game.refresh_from_db()
    wait_for_seq(page, game.seq)
    assert page.evaluate("window.notReloaded") is True
    # the badge and the title both say so
    page.wait_for_function("() => document.title.startsWith('Your turn')")
    assert badge(page) == "1"
    # both of bob's tiles are outlined, not only the last, and both moves are told
    assert outlined(page) == [[-1, 0], [0, -1]]
    items = page.eval_on_selector_all("#since-list li", "els => els.map(e => e.textContent)")
    assert [t.strip() for t in items] == ["B bob lays tile F1 front face up at -1,0",
                                          "B bob lays tile F2 front face up at 0,-1"]
    assert page.text_content("#since-heading") == "Since your last move"
    assert "2 events" in page.text_content("#last-move")
    page.screenshot(path=str(artifacts_dir / "since-last-move.png"))

    # ann closes the circle: before Confirm the page says what it scores, and for whom
    choose_last_corner(page)
    preview = page.text_content("#score-preview")
    # 1 bulge x 5 = 5 (Classic), for ann's boot
    assert "Completes the sand patch with 1 bulge: +5 for you" in preview
    page.screenshot(path=str(artifacts_dir / "score-preview.png"))
    page.click('button[data-action="confirm"]')
    wait_for_seq(page, game.seq + 1)
    assert page.text_content('#players li[data-seat="0"] [data-stat="score"]').strip() == "5"
    # still ann's turn (move 2 of 2): the badge keeps its count until she is done
    assert badge(page) == "1"
    page.click('button.face-button[data-tile="F4"][data-face="front"]')
    page.click('svg#board g.highlight[data-x="-1"][data-y="-1"]')
    page.wait_for_selector('button[data-claim="none"]')
    page.click('button[data-action="confirm"]')
    page.wait_for_function("() => !document.title.startsWith('Your turn')")
    assert badge(page) is None
    assert page.evaluate("window.notReloaded") is True


def test_a_preview_follows_the_claim(visitors, live_server):
    # the same circle, but ann laid NE without a boot: closing it scores only with one
    ann, bob = make_user("ann"), make_user("bob")
    game = custom_game([ann, bob], CIRCLE, CIRCLE_DECK)
    submit(game, ann, place("NE", (1, 0)))
    submit(game, ann, place("SW", (0, 1)))
    submit(game, bob, place("F1", (-1, 0)))
    submit(game, bob, place("F2", (0, -1)))
    page = open_game(visitors, live_server, game, "ann").page
    choose_last_corner(page)
    assert "Completes a sand patch that nobody holds: no points" in \
        page.text_content("#score-preview")
    # the boot on the circle's corner (arc 0 of SE, the NW corner) makes it ann's
    index = page.evaluate("""() => window.marramGame.ui.claims
        .findIndex(c => c.arc === 0)""")
    assert index >= 0
    page.click(f'button[data-claim="{index}"]')
    page.wait_for_function("() => document.getElementById('score-preview').textContent"
                           ".includes('+5 for you')")


def test_the_page_stays_put_after_a_move(circle, visitors, live_server):
    game, ann, bob = circle
    submit(game, bob, place("F1", (-1, 0)))
    submit(game, bob, place("F2", (0, -1)))
    game.refresh_from_db()
    page = open_game(visitors, live_server, game, "ann").page
    choose_last_corner(page)
    # the player has scrolled down to the bottom of the page, where Confirm is in sight
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    before = page.evaluate("scrollY")
    assert before > 100
    box = page.locator('button[data-action="confirm"]').bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"]
    page.click('button[data-action="confirm"]')
    wait_for_seq(page, game.seq + 1)
    page.wait_for_timeout(300)  # any late layout
    assert abs(page.evaluate("scrollY") - before) <= 1


def text_over_board(page: Any) -> list[str]:
    """The text of the panels that the board covers, where the window shows it."""
    return page.evaluate("""() => {
      const b = document.querySelector('.board-area').getBoundingClientRect();
      const hits = [];
      for (const el of document.querySelectorAll(
          '#main p, #main h2, #main li, #main summary, #main button, #main dd, #main legend')) {
        if (el.closest('.board-area')) continue;
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || r.bottom < 0 || r.top > innerHeight) continue;
        if (r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top)
          hits.push(el.tagName + ': ' + el.textContent.trim().slice(0, 40));
      }
      return hits; }""")


def test_the_sticky_board_never_covers_the_panels(circle, visitors, live_server,
                                                   artifacts_dir):
    game, ann, bob = circle
    submit(game, bob, place("F1", (-1, 0)))
    submit(game, bob, place("F2", (0, -1)))
    page = open_game(visitors, live_server, game, "ann").page
    choose_last_corner(page)  # the move panel at its longest
    top = page.evaluate("document.documentElement.scrollHeight - innerHeight")
    assert top > 300
    for fraction in (0, 0.25, 0.5, 0.75, 1):
        page.evaluate(f"window.scrollTo(0, {int(top * fraction)})")
        page.wait_for_timeout(50)
        assert text_over_board(page) == [], fraction
        # and the board is in sight while it sticks
        board = page.locator(".board-area").bounding_box()
        assert board["y"] + board["height"] > DESKTOP["height"] / 2
    page.screenshot(path=str(artifacts_dir / "scrolled-to-the-bottom.png"))


def test_the_starter_alone_is_not_drawn_across_the_whole_board(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    page = open_game(visitors, live_server, game, "ann").page
    board = page.locator("svg#board").bounding_box()
    starter = page.locator('svg#board g.tile[data-x="0"][data-y="0"] rect.tile-base')
    width = starter.bounding_box()["width"]
    assert width <= board["width"] / 8 + 1
    assert width >= board["width"] / 12  # and still a tile, not a speck
    # the Fit button fits the same way
    page.click("#zoom-in")
    page.click("#zoom-fit")
    assert starter.bounding_box()["width"] == pytest.approx(width, abs=1)


def test_the_end_shows_the_standings(visitors, live_server, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = custom_game([ann, bob], ENDGAME, ["B", "A", "X1", "C", "X2", "X3"])
    submit(game, ann, place("B", (1, 0), {"side": 3}))
    submit(game, ann, place("A", (0, 1)))
    submit(game, bob, place("C", (1, 1), {"arc": 0}))  # the server passes to the end
    page = open_game(visitors, live_server, game, "ann").page
    page.wait_for_selector("#standings")
    heads = page.eval_on_selector_all("#standings thead th", "els => els.map(e => e.textContent)")
    assert heads == ["Place", "Player", "Points"]
    rows = page.eval_on_selector_all("#standings tbody tr", """els => els.map(r => [
        r.dataset.seat, r.querySelector('[data-col=place]').textContent,
        r.querySelector('.standings-name').textContent,
        r.querySelector('.tag-win')?.textContent ?? '',
        r.querySelector('.standings-detail').textContent,
        r.querySelector('[data-col=measure]').textContent])""")
    # bob: grass patch left open, 1 bulge x 2 + gold 1 + silver 1 = 4; ann: snake, 2 x 1
    assert rows == [["1", "1", "bob", "winner", "4 from 1 feature unfinished at the end", "4"],
                    ["0", "2", "ann", "", "2 from 1 feature unfinished at the end", "2"]]
    log = page.text_content("#score-log")
    assert "+4" in log and "+2" in log and "+0" not in log
    page.screenshot(path=str(artifacts_dir / "standings.png"))


def test_the_home_picture_and_the_rules_page(visitors, live_server, artifacts_dir):
    from ui.marram import pictures

    v = visitors(DESKTOP)
    page = v.page
    page.goto(f"{live_server.url}/")
    picture = '.showcase-card[data-game="marram"] .showcase-picture'
    page.wait_for_selector(f"{picture}[data-ready=true] svg.marram-picture")
    home = pictures.picture("home")
    drawn = page.eval_on_selector_all(f"{picture} svg g.tile", """els => els.map(e =>
        [+e.dataset.x, +e.dataset.y, e.dataset.tile, e.dataset.face, +e.dataset.rotation])""")
    assert sorted(drawn) == sorted([*t["at"], t["tile"], t["face"], t["rotation"]]
                                   for t in home["board"])
    page.locator(picture).screenshot(path=str(artifacts_dir / "home-picture.png"))

    page.click("text=The rules of Marram")
    page.wait_for_url(f"{live_server.url}/rules/marram/")
    for name in ("patch", "blue-snake", "flip", "pitchfork", "animals"):
        svg = page.locator(f'svg[data-picture="picture-{name}"]')
        svg.wait_for()
        assert svg.get_attribute("data-ready") == "true"
        assert svg.locator("g.tile").count() == len(pictures.picture(name)["board"])
        assert svg.locator("g.last-move").count() == len(pictures.picture(name)["outline"])
    page.screenshot(path=str(artifacts_dir / "rules.png"), full_page=True)

    # from a game page too
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    page = open_game(visitors, live_server, game, "ann").page
    page.click("a:has-text('Rules')")
    page.wait_for_url(f"{live_server.url}/rules/marram/")
    assert page.locator("h1").text_content() == "How to play Marram"
