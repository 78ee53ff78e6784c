"""A whole game through the API: sign up, create, join (the game starts), play
moves chosen from legal_actions with claims from /claims/, resign, and fetch
the record, which `python -m engine verify` accepts."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from games.models import Event, Game
from tests.service.conftest import body

ROOT = Path(__file__).resolve().parents[2]


def signup(name: str) -> APIClient:
    client = APIClient()
    response = client.post("/api/auth/signup/", {"username": name, "email": f"{name}@example.org",
                                                 "password": "dune-grass-42"}, format="json")
    assert response.status_code == 201, response.content
    token = body(response)["token"]
    # the token endpoint gives the same token for the same credentials
    again = client.post("/api/auth/token/", {"username": name, "password": "dune-grass-42"},
                        format="json")
    assert again.status_code == 200 and body(again)["token"] == token
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def play_one(client: APIClient, game_id: int, key: str) -> dict:
    """Fetch the game, take the first legal action with the first claim offered."""
    view = body(client.get(f"/api/games/{game_id}/"))
    action = dict(view["legal_actions"][0])
    if action["type"] in ("place", "flip"):
        claims = body(client.get(f"/api/games/{game_id}/claims/",
                                 {"action": json.dumps(action)}))["claims"]
        action["claim"] = claims[0] if claims else None
    action.pop("player")  # the server knows our seat
    response = client.post(f"/api/games/{game_id}/actions/",
                           {"seq": view["seq"], "idempotency_key": key, "action": action},
                           format="json")
    assert response.status_code == 201, response.content
    return body(response)


@pytest.mark.django_db
def test_a_whole_game_through_the_api(tmp_path):
    ann, bob = signup("ann"), signup("bob")

    created = ann.post("/api/games/", {"variant": "classic", "length": "long", "seats": 2,
                                       "days_per_move": 3}, format="json")
    assert created.status_code == 201, created.content
    game = body(created)
    assert game["status"] == "open" and [p["username"] for p in game["players"]] == ["ann"]
    game_id = game["id"]
    assert game_id in [g["id"] for g in body(bob.get("/api/games/?list=open"))["results"]]
    before = body(ann.get(f"/api/games/{game_id}/"))
    assert before["state"] is None and before["legal_actions"] == []

    joined = bob.post(f"/api/games/{game_id}/join/", {}, format="json")
    assert joined.status_code == 200, joined.content
    game = body(joined)
    assert game["status"] == "running" and len(game["commitment"]) == 64
    assert sorted(p["seat"] for p in game["players"]) == [0, 1]
    seat_of = {p["username"]: p["seat"] for p in game["players"]}
    clients = {seat_of["ann"]: ann, seat_of["bob"]: bob}

    moves = 0
    for n in range(12):
        view = body(ann.get(f"/api/games/{game_id}/"))
        mover = view["state"]["awaiting"]["player"]
        other = body(clients[1 - mover].get(f"/api/games/{game_id}/"))
        assert other["legal_actions"] == [] and other["you"] == 1 - mover
        answer = play_one(clients[mover], game_id, key=f"move-{n}")
        assert answer["events"][0]["actor"] == ("ann" if mover == seat_of["ann"] else "bob")
        moves += 1
    view = body(bob.get(f"/api/games/{game_id}/"))
    assert view["seq"] >= moves and len(view["state"]["board"]) >= 1 + moves // 2
    events = body(bob.get(f"/api/games/{game_id}/events/"))
    assert [e["seq"] for e in events["events"]] == list(range(view["seq"]))
    assert body(bob.get(f"/api/games/{game_id}/events/?since=5"))["events"][0]["seq"] == 5
    assert game_id in [g["id"] for g in body(ann.get("/api/games/?list=mine"))["results"]]
    assert body(ann.get(f"/api/games/{game_id}/record/"))["code"] == "game_running"

    resigned = bob.post(f"/api/games/{game_id}/resign/")
    assert resigned.status_code == 200, resigned.content
    assert body(resigned)["events"][-1]["event"] == {"type": "resign", "player": seat_of["bob"]}
    final = body(ann.get(f"/api/games/{game_id}/"))
    assert final["status"] == "finished" and final["state"]["winners"] == [seat_of["ann"]]
    assert final["fairness"]["seed"]
    assert game_id in [g["id"] for g in body(bob.get("/api/games/?list=finished"))["results"]]

    response = ann.get(f"/api/games/{game_id}/record/")
    assert response.status_code == 200
    record = body(response)
    assert len(record["events"]) == Event.objects.filter(game_id=game_id).count()
    assert record["config"]["players"] == [p["name"] for p in sorted(
        final["game"]["players"], key=lambda p: p["seat"])]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    for command in ("verify", "replay"):
        out = subprocess.run([sys.executable, "-m", "engine", command, str(path)], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(out.stdout)["winners"] == [seat_of["ann"]]


@pytest.mark.django_db
def test_the_same_idempotency_key_twice_gives_the_same_answer_and_one_row():
    ann, bob = signup("ann"), signup("bob")
    game_id = body(ann.post("/api/games/", {"variant": "pitchfork", "length": "short",
                                            "seats": 2}, format="json"))["id"]
    bob.post(f"/api/games/{game_id}/join/")
    view = body(ann.get(f"/api/games/{game_id}/"))
    mover = ann if view["you"] == view["state"]["awaiting"]["player"] else bob
    view = body(mover.get(f"/api/games/{game_id}/"))
    payload = {"seq": view["seq"], "idempotency_key": "k-1",
               "action": {**view["legal_actions"][0], "claim": None}}

    first = mover.post(f"/api/games/{game_id}/actions/", payload, format="json")
    again = mover.post(f"/api/games/{game_id}/actions/", payload, format="json")

    assert first.status_code == 201 and again.status_code == 200
    assert body(again) == {**body(first), "repeated": True}
    assert body(first)["status"] == "running" and body(first)["awaiting"]["kind"] == "move"
    assert Event.objects.filter(game_id=game_id, idempotency_key="k-1").count() == 1
    assert Game.objects.get(pk=game_id).seq == body(first)["seq"]
    # the same key for another action is refused, and changes nothing
    other = {**payload, "action": {"type": "resign"}}
    count = Event.objects.count()
    refused = mover.post(f"/api/games/{game_id}/actions/", other, format="json")
    assert refused.status_code == 409 and body(refused)["code"] == "idempotency_key_reused"
    # and so is the same key at the current seq (the database's unique constraint)
    current = {**other, "seq": body(first)["seq"]}
    refused = mover.post(f"/api/games/{game_id}/actions/", current, format="json")
    assert refused.status_code == 409 and body(refused)["code"] == "idempotency_key_reused"
    assert Event.objects.count() == count


@pytest.mark.django_db
def test_ping_and_docs():
    client = APIClient()
    assert body(client.get("/api/ping/")) == {"ping": "pong"}
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    for path in (b"/api/games/{game_id}/actions/", b"/api/auth/signup/", b"/api/games/import/"):
        assert path in schema.content
    assert client.get("/api/docs/").status_code == 200
