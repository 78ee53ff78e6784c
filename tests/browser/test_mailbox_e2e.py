"""Reply-by-mail tried in a browser with nothing but the site (the mail page of
./dev run): ann reads her "your move" mail, answers it with a move in the
notation, reads the site's answer, and finds the move on the game page.

The reply goes in through notifications.inbound, as one by SMTP or the webhook
would; mail is delivered by the outbox's own task, run in-process as ./dev run
does, into Django's test outbox.
"""

from __future__ import annotations

import re

import pytest

from engine import marram as engine
from engine.marram.notation import format_action
from games import services
from games.models import Event
from games.selectors import game_state_get, invitation_url
from notifications import devmail
from notifications import services as notes
from notifications.models import GameVisit, InboundMail, Notification
from notifications.services import game_viewed_forget
from notifications.signing import reply_address
from tests.browser.conftest import DESKTOP
from tests.service.conftest import make_user, play, start_game
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "5a1d0ce5" * 8


@pytest.fixture
def eager(settings):
    with eager_tasks(settings):
        yield


def test_a_player_answers_her_turn_mail_on_the_mail_page(eager, visitors, live_server,
                                                         artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=SEED)
    turn = Notification.objects.get(user=ann, kind="your_turn")
    assert turn.status == "sent"  # delivered by the task, as in ./dev run
    address = reply_address(game.pk, 0, game.seq)
    state = game_state_get(game)
    place = next(a for a in engine.legal_actions(state) if a["type"] == "place")
    move = format_action(place)

    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Mail").click()
    page.wait_for_url(f"{live_server.url}/mail/")
    mail = page.locator("article.mail", has=page.get_by_role(
        "heading", name=f"Marram game {game.pk}: your move"))
    assert mail.count() == 1
    assert address in mail.locator(".mail-reply-to").text_content()
    assert "It is your turn: move 1 of 2." in mail.locator(".mail-body").text_content()
    board = mail.get_by_role("img")
    assert "Open places" in board.get_attribute("alt")
    board.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 200",
                           arg=board.element_handle())
    page.screenshot(path=str(artifacts_dir / "mail-page.png"), full_page=True)

    mail.get_by_role("link", name="Reply").click()
    to = page.get_by_label("To")
    assert to.input_value() == address
    body = page.get_by_label("Your reply")
    quoted = body.input_value()
    assert quoted.startswith("\n\nOn ") and "> Hello ann," in quoted
    assert page.get_by_label("Subject").input_value() == \
        f"Re: Marram game {game.pk}: your move"
    body.click()
    page.keyboard.press("Control+Home")
    page.keyboard.type(move)
    assert body.input_value().startswith(move + "\n\nOn ")
    page.get_by_role("button", name="Send").click()

    page.wait_for_url(f"{live_server.url}/mail/")
    assert f"The site played {move}" in page.locator(".messages").text_content()
    answer = page.locator("article.mail", has=page.get_by_role(
        "heading", name=f"Re: Marram game {game.pk}: your move"))
    assert answer.count() == 1
    text = answer.locator(".mail-body").text_content()
    assert text.startswith(f"Played in Marram game {game.pk}: {move}")
    # what the game asks next, in its own words (the Marram adapter's turn_mail)
    assert "It is your turn: move 2 of 2. Reply with your move on the first line." in text
    # the answer asks for the second move with its own picture and reply address
    game.refresh_from_db()
    assert reply_address(game.pk, 0, game.seq) in answer.locator(".mail-reply-to").text_content()
    assert answer.get_by_role("img").count() == 1
    assert answer.get_by_role("link", name="Reply").count() == 1
    page.screenshot(path=str(artifacts_dir / "mail-answered.png"), full_page=True)

    [received] = InboundMail.objects.all()
    assert (received.sender, received.recipient, received.outcome) == \
        (ann.email, address, "played")
    played = Event.objects.filter(game=game, actor=ann).order_by("-seq").first()
    assert played.payload == {**place, "claim": None}

    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    x, y = place["at"]
    tile = page.locator(f'g.tile[data-x="{x}"][data-y="{y}"]')
    assert tile.get_attribute("data-tile") == place["tile"]
    assert tile.get_attribute("data-face") == place["face"]
    assert tile.get_attribute("data-rotation") == str(place["rotation"])


def _reply_on_the_mail_page(page, live_server, mail, move: str) -> None:
    """Answer ``mail`` (a locator of its article) on the mail page with ``move``."""
    mail.get_by_role("link", name="Reply").click()
    body = page.get_by_label("Your reply")
    body.click()
    page.keyboard.press("Control+Home")
    page.keyboard.type(move)
    page.get_by_role("button", name="Send").click()
    page.wait_for_url(f"{live_server.url}/mail/")
    assert f"The site played {move}" in page.locator(".messages").text_content()


def _next_move(game) -> str:
    game.refresh_from_db()
    state = game_state_get(game)
    return format_action(next(a for a in engine.legal_actions(state) if a["type"] == "place"))


def test_a_player_who_played_by_mail_gets_her_next_turn_mail(eager, visitors, live_server):
    """Ann looks at the game page, then plays her whole turn by mail a little
    later: her page visit is no sign that she is looking at the game once she has
    played by mail since, so the mail of her next turn is not held back, as the
    answer to her move promised."""
    game_viewed_forget()
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=SEED)
    your_move = f"Marram game {game.pk}: your move"

    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    assert GameVisit.objects.filter(user=ann, game=game).exists()

    page.goto(f"{live_server.url}/mail/")
    turn = page.locator("article.mail", has=page.get_by_role("heading", name=your_move,
                                                             exact=True))
    _reply_on_the_mail_page(page, live_server, turn, _next_move(game))
    first_answer = page.locator("article.mail", has=page.get_by_role(
        "heading", name=f"Re: {your_move}")).first
    _reply_on_the_mail_page(page, live_server, first_answer, _next_move(game))
    last_answer = page.locator("article.mail", has=page.get_by_role(
        "heading", name=f"Re: {your_move}")).first
    assert "You will get a mail when it is your turn again" in \
        last_answer.locator(".mail-body").text_content()

    # bob plays his turn at once, well within two minutes of ann's page visit
    play(game, until=lambda state: engine.awaiting(state)["player"] == 0)
    page.reload()
    turns = page.locator("article.mail", has=page.get_by_role("heading", name=your_move,
                                                              exact=True))
    assert turns.count() == 2, Notification.objects.filter(
        user=ann, kind="your_turn").values_list("status", "note")
    assert "It is your turn: move 1 of 2." in turns.first.locator(".mail-body").text_content()


@pytest.fixture
def mail_stays_here(settings, live_server, tmp_path):
    """./dev run's mail: the development backend, which sends nothing and keeps
    what the outbox does not hold for the mail page; links point at this site."""
    settings.EMAIL_BACKEND = devmail.BACKEND
    settings.MARRAM_DEV_MAIL_DIR = str(tmp_path / "dev-mail")
    settings.MARRAM_BASE_URL = live_server.url


def test_a_password_reset_and_an_invitation_are_read_on_the_mail_page_by_address(
        eager, mail_stays_here, visitors, live_server, artifacts_dir):
    """Signed out, ann has her password reset mailed and reads the mail on the mail
    page by her address; its link is a link, and sets her new password. Someone with
    no account reads the invitation mailed to them and follows its link."""
    ann = make_user("ann")
    v = visitors(DESKTOP)
    page = v.page
    page.goto(f"{live_server.url}/accounts/password/reset/")
    page.get_by_label("Email").fill(ann.email)
    page.get_by_role("button", name="Mail me a link").click()
    page.wait_for_url(f"{live_server.url}/accounts/password/reset/sent/")
    page.get_by_role("main").get_by_role("link", name="Mail page").click()
    page.wait_for_url(f"{live_server.url}/mail/")
    page.get_by_label("Mail sent to").fill(ann.email)
    page.get_by_role("button", name="Read").click()
    page.wait_for_url(f"{live_server.url}/mail/?to={ann.email.replace('@', '%40')}")
    [reset] = page.locator("article.mail").all()
    assert "ann" in reset.locator(".mail-body").text_content()
    link = reset.locator(".mail-body").get_by_role("link")
    assert link.count() == 1
    assert link.get_attribute("href").startswith(f"{live_server.url}/accounts/password/reset/")
    page.screenshot(path=str(artifacts_dir / "mail-by-address.png"), full_page=True)
    link.click()
    page.get_by_label("New password", exact=True).fill("sea-holly-77")
    page.get_by_label("New password confirmation").fill("sea-holly-77")
    page.get_by_role("button", name="Set my password").click()
    page.wait_for_url(f"{live_server.url}/accounts/password/reset/done/")
    ann.refresh_from_db()
    assert ann.check_password("sea-holly-77")
    assert not GameVisit.objects.exists()

    # ann's game mail is no stranger's to read by her address
    bob = make_user("bob")
    game = start_game([ann, bob], seed=SEED)
    assert Notification.objects.filter(user=ann, status="sent").exists()
    page.goto(f"{live_server.url}/mail/?to={ann.email}")
    assert f"Marram game {game.pk}" not in page.locator("main").text_content()

    open_game = services.game_create(user=bob, variant="classic", length="long", seats=2)
    services.game_invite(game=open_game, user=bob, emails=["newcomer@example.org"],
                         url_for=invitation_url)
    guest = visitors(DESKTOP).page
    guest.goto(f"{live_server.url}/games/")  # signed out: the header leads to the page
    guest.get_by_role("navigation", name="Main").get_by_role("link", name="Mail").click()
    guest.get_by_label("Mail sent to").fill("newcomer@example.org")
    guest.get_by_role("button", name="Read").click()
    invitation = guest.locator("article.mail", has=guest.get_by_role(
        "heading", name="bob invites you to a game of Marram"))
    join = invitation.locator(".mail-body").get_by_role("link", name=re.compile("invitations"))
    join.click()
    guest.wait_for_url(re.compile(r".*/accounts/login/\?next=/invitations/.*"))


def test_the_mail_pages_pictures_load_as_they_come_into_view(eager, visitors, live_server):
    """A mail box of a dozen turn mails: the page asks for the pictures near the
    screen as it loads, and for the others as they are scrolled to."""
    ann, bob = make_user("ann"), make_user("bob")
    notes.mail_settings_update(user=ann, policy="every_turn")
    game = start_game([ann, bob], seed=SEED)
    for _ in range(11):  # ann's next turn, and so on: a mail each
        play(game, until=lambda state: engine.awaiting(state)["player"] == 1)
        play(game, until=lambda state: engine.awaiting(state)["player"] == 0)
    mails = Notification.objects.filter(user=ann, kind="your_turn", status="sent").count()
    assert mails == 12

    v = visitors(DESKTOP)
    v.sign_in("ann")
    page = v.page
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/board.png") else None)
    page.goto(f"{live_server.url}/mail/", wait_until="load")
    pictures = page.locator("article.mail .mail-board img")
    assert pictures.count() == mails
    first = pictures.first
    assert first.get_attribute("loading") == "lazy"
    assert int(first.get_attribute("width")) > 200 and int(first.get_attribute("height")) > 200
    assert 1 <= len(asked) < mails / 2, asked
    last = pictures.last
    last.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 200",
                           arg=last.element_handle())
    oldest = Notification.objects.filter(user=ann, kind="your_turn").order_by("pk").first()
    assert asked[-1].endswith(f"/mail/{oldest.pk}/board.png")
