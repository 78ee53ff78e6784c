"""The platform names no game: the OpenAPI schema documents an action as one of
each registered game's own declared schemas, and a game's named query about a
move is served at its own address by one generic route (Marram's claims at
/api/games/{id}/claims/, as before)."""

from __future__ import annotations

import json

import yaml
from rest_framework.test import APIClient

from engine import registry
from tests.service.conftest import body, client_for, make_user, start_game


def action_schema(schema: dict, component: str) -> dict:
    return schema["components"]["schemas"][component]["properties"]["action"]


def test_the_schema_gives_an_action_of_each_game_by_its_own_declaration(db):
    schema = yaml.safe_load(APIClient().get("/api/schema/").content)
    action = action_schema(schema, "ActionSubmit")
    games = registry.games()
    assert [s["title"] for s in action["oneOf"]] == [g.title for g in games]
    for game, declared in zip(games, action["oneOf"], strict=True):
        assert game.action_schema is not None
        assert declared["properties"]["type"] == game.action_schema["properties"]["type"]
    assert action_schema(schema, "MoveQuery")["oneOf"] == action["oneOf"]


def test_a_named_query_answers_at_its_own_address_and_an_unknown_name_is_a_404(db):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    mover = next(u for u in (ann, bob) if body(client_for(u).get(
        f"/api/games/{game.pk}/"))["legal_actions"])
    move = next(a for a in body(client_for(mover).get(f"/api/games/{game.pk}/"))
                ["legal_actions"] if a["type"] == "place")
    asked = client_for(mover).get(f"/api/games/{game.pk}/claims/",
                                  {"action": json.dumps(move)})
    assert asked.status_code == 200 and isinstance(body(asked)["claims"], list)
    query = client_for(mover).post(f"/api/games/{game.pk}/query/claims/",
                                   {"args": {"action": move}}, format="json")
    assert body(query)["answer"] == body(asked)["claims"]  # the same query by name
    unknown = client_for(mover).get(f"/api/games/{game.pk}/nonsense/",
                                    {"action": json.dumps(move)})
    assert unknown.status_code == 404 and body(unknown)["code"] == "not_found"
    assert client_for(mover).post(f"/api/games/{game.pk}/nonsense/").status_code == 404
