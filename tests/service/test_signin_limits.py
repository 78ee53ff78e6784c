"""Guessing passwords: failed password checks are limited per account and per
client address on every way in (the sign-in pages, the admin's, the API token,
a form that asks for the current password); past a limit the answer is a 429
saying when to try again, with Retry-After, and no password is hashed at all.
Hashing is bounded per process, and over-long passwords are never hashed."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth import get_user_model, hashers
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client
from rest_framework.test import APIClient

from accounts import passwords
from tests.service.conftest import body, make_user

pytestmark = pytest.mark.django_db

RIGHT, WRONG = "dune-grass-42", "guess-1234"
SIGN_IN_PAGES = ["/accounts/login/", "/admin/login/", "/api/auth/login/"]


@pytest.fixture
def hashed(monkeypatch) -> list[str]:
    """The passwords the hasher has actually hashed, in order."""
    seen: list[str] = []
    encode = hashers.MD5PasswordHasher.encode

    def spy(self, password, salt, *args, **kwargs):
        seen.append(password)
        return encode(self, password, salt, *args, **kwargs)

    monkeypatch.setattr(hashers.MD5PasswordHasher, "encode", spy)
    return seen


@pytest.fixture
def ann():
    return make_user("ann", staff=True)


def page_sign_in(url: str, username: str, password: str, address: str = "203.0.113.20"):
    return Client(REMOTE_ADDR=address).post(url, {"username": username, "password": password})


def signed_in(answer) -> bool:
    return answer.status_code == 302 and "_auth_user_id" in answer.client.session


def refused_as_wrong(answer) -> bool:
    """Answered as a wrong password (not throttled, not signed in): the form shown
    again saying so, a 400 on the site's pages (a refused form), the admin's 200."""
    status = 200 if answer.request["PATH_INFO"].startswith("/admin/") else 400
    return (answer.status_code == status and not signed_in(answer)
            and "correct username and password" in answer.content.decode())


def retry_after(answer) -> int:
    return int(answer["Retry-After"])


@pytest.mark.parametrize("url", SIGN_IN_PAGES)
def test_forty_wrong_passwords_then_the_right_one_is_refused(url, hashed):
    make_user("ann", staff=True)
    answers = [page_sign_in(url, "ann", f"{WRONG}{n}", f"203.0.113.{n}") for n in range(40)]
    # ten wrong guesses are answered as such (from any address: counted per account)
    assert all(refused_as_wrong(a) for a in answers[:10])
    refused = answers[10:]
    assert {a.status_code for a in refused} == {429}
    page = refused[-1].content.decode()
    assert "Too many failed sign-ins to this account lately: try again in " in page
    assert 0 < retry_after(refused[-1]) <= 15 * 60
    hashed.clear()
    right = page_sign_in(url, "ann", RIGHT)
    assert right.status_code == 429 and not signed_in(right)
    assert hashed == []  # refused before hashing


def test_guesses_from_one_address_are_limited_whatever_the_names(settings, hashed):
    settings.MARRAM_THROTTLE_RATES = {**settings.MARRAM_THROTTLE_RATES, "signin_address": "5/15m"}
    make_user("ann")
    for name in ("ann", "bob", "nobody", "cyd", "ann"):  # accounts that exist or not
        assert refused_as_wrong(page_sign_in("/accounts/login/", name, WRONG))
    hashed.clear()
    refused = page_sign_in("/accounts/login/", "dee", WRONG)
    assert refused.status_code == 429
    assert "Too many failed sign-ins from your address lately" in refused.content.decode()
    assert 0 < retry_after(refused) <= 15 * 60
    assert hashed == []  # not even the dummy hash Django makes for an unknown name
    # the account itself is not locked: from another address the right password works
    assert signed_in(page_sign_in("/accounts/login/", "ann", RIGHT, "198.51.100.1"))


def test_the_api_token_endpoint_is_limited_per_account(settings):
    make_user("ann")
    for n in range(10):
        wrong = APIClient(REMOTE_ADDR=f"198.51.100.{n}").post(
            "/api/auth/token/", {"username": "ann", "password": WRONG}, format="json")
        assert wrong.status_code == 400
    refused = APIClient(REMOTE_ADDR="198.51.100.99").post(
        "/api/auth/token/", {"username": "ann", "password": RIGHT}, format="json")
    assert refused.status_code == 429
    data = body(refused)
    assert data["code"] == "throttled" and "token" not in data
    assert data["message"].startswith(
        "too many failed sign-ins to this account lately: try again in ")
    assert 0 < retry_after(refused) <= 15 * 60
    # another account is not affected
    make_user("bob")
    bob = APIClient(REMOTE_ADDR="198.51.100.99").post(
        "/api/auth/token/", {"username": "bob", "password": RIGHT}, format="json")
    assert bob.status_code == 200 and body(bob)["token"]


def test_signing_in_does_not_use_up_the_limit(settings):
    make_user("ann")
    for _ in range(9):
        assert refused_as_wrong(page_sign_in("/accounts/login/", "ann", WRONG))
    for _ in range(15):  # only failures count
        assert signed_in(page_sign_in("/accounts/login/", "ann", RIGHT))
    assert refused_as_wrong(page_sign_in("/accounts/login/", "ann", WRONG))  # the tenth
    assert page_sign_in("/accounts/login/", "ann", RIGHT).status_code == 429


PASSWORD_FORMS = {
    # url: (the form with the password given, the words of a wrong one)
    "/accounts/password/": (lambda old: {"old_password": old, "new_password1": "marram-tide-77",
                                         "new_password2": "marram-tide-77"}, "incorrectly"),
    "/admin/password_change/": (lambda old: {
        "old_password": old, "new_password1": "marram-tide-77",
        "new_password2": "marram-tide-77"}, "incorrectly"),
    "/accounts/email/": (lambda old: {"email": "ann@new.example", "password": old},
                         "That is not your password"),
}


@pytest.mark.parametrize("url", PASSWORD_FORMS)
def test_a_form_asking_for_the_current_password_is_limited_too(url, ann, hashed):
    # These forms check the password without authenticate(): the hashers count the
    # check, against the signed-in account.
    form, wrong_words = PASSWORD_FORMS[url]
    client = Client(REMOTE_ADDR="203.0.113.30")
    client.force_login(ann)
    for n in range(10):
        wrong = client.post(url, form(f"{WRONG}{n}"))
        # a refused form is shown again with a 400, as every form of the site is
        # (the admin's own forms keep Django's 200)
        assert wrong.status_code == (200 if url.startswith("/admin/") else 400)
        assert wrong_words in wrong.content.decode()
    hashed.clear()
    refused = client.post(url, form(RIGHT))
    assert refused.status_code == 429
    assert "Too many failed sign-ins to this account lately" in refused.content.decode()
    assert 0 < retry_after(refused) <= 15 * 60
    assert hashed == []
    ann.refresh_from_db()
    assert ann.check_password(RIGHT) and ann.email == "ann@example.org"  # unchanged
    # the same account's sign-in is refused too: one count per account
    assert page_sign_in("/accounts/login/", "ann", RIGHT, "198.51.100.7").status_code == 429


@pytest.fixture
def slot_taken(settings) -> Iterator[Callable[[], None]]:
    """The process's only hashing slot held by another thread, as during a hash;
    calling the fixture's value frees it."""
    settings.MARRAM_PASSWORD_HASHING_SLOTS = 1
    settings.MARRAM_PASSWORD_HASHING_WAIT = 0
    holding, done = threading.Event(), threading.Event()

    def hold() -> None:
        with passwords.hashing_slot():
            holding.set()
            done.wait(30)

    thread = threading.Thread(target=hold)
    thread.start()
    assert holding.wait(30)

    def release() -> None:
        done.set()
        thread.join()

    yield release
    release()


def test_no_more_hashing_at_once_than_the_process_allows(ann, slot_taken, hashed):
    busy = page_sign_in("/accounts/login/", "ann", RIGHT)
    assert busy.status_code == 503 and retry_after(busy) == 1 and not signed_in(busy)
    assert "The server is busy checking other passwords: try again in a moment" in (
        busy.content.decode())
    api = APIClient().post("/api/auth/token/", {"username": "ann", "password": RIGHT},
                           format="json")
    assert api.status_code == 503 and retry_after(api) == 1
    assert body(api) == {"code": "busy", "message": "the server is busy checking other "
                         "passwords: try again in a moment"}
    signup = APIClient().post("/api/auth/signup/", {
        "username": "eve", "email": "eve@example.org", "password": RIGHT}, format="json")
    assert signup.status_code == 503 and body(signup)["code"] == "busy"
    assert not get_user_model().objects.filter(username="eve").exists()
    assert hashed == []
    slot_taken()
    assert signed_in(page_sign_in("/accounts/login/", "ann", RIGHT))


def test_a_busy_refusal_is_not_counted_as_a_wrong_password(settings, ann, slot_taken):
    settings.MARRAM_THROTTLE_RATES = {**settings.MARRAM_THROTTLE_RATES, "signin_account": "1/15m"}
    for _ in range(3):
        assert page_sign_in("/accounts/login/", "ann", WRONG).status_code == 503
    slot_taken()
    assert refused_as_wrong(page_sign_in("/accounts/login/", "ann", WRONG))  # the first
    assert page_sign_in("/accounts/login/", "ann", RIGHT).status_code == 429


def test_an_over_long_password_is_never_hashed(hashed):
    make_user("ann")
    hashed.clear()
    huge = "x" * (passwords.MAX_PASSWORD_LENGTH + 1)
    assert refused_as_wrong(page_sign_in("/accounts/login/", "ann", huge))
    assert hashed == []
    signup = Client().post("/accounts/signup/", {
        "username": "eve", "email": "eve@example.org", "password1": huge, "password2": huge})
    assert signup.status_code == 400  # the form refused, shown again with why
    assert "This password is too long: use at most 1024 characters." in signup.content.decode()


def test_the_system_check_flags_a_hasher_without_the_limits(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    with pytest.raises(SystemCheckError, match="games.E001"):
        call_command("check")
