"""The pages' one-time notices (marram_site.messages): shown once on the next page,
and a request that neither adds nor reads one has no store made for it."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils.functional import empty

from marram_site.messages import LazyMessageMiddleware
from tests.service.conftest import signed_in, start_game

pytestmark = pytest.mark.django_db


def test_a_notice_shows_on_the_next_page_once(users):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    page = signed_in(bob)
    kept = page.post(f"/games/{game.pk}/note/", {"text": "try the frog"}, follow=True)
    assert "Note kept: only you can see it." in kept.content.decode()
    assert "Note kept" not in page.get(f"/games/{game.pk}/").content.decode()


def test_a_request_that_shows_no_notice_makes_no_store_of_them():
    request = RequestFactory().get("/api/ping/")
    seen = []

    def view(request):
        seen.append(request._messages)
        return HttpResponse(b'{"ping":"pong"}', content_type="application/json")

    response = LazyMessageMiddleware(view)(request)
    assert response.status_code == 200
    assert seen[0]._wrapped is empty  # no cookie read, no signer made
    assert "messages" not in response.cookies
