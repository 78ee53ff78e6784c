"""Limits on making accounts and tokens (per address) and on invitations (per
player): past the rate, a 429 that says what was refused and when to try again,
and nothing is written."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import Invitation
from tests.service.conftest import body, client_for, make_user

pytestmark = pytest.mark.django_db


def sign_up(client: APIClient, name: str):
    return client.post("/api/auth/signup/", {"username": name, "email": f"{name}@example.org",
                                             "password": "dune-grass-42"}, format="json")


def test_the_21st_signup_from_one_address_in_an_hour_is_refused(settings):
    assert settings.MARRAM_THROTTLE_RATES["signup"] == "20/hour"
    client = APIClient(REMOTE_ADDR="203.0.113.7")
    for n in range(20):
        assert sign_up(client, f"user{n}").status_code == 201
    refused = sign_up(client, "user20")
    assert refused.status_code == 429
    data = body(refused)
    assert data["code"] == "throttled"
    assert data["message"].startswith(
        "too many accounts have been made from your address lately: try again in ")
    assert data["message"].endswith("minutes")
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert not get_user_model().objects.filter(username="user20").exists()
    assert get_user_model().objects.count() == 20
    # another address is counted apart
    assert sign_up(APIClient(REMOTE_ADDR="203.0.113.8"), "user20").status_code == 201


def test_token_requests_are_limited_per_address(settings):
    settings.MARRAM_THROTTLE_RATES = {**settings.MARRAM_THROTTLE_RATES, "token": "3/hour"}
    make_user("ann")
    client = APIClient(REMOTE_ADDR="203.0.113.9")
    wrong = {"username": "ann", "password": "guess"}
    for _ in range(3):
        assert client.post("/api/auth/token/", wrong, format="json").status_code == 400
    right = {"username": "ann", "password": "dune-grass-42"}
    refused = client.post("/api/auth/token/", right, format="json")
    assert refused.status_code == 429 and "token" not in body(refused)
    assert body(refused)["message"].startswith("too many sign-in attempts from your address")


def test_invitations_are_limited_per_player(settings):
    settings.MARRAM_THROTTLE_RATES = {**settings.MARRAM_THROTTLE_RATES, "invite": "2/hour"}
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(user=ann, variant="classic", length="long", seats=4)
    services.game_join(game=game, user=bob)
    url = f"/api/games/{game.pk}/invite/"
    for _ in range(2):
        assert client_for(ann).post(url, {}, format="json").status_code == 201
    refused = client_for(ann).post(url, {"emails": ["zed@example.org"]}, format="json")
    assert refused.status_code == 429
    assert body(refused)["message"].startswith("you have sent too many invitations lately")
    assert Invitation.objects.filter(game=game).count() == 2
    assert client_for(bob).post(url, {}, format="json").status_code == 201


def test_the_sign_up_page_is_limited_too(settings):
    settings.MARRAM_THROTTLE_RATES = {**settings.MARRAM_THROTTLE_RATES, "signup": "1/hour"}

    def page_sign_up(name: str):
        return Client(REMOTE_ADDR="203.0.113.10").post("/accounts/signup/", {
            "username": name, "email": f"{name}@example.org",
            "password1": "dune-grass-42", "password2": "dune-grass-42"})

    assert page_sign_up("eve").status_code == 302
    refused = page_sign_up("fay")
    assert refused.status_code == 429
    assert "Too many accounts have been made from your address lately" in refused.content.decode()
    assert not get_user_model().objects.filter(username="fay").exists()


def test_the_pages_limit_invitations_too(settings):
    settings.MARRAM_THROTTLE_RATES = {**settings.MARRAM_THROTTLE_RATES, "invite": "1/hour"}
    ann = make_user("ann")
    client = Client()
    client.force_login(ann)
    game = services.game_create(user=ann, variant="classic", length="long", seats=3)
    client.post(f"/games/{game.pk}/invite/", {"emails": "bob@example.org"})
    page = client.post(f"/games/{game.pk}/invite/", {"emails": "cyd@example.org"}, follow=True)
    assert "You have sent too many invitations lately" in page.content.decode()
    lobby = client.post("/lobby/", {"variant": "classic", "length": "long", "seats": 2,
                                    "emails": "dee@example.org"})
    assert lobby.status_code == 429 and "too many invitations" in lobby.content.decode()
    assert list(Invitation.objects.values_list("email", flat=True)) == ["bob@example.org"]
    assert get_user_model().objects.get(username="ann").games_created.count() == 1
