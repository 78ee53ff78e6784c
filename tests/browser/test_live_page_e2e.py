"""An open game page follows by itself what a reload would show: with both
players' pages open, the last move ends the game and each page shows the whole
of the end at once (the standings, the rematch offer, the record to download, no
Resign, the seed revealed), and the rating changes, worked out by the worker
after the commit, arrive on both pages when they are made; a chat message, and
a rematch offered and accepted, reach the other player's open page. Each page
follows the game by polling and, as in production, through the stream server
(nginx in front of the live server and of it); a page that follows is never
reloaded."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from games import services as game_services
from games.models import Game
from ratings import services as ratings_services
from ratings.models import Rematch
from tests.browser.conftest import DESKTOP, PHONE, Visitor
from tests.browser.test_play_e2e import place_by_clicks
from tests.service.conftest import custom_game, make_user, start_game
from tests.service.proxy_kit import nginx
from tests.service.test_game_page_reads import ENDGAME, place, submit
from tests.service.test_stream import settled, stream_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

FOLLOWED = 20_000
"""How long a page may take to show what another player did, in ms (a poll
every 3 s; the stream at once)."""
END_PARTS = ("#game-links", "#game-end", "#fairness")


@dataclass
class Site:
    url: str
    stream: int | None = None
    """The stream server's port, if the pages listen to one."""

    def listening(self, pages: int) -> None:
        """Wait until the stream server holds the streams of that many pages."""
        if self.stream is not None:
            settled(self.stream, pages)


@pytest.fixture(params=["polling", "stream"])
def site(request: Any, live_server: Any, settings: Any) -> Iterator[Site]:
    """The site: the live server itself, whose pages poll, or nginx in front of it
    and of a stream server, whose pages listen to the stream."""
    if request.param == "polling":
        yield Site(live_server.url)
        return
    settings.MARRAM_STREAM = True  # the commits publish, and the pages get a stream
    with stream_server(settings.REDIS_URL) as stream, \
            tempfile.TemporaryDirectory(prefix="marram-live-") as workdir, \
            nginx(Path(workdir), [live_server.url.removeprefix("http://")],
                  streams=[f"127.0.0.1:{stream}"]) as front:
        yield Site(f"http://127.0.0.1:{front}", stream)


@pytest.fixture
def people(chromium: Any, site: Site) -> Iterator[Callable[..., Visitor]]:
    """Each person's browser, signed in at the site."""
    made: list[Visitor] = []

    def make(username: str, viewport: dict[str, int] = DESKTOP) -> Visitor:
        visitor = Visitor(chromium, site.url, viewport)
        made.append(visitor)
        visitor.sign_in(username)
        return visitor

    yield make
    for visitor in made:
        visitor.close()


def open_page(visitor: Visitor, game: Game) -> Any:
    """The game's page, drawn, marked so that a reload would be seen."""
    page = visitor.page
    page.goto(f"{visitor.base}/games/{game.pk}/")
    return drawn(page)


def drawn(page: Any) -> Any:
    """The page, once its script has drawn it, marked so that a reload would be seen."""
    page.wait_for_selector("#game[data-ready=true]")
    page.evaluate("() => { window.neverReloaded = true; }")
    return page


def not_reloaded(page: Any) -> bool:
    return page.evaluate("() => window.neverReloaded === true")


def parts_text(page: Any, selectors: tuple[str, ...]) -> dict[str, str]:
    return {s: " ".join(page.locator(s).inner_text().split()) for s in selectors}


def test_the_end_arrives_whole_on_both_pages_and_the_rating_changes_after_it(
        site, people, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = custom_game([ann, bob], ENDGAME, ["B", "A", "X1", "C", "X2", "X3"])
    submit(game, ann, place("B", (1, 0), {"side": 3}))
    submit(game, ann, place("A", (0, 1)))
    a, b = open_page(people("ann"), game), open_page(people("bob", PHONE), game)
    site.listening(2)
    for page in (a, b):
        assert page.locator("details.resign").count() == 1
        assert "revealed when the game is over" in page.locator("#fairness").inner_text()

    # bob lays the last tile that fits: the server passes to the end
    place_by_clicks(b, {"tile": "C", "face": "front", "at": [1, 1], "rotation": 0}, None)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    for page in (b, a):  # bob's by the move's answer, ann's by following the game
        page.locator("#final-standings").wait_for(state="visible", timeout=FOLLOWED)
        page.get_by_role("link", name="Download the record").wait_for(timeout=FOLLOWED)
        assert game.seed in page.locator("#fairness").inner_text()
        assert page.locator("details.resign").count() == 0
        assert page.get_by_role("button", name="Offer a rematch").is_visible()
        # the worker has not rated the game yet
        assert "being updated" in page.locator("#rating-changes").inner_text()

    ratings_services.ratings_update(game.pk)  # the worker's task, after the commit
    for page in (a, b):
        page.locator("#rating-changes tbody tr").nth(1).wait_for(timeout=FOLLOWED)
        assert page.locator('#rating-changes tr[data-player="bob"] .rating-delta').count() == 1
    kind = "polling" if site.stream is None else "stream"
    a.screenshot(path=str(artifacts_dir / f"live-end-{kind}.png"), full_page=True)
    for page in (a, b):
        assert not_reloaded(page)
        live = parts_text(page, END_PARTS)
        page.reload()
        page.wait_for_selector("#game[data-ready=true]")
        assert parts_text(page, END_PARTS) == live  # what a reload shows, no more


def chat_texts(page: Any) -> list[str]:
    return [t.inner_text() for t in page.locator("#chat .chat-text").all()]


def say(page: Any, text: str) -> None:
    """Post to the chat by its form, as a player does: the page stays where it is
    (no reload), its chat shows the line, and the box is empty for the next."""
    lines = page.locator("#chat .chat-message")
    before = lines.count()
    page.get_by_label("Message").fill(text)
    page.get_by_role("button", name="Send").click()
    lines.nth(before).wait_for(timeout=FOLLOWED)
    assert page.get_by_label("Message").input_value() == ""
    assert not_reloaded(page)


def test_a_chat_message_reaches_the_other_players_open_page(site, people):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    a, b = open_page(people("ann"), game), open_page(people("bob", PHONE), game)
    site.listening(2)
    assert b.locator("#chat").get_attribute("open") is None  # no message yet

    a.locator("#chat summary").click()
    say(a, "good luck, bob")
    # bob's page shows it by itself, the chat opened to it
    b.locator("#chat .chat-message").first.wait_for(timeout=FOLLOWED)
    assert chat_texts(b) == ["good luck, bob"]
    assert b.locator("#chat").get_attribute("open") is not None
    assert "(1)" in b.locator("#chat summary").inner_text()
    assert not_reloaded(b)

    site.listening(2)
    say(b, "thanks!")
    a.locator("#chat .chat-message").nth(1).wait_for(timeout=FOLLOWED)
    assert chat_texts(a) == ["good luck, bob", "thanks!"]
    assert a.locator("#chat .chat-message.mine .chat-text").inner_text() == "good luck, bob"
    assert not_reloaded(a)


def test_a_refused_chat_line_is_said_in_the_form_and_kept(site, people):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    visitor = people("ann", PHONE)
    visitor.expect_refusal(400, f"/games/{game.pk}/chat/")
    a = open_page(visitor, game)
    a.locator("#chat summary").click()
    a.get_by_label("Message").fill("   ")  # only spaces: the server refuses it
    a.get_by_role("button", name="Send").click()
    said = a.locator("#chat .in-place-error")
    said.wait_for(timeout=FOLLOWED)
    assert said.inner_text() == "The message is empty."
    assert said.get_attribute("role") == "alert"
    assert a.get_by_label("Message").input_value() == "   "
    assert not_reloaded(a)
    say(a, "hello")  # the next line goes, and the error is gone
    assert a.locator("#chat .in-place-error").count() == 0
    assert chat_texts(a) == ["hello"]


def test_a_rematch_offered_and_accepted_reaches_the_other_players_open_page(site, people):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    game_services.game_resign(game=game, user=bob)
    a, b = open_page(people("ann"), game), open_page(people("bob", PHONE), game)
    site.listening(2)

    b.get_by_role("button", name="Offer a rematch").click()
    b.wait_for_url(f"**/games/{game.pk}/")
    drawn(b)
    # ann's page offers it to her by itself
    accept = a.get_by_role("button", name="Accept the rematch")
    accept.wait_for(timeout=FOLLOWED)
    assert "bob offered a rematch." in a.locator("#rematch-status").inner_text()
    assert not_reloaded(a)

    site.listening(2)
    accept.click()
    a.wait_for_url(lambda url: f"/games/{game.pk}/" not in url)
    new = Rematch.objects.get(game=game).new_game
    assert new is not None and a.url.endswith(f"/games/{new.pk}/")
    # bob, who offered it, sees it accepted and the new game's link
    b.get_by_role("link", name=f"game {new.pk}").wait_for(timeout=FOLLOWED)
    assert "Rematch accepted by everyone" in b.locator("#rematch-status").inner_text()
    assert not_reloaded(b)
