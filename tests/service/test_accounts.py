"""Accounts and the small texts around a game: signing up from an invitation,
the link to pass on, the account pages (email, password change and reset by
mail), resigning with a confirmation that says what it does, the clock and the
not-your-turn message in words."""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.core import mail
from django.test import Client

from games import services
from games.models import Event, Game, Invitation
from games.pages.reads import clock_text, move_clock, page_state, time_words
from notifications import vacations
from tests.service.conftest import body, client_for, make_user, seat_user, signed_in, start_game
from tests.service.mail_kit import eager_tasks, freeze_time, play_turn
from web.errors import NotYourTurn

pytestmark = pytest.mark.django_db

SEED = "5eed" * 16  # the players sit in the order given
PASSWORD = "dune-grass-42"  # make_user's
BASE = "https://marram.example"



def text(response) -> str:
    return response.content.decode()


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def ann(db):
    return make_user("ann")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def cyd(db):
    return make_user("cyd")


@pytest.fixture(autouse=True)
def site_address(settings):
    settings.MARRAM_BASE_URL = BASE


# ---------------------------------------------------------------- invitations


def test_signing_up_from_an_invitation_comes_back_to_it(ann):
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    [link] = body(client_for(ann).post(f"/api/games/{game.pk}/invite/", {}, format="json"))
    page = f"/invitations/{link['token']}/"
    visitor = Client()
    to_sign_in = visitor.get(page)
    assert to_sign_in["Location"] == f"/accounts/login/?next={page}"
    sign_in = text(visitor.get(to_sign_in["Location"]))
    signup_url = f"/accounts/signup/?next={page}"
    assert f'href="{signup_url}"' in sign_in
    form = text(visitor.get(signup_url))
    assert f'name="next" value="{page}"' in form
    assert f'href="/accounts/login/?next={page}"' in form  # and back

    answer = visitor.post("/accounts/signup/", {
        "username": "eve", "email": "eve@example.org", "password1": PASSWORD,
        "password2": PASSWORD, "next": page})
    assert answer.status_code == 302 and answer["Location"] == page
    shown = visitor.get(page)
    assert "ann invites you" in text(shown) and "Take the seat" in text(shown)
    assert visitor.post(page).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert Invitation.objects.get(token=link["token"]).accepted_by.username == "eve"


def test_the_headers_sign_up_and_sign_in_keep_the_invitation_too(ann):
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    [link] = body(client_for(ann).post(f"/api/games/{game.pk}/invite/", {}, format="json"))
    page = f"/invitations/{link['token']}/"
    visitor = Client()
    # the sign-in page the invitation sends a visitor to: its header's Sign up button
    header = text(visitor.get(f"/accounts/login/?next={page}")).split("</header>", 1)[0]
    assert f'href="/accounts/signup/?next={page}">Sign up</a>' in header
    header = text(visitor.get(f"/accounts/signup/?next={page}")).split("</header>", 1)[0]
    assert f'href="/accounts/login/?next={page}">Sign in</a>' in header
    # and never to another site
    header = text(visitor.get("/accounts/login/?next=https://evil.example/"))
    assert "evil" not in header.split("</header>", 1)[0]


@pytest.mark.parametrize("elsewhere", ["https://evil.example/", "//evil.example/x"])
def test_sign_up_never_sends_on_to_another_site(db, elsewhere):
    visitor = Client()
    assert "evil" not in text(visitor.get("/accounts/signup/", {"next": elsewhere}))
    answer = visitor.post("/accounts/signup/", {
        "username": "eve", "email": "eve@example.org", "password1": PASSWORD,
        "password2": PASSWORD, "next": elsewhere})
    assert answer.status_code == 302 and answer["Location"] == "/lobby/"


def test_the_link_to_pass_on_is_the_invitation_page_from_the_site_address(ann, bob):
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    answer = client_for(ann).post(f"/api/games/{game.pk}/invite/", {}, format="json")
    assert answer.status_code == 201
    [link] = body(answer)
    assert link["url"] == f"{BASE}/invitations/{link['token']}/"
    # what a browser makes of it: the page, not the API's 401
    path = link["url"].removeprefix(BASE)
    page = signed_in(bob).get(path)
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    assert "Take the seat" in text(page)


def test_mailed_invitations_from_the_api_link_to_the_page_too(ann, settings,
                                                              django_capture_on_commit_callbacks):
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        [invited] = body(client_for(ann).post(f"/api/games/{game.pk}/invite/",
                                              {"emails": ["zed@example.org"]}, format="json"))
    assert invited["url"] == f"{BASE}/invitations/{invited['token']}/"
    [sent] = mail.outbox
    assert invited["url"] in sent.body and "/api/" not in sent.body


def test_the_waiting_page_makes_and_shows_links_to_pass_on(ann, bob, cyd):
    game = services.game_create(user=ann, variant="classic", length="long", seats=3)
    client = signed_in(ann)
    page = text(client.get(f"/games/{game.pk}/"))
    assert "Make a link to pass on" in page and "data-copy=" not in page
    made = client.post(f"/games/{game.pk}/invite/link/", follow=True)
    assert "Here is a link to pass on" in text(made)
    [invitation] = Invitation.objects.filter(game=game)
    url = f"{BASE}/invitations/{invitation.token}/"
    page = text(client.get(f"/games/{game.pk}/"))
    field = re.search(r'<input id="(invite-link-1)" class="copy-source" type="text" readonly '
                      r'value="([^"]+)">', page)
    assert field and field.group(2) == url
    assert f'data-copy="{field.group(1)}"' in page and ">Copy</button>" in page
    assert "Make another link" in page and "games/copy.js" in page
    # a player sees only their own links, and a used link is gone
    services.game_join(game=game, user=bob)
    assert invitation.token not in text(signed_in(bob).get(f"/games/{game.pk}/"))
    services.invitation_accept(token=invitation.token, user=cyd)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert invitation.token not in text(client.get(f"/games/{game.pk}/"))


def test_only_a_player_of_an_open_game_makes_a_link(ann, bob, cyd):
    game = services.game_create(user=ann, variant="classic", length="long", seats=2)
    refused = signed_in(cyd).post(f"/games/{game.pk}/invite/link/", follow=True)
    assert refused.status_code == 200
    assert "You have no seat in this game." in messages_of(refused)
    services.game_join(game=game, user=bob)
    refused = signed_in(ann).post(f"/games/{game.pk}/invite/link/", follow=True)
    assert "Only an open game takes invitations." in messages_of(refused)
    assert not Invitation.objects.exists()
    assert signed_in(ann).get(f"/games/{game.pk}/invite/link/").status_code == 405


# ---------------------------------------------------------------- the account menu and pages


def test_the_account_menu_links_every_account_page(ann):
    page = text(signed_in(ann).get("/games/"))
    menu = page[page.index('id="account-menu"'):page.index("</details>")]
    for href, name in [("/settings/notifications/", "Mail settings"),
                       ("/settings/notifications/#vacation", "Vacation"),
                       ("/accounts/email/", "Change email"),
                       ("/accounts/password/", "Change password"),
                       ("/accounts/password/reset/", "Reset password by mail")]:
        assert f'<a href="{href}">{name}</a>' in menu
    assert "Sign out" in menu
    assert 'id="vacation"' in text(signed_in(ann).get("/settings/notifications/"))
    for url in ("/accounts/email/", "/accounts/password/"):
        assert signed_in(ann).get(url).status_code == 200
        assert Client().get(url)["Location"] == f"/accounts/login/?next={url}"


def test_a_session_signed_in_before_the_backend_moved_stays_signed_in(ann, settings):
    # a session written before the sign-in backend moved to the accounts app
    # names the old path, which Django would sign out; the migration renames it
    migration = import_module("accounts.migrations.0001_sessions_backend_moved")
    old = SessionStore()
    old.update({SESSION_KEY: str(ann.pk), BACKEND_SESSION_KEY: migration.OLD,
                HASH_SESSION_KEY: ann.get_session_auth_hash()})
    old.create()
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = old.session_key
    assert client.get("/games/").status_code == 302  # signed out: the old path is gone
    assert migration.backend_renamed(apps, migration.OLD, migration.NEW) == 1
    assert client.get("/games/").status_code == 200
    assert migration.backend_renamed(apps, migration.OLD, migration.NEW) == 0


@pytest.mark.parametrize("email, password, error", [
    ("ann@new.example", "wrong-password", "That is not your password"),
    ("not an address", PASSWORD, "Enter a valid email address"),
    ("ANN@example.org", PASSWORD, "That is already your address"),
])
def test_changing_email_needs_the_password_and_a_new_address(ann, email, password, error):
    answer = signed_in(ann).post("/accounts/email/", {"email": email, "password": password})
    assert answer.status_code == 400 and error in text(answer)
    ann.refresh_from_db()
    assert ann.email == "ann@example.org"


def test_changing_email(ann):
    client = signed_in(ann)
    answer = client.post("/accounts/email/", {"email": "ann@new.example", "password": PASSWORD},
                         follow=True)
    assert "Your mail now goes to ann@new.example." in messages_of(answer)
    assert "<strong>ann@new.example</strong>" in text(answer)
    ann.refresh_from_db()
    assert ann.email == "ann@new.example"


def test_changing_the_password(ann):
    client = signed_in(ann)
    wrong = client.post("/accounts/password/", {"old_password": "nope",
                                                "new_password1": "sea-holly-77",
                                                "new_password2": "sea-holly-77"})
    assert wrong.status_code == 400 and "error-text" in text(wrong)
    answer = client.post("/accounts/password/", {"old_password": PASSWORD,
                                                 "new_password1": "sea-holly-77",
                                                 "new_password2": "sea-holly-77"})
    assert answer["Location"] == "/accounts/password/changed/"
    assert "Password changed" in text(client.get(answer["Location"]))
    assert client.get("/games/").status_code == 200  # still signed in here
    ann.refresh_from_db()
    assert ann.check_password("sea-holly-77")


def reset_link(message) -> str:
    found = re.search(r"https?://\S+/accounts/password/reset/\S+/\S+/", message.body)
    assert found, message.body
    return found.group(0)


def test_a_password_reset_by_mail(ann):
    visitor = Client()
    assert "Forgotten your password?" in text(visitor.get("/accounts/login/"))
    answer = visitor.post("/accounts/password/reset/", {"email": "ann@example.org"})
    assert answer["Location"] == "/accounts/password/reset/sent/"
    assert "Check your mail" in text(visitor.get(answer["Location"]))
    [sent] = mail.outbox
    assert sent.to == ["ann@example.org"] and sent.subject == "Reset your marram password"
    link = reset_link(sent)
    assert link.startswith(f"{BASE}/accounts/password/reset/")  # the site's address
    form = visitor.get(link.removeprefix(BASE), follow=True)
    assert "Set a new password" in text(form)
    done = visitor.post(form.redirect_chain[-1][0], {"new_password1": "sea-holly-77",
                                                     "new_password2": "sea-holly-77"})
    assert done["Location"] == "/accounts/password/reset/done/"
    ann.refresh_from_db()
    assert ann.check_password("sea-holly-77")
    again = Client().get(link.removeprefix(BASE), follow=True)
    assert again.status_code == 400 and "This link does not work" in text(again)
    # nor does a password the rules refuse, on a link that works
    visitor.post("/accounts/password/reset/", {"email": "ann@example.org"})
    form = visitor.get(reset_link(mail.outbox[-1]).removeprefix(BASE), follow=True)
    short = visitor.post(form.redirect_chain[-1][0], {"new_password1": "sea",
                                                      "new_password2": "sea"})
    assert short.status_code == 400 and "error-text" in text(short)
    ann.refresh_from_db()
    assert ann.check_password("sea-holly-77")


def test_a_reset_for_an_unknown_address_says_the_same_and_mails_nobody(db):
    answer = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert answer["Location"] == "/accounts/password/reset/sent/"
    assert mail.outbox == []
    refused = Client().post("/accounts/password/reset/", {"email": "not an address"})
    assert refused.status_code == 400 and "Enter a valid email address" in text(refused)
    assert mail.outbox == []


# ---------------------------------------------------------------- resigning


def test_resigning_from_a_two_player_game_asks_first_and_says_it_ends(ann, bob):
    game = start_game([ann, bob], seed=SEED)
    client = signed_in(ann)
    page = text(client.get(f"/games/{game.pk}/"))
    assert "If you resign, the game ends now and bob wins." in page
    assert "play on" not in page
    confirm = client.get(f"/games/{game.pk}/resign/")
    assert confirm.status_code == 200
    assert "If you resign, the game ends now and bob wins." in text(confirm)
    assert "Resign and end the game" in text(confirm) and "Keep playing" in text(confirm)
    assert Event.objects.filter(game=game, type="resign").count() == 0  # asking changes nothing
    done = client.post(f"/games/{game.pk}/resign/", follow=True)
    assert messages_of(done) == ["You resigned: the game is over and bob wins."]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_resigning_from_a_three_player_game_lets_the_others_play_on(ann, bob, cyd):
    game = start_game([ann, bob, cyd], seed=SEED)
    confirm = text(signed_in(ann).get(f"/games/{game.pk}/resign/"))
    assert "bob and cyd play on without you" in confirm and "ends now" not in confirm
    done = signed_in(ann).post(f"/games/{game.pk}/resign/", follow=True)
    assert messages_of(done) == ["You resigned: the others play on without you."]
    # ann has resigned: nothing to confirm for her; for bob, the two left
    again = signed_in(ann).get(f"/games/{game.pk}/resign/", follow=True)
    assert "You cannot resign from this game" in messages_of(again)[0]
    assert "Resign from this game" not in text(again)
    assert "the game ends now and cyd wins" in text(signed_in(bob).get(f"/games/{game.pk}/"))


def test_only_a_player_still_playing_is_asked_to_resign(ann, bob, cyd):
    game = start_game([ann, bob], seed=SEED)
    answer = signed_in(cyd).get(f"/games/{game.pk}/resign/", follow=True)
    assert "You cannot resign from this game" in messages_of(answer)[0]
    refused = signed_in(cyd).post(f"/games/{game.pk}/resign/", follow=True)
    assert messages_of(refused) == ["You have no seat in this game."]
    assert signed_in(cyd).get("/games/999999/resign/").status_code == 404
    assert not Event.objects.filter(type="resign").exists()


# ---------------------------------------------------------------- not your turn


def test_not_your_turn_names_the_player_the_game_waits_for(ann, bob):
    game = start_game([ann, bob], seed=SEED)
    state = body(client_for(ann).get(f"/api/games/{game.pk}/"))
    place = next(a for a in state["legal_actions"] if a["type"] == "place")
    before = Event.objects.filter(game=game).count()
    answer = client_for(bob).post(f"/api/games/{game.pk}/actions/",
                                  {"seq": game.seq, "action": {**place, "player": 1}},
                                  format="json")
    assert answer.status_code == 403
    assert body(answer) == {"code": "not_your_turn",
                            "message": "it is not your turn: the game waits for ann to move"}
    # the claims for a move are refused the same way, not with the engine's seat number
    claims = client_for(bob).post(f"/api/games/{game.pk}/claims/",
                                  {"action": {**place, "player": 1}}, format="json")
    assert claims.status_code == 403
    assert body(claims)["message"] == "it is not your turn: the game waits for ann to move"
    assert Event.objects.filter(game=game).count() == before


def test_not_your_turn_for_a_guess_names_the_guesser():
    from engine.protocol import Awaiting, Task

    guess = Task(2, "guess", "guess how many hops the fly makes", {"creature": "fly"},
                 "guess the fly's hops")  # as the Marram adapter says it
    refused = NotYourTurn.waiting_for(Awaiting.seats(guess), ["ann", "bob", "cyd"])
    assert refused.message == "it is not your turn: the game waits for cyd to guess the fly's hops"
    assert refused.status == 403 and refused.code == "not_your_turn"


# ---------------------------------------------------------------- the clock in words


@pytest.mark.parametrize("seconds, words", [
    (6 * 86400, "6 days"),
    (6 * 86400 - 60, "6 days"),  # to the nearest hour, never "5 days" for a full bank
    (5 * 86400 + 23 * 3600, "5 days 23 hours"),
    (86400 + 3600, "1 day 1 hour"),
    (7 * 3600 + 100, "7 hours"),
    (3599, "59 minutes"),
    (40 * 60, "40 minutes"),
    (20, "1 minute"),
])
def test_time_left_in_words(seconds, words):
    assert time_words(seconds) == words


def test_the_clock_says_what_is_left_and_what_a_turn_adds():
    assert clock_text(3, 6 * 86400) == (
        "6 days left on the clock. Each turn played in time adds 3 days, up to 9 days.")
    assert clock_text(1, 86400 / 2) == (
        "12 hours left on the clock. Each turn played in time adds 1 day, up to 3 days.")
    assert clock_text(3, None) == (
        "6 days on the clock to begin with. Each turn played in time adds 3 days, up to 9 days.")
    assert clock_text(3, -5).startswith("No time left on the clock")


def test_a_timed_game_page_tells_the_clock_of_the_player_to_move(ann, bob, monkeypatch):
    now = freeze_time(monkeypatch)
    game = services.game_create(user=ann, variant="classic", length="long", seats=2,
                                days_per_move=3)
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    to_move = seat_user(game, 0)
    assert page_state(game, to_move)["clock"]["text"] == (
        "6 days left on the clock. Each turn played in time adds 3 days, up to 9 days.")
    now.advance(days=1, hours=2)
    play_turn(game)  # seat 0 banks 6 days - 26 hours + 3 days: 7 days 22 hours
    now.advance(hours=5)
    game.refresh_from_db()
    assert move_clock(game)["text"].startswith("5 days 19 hours left on the clock.")
    vacations.vacation_start(user=seat_user(game, 1), days=2)
    now.advance(days=1)
    assert move_clock(game)["text"] == (
        "5 days 19 hours left on the clock. It stands still while they are on vacation. "
        "Each turn played in time adds 3 days, up to 9 days.")
    now.advance(days=1, hours=1)  # back from vacation an hour ago
    game.refresh_from_db()
    assert move_clock(game)["text"].startswith("5 days 18 hours left")
    now.advance(days=6)
    assert move_clock(game)["text"].startswith("No time left on the clock")


def test_an_untimed_game_has_no_clock(ann, bob):
    game = start_game([ann, bob], seed=SEED)
    assert page_state(game, ann)["clock"] is None


@pytest.mark.parametrize("url, data", [
    ("/accounts/email/", {"email": "a\x00@example.org", "password": PASSWORD}),
    ("/accounts/email/", {"email": "x" * 5000 + "@example.org", "password": "p\x00"}),
    ("/accounts/email/", {"email": ["a@b.org", "c@d.org"]}),
    ("/accounts/password/", {"old_password": "\x00", "new_password1": "y" * 10_000}),
    ("/accounts/password/reset/", {"email": "\x00"}),
    ("/accounts/password/reset/%00/%00/", {"new_password1": "a", "new_password2": "a"}),
    ("/accounts/password/reset/MQ/set-password/", {}),
    ("/accounts/signup/?next=%00", {"username": "eve\x00", "next": "\x00"}),
    ("/games/999999/resign/", {}),
    ("/games/999999/invite/link/", {"junk": "\x00"}),
])
def test_bad_input_to_the_account_forms_changes_nothing(ann, bob, url, data):
    start_game([ann, bob], seed=SEED)
    before = (Event.objects.count(), Invitation.objects.count(), len(mail.outbox))
    for client in (signed_in(ann), Client()):
        answer = client.post(url, data)
        assert answer.status_code < 500, (url, answer.status_code)
        assert answer.status_code in (200, 302, 400, 404), answer.status_code
    ann.refresh_from_db()
    assert ann.email == "ann@example.org" and ann.check_password(PASSWORD)
    assert (Event.objects.count(), Invitation.objects.count(), len(mail.outbox)) == before


def test_reset_mails_to_one_address_are_limited_without_telling_whether_it_has_an_account(ann):
    # three reset mails an hour to one address, whoever asks: the fourth asker,
    # from another client address, is answered as the others were, but nothing goes
    for n in range(4):
        answer = Client(REMOTE_ADDR=f"203.0.113.{n + 1}").post(
            "/accounts/password/reset/", {"email": "ann@example.org"})
        assert answer["Location"] == "/accounts/password/reset/sent/"
    assert [m.to for m in mail.outbox] == [["ann@example.org"]] * 3


def test_reset_requests_from_one_client_address_are_limited(db):
    asker = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(10):  # ten an hour from one address, to any addresses
        answer = asker.post("/accounts/password/reset/", {"email": f"x{n}@example.org"})
        assert answer.status_code == 302
    refused = asker.post("/accounts/password/reset/", {"email": "x10@example.org"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "too many password resets" in text(refused).lower()
