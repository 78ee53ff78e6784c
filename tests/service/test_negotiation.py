"""Which renderer an API answer takes (web.http.JSONFirstNegotiation): the
usual Accept headers are decided without parsing them, and always as DRF's own
negotiation decides them; anything else is negotiated in full."""

from __future__ import annotations

import pytest
from django.http import Http404
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from tests.service.conftest import make_user, signed_in, start_game
from web.http import FastJSONRenderer, JSONFirstNegotiation

ACCEPTS = [None, "", "*/*", "application/json", " application/json ", "text/html",
           "application/json; indent=4", "text/html, application/json;q=0.9",
           "application/*", "image/png, */*;q=0.1"]


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("query", ["", "?format=api", "?format=json"])
@pytest.mark.parametrize("renderers", [(FastJSONRenderer, BrowsableAPIRenderer),
                                       (BrowsableAPIRenderer, JSONRenderer)])
def test_the_renderer_chosen_is_drf_s_own_choice(accept, query, renderers):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().get("/api/ping/" + query, **headers))
    instances = [r() for r in renderers]

    def choice(negotiation):
        try:
            renderer, media_type = negotiation.select_renderer(request, instances)
        except (NotAcceptable, Http404) as e:  # a 406; a 404 for a format no renderer has
            return type(e)
        return type(renderer), media_type

    assert choice(JSONFirstNegotiation()) == choice(DefaultContentNegotiation())


@pytest.mark.django_db
def test_a_game_answers_json_to_a_client_and_the_browsable_api_to_a_browser():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    client = signed_in(ann)
    url = f"/api/games/{game.pk}/"
    for accept in ("application/json", "*/*"):
        answer = client.get(url, HTTP_ACCEPT=accept)
        assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
        assert answer.json()["seq"] == game.seq
    page = client.get(url, HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    assert client.get(url + "?format=json", HTTP_ACCEPT="text/html")[
        "Content-Type"] == "application/json"
