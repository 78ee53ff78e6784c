"""The API against its own OpenAPI schema (drf-spectacular's, as /api/schema/
serves it), with schemathesis: requests generated from the schema, valid and
not, sent as a seated player of a real game, must never get a 5xx, and every
answer the schema describes must match it (the paginated game list and the
{seq, events} answer included).

Bounded and repeatable: a few dozen examples an operation, derandomized, no
example database; each request runs in a transaction rolled back after it, so
every example meets the same position (ann to move in a running game)."""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error, response_schema_conformance

from games import services
from tests.service.conftest import custom_game, make_user, tile

EXAMPLES = int(os.environ.get("MARRAM_SCHEMA_EXAMPLES", "30"))
"""Examples an operation: 30 run the whole file in about 25 s on this machine; a
longer hunt sets MARRAM_SCHEMA_EXAMPLES."""
GRASS = tile("GGGGGGGG")
TILES = {"S0": GRASS, **{f"G{i}": GRASS for i in range(1, 13)}}
DECK = [f"G{i}" for i in range(1, 13)]

SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
OPERATIONS = sorted((result.ok() for result in SCHEMA.get_all_operations()),
                    key=lambda op: op.label)


@pytest.fixture
def keep_connection():
    """schemathesis calls the WSGI application itself, whose request signals close
    the database connection: the test's transaction would go with it (Django's
    test client does the same as this)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def seated(db, settings, keep_connection):
    """ann (staff, so the import is tried too) moves first in a running game;
    bob's open game has a join link."""
    settings.MARRAM_THROTTLE_RATES = {"signup": None, "token": None, "invite": None}
    ann, bob = make_user("ann", staff=True), make_user("bob")
    game = custom_game([ann, bob], TILES, DECK)
    open_game = services.game_create(user=bob, variant="classic", length="long", seats=2)
    link = services.game_invite(game=open_game, user=bob, emails=[], url_for=str)[0]
    return {
        # schemathesis's WSGI calls ask for gzip as requests does, but read the
        # body undecoded: plain JSON here (compression: test_compression.py)
        "headers": {"Authorization": f"Token {Token.objects.create(user=ann).key}",
                    "Accept-Encoding": "identity"},
        "game_id": game.pk,
        "token": link.invitation.token,
    }


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
def test_the_api_answers_as_its_schema_says_and_never_fails(seated, operation):
    checks = [not_a_server_error, response_schema_conformance]

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=st.one_of(operation.as_strategy(GenerationMode.POSITIVE),
                          operation.as_strategy(GenerationMode.NEGATIVE)),
           real=st.booleans())
    def check(case, real):
        # half the examples name the real game or invitation, and the game's seq
        # (so that an action gets past the stale-seq check to its contents); the
        # rest whatever the schema allows (mostly ids that do not exist)
        if real:
            for name in ("game_id", "token"):
                if name in (case.path_parameters or {}):
                    case.path_parameters[name] = seated[name]
            if isinstance(case.body, dict) and isinstance(case.body.get("seq"), int):
                case.body["seq"] = 0
        with transaction.atomic():
            response = case.call(headers=seated["headers"])
            transaction.set_rollback(True)
        case.validate_response(response, checks=checks)

    check()


def test_the_schema_describes_every_view_that_says_what_it_answers():
    """Each operation the views document is in the schema as they document it:
    a view method whose description was lost (a decorator left on another
    method) would be guessed, and the fuzzing above would test the guess."""
    events = next(op for op in OPERATIONS if op.path == "/api/games/{game_id}/events/")
    assert events.definition.raw["operationId"] == "games_events_list"
    assert [p["name"] for p in events.definition.raw.get("parameters", [])
            if p["in"] == "query"] == ["since"]
    assert set(events.definition.raw["responses"]) == {"200", "400", "404"}
