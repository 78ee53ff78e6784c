"""Marram's game page takes how a moved tile would lie from the server (its
page state's move_previews), so the browser turns and flips no tile itself:
a seat gets a preview of each face of each tile in its hand at each rotation,
a spectator gets none, and the view says which token a claim takes."""

from __future__ import annotations

import json

from django.test import Client

from engine.marram.view import oriented_view
from games.selectors import game_state_get
from tests.service.conftest import make_user, seat_user, start_game


def page_state(user, game) -> dict:
    client = Client()
    client.force_login(user)
    answer = client.get(f"/games/{game.pk}/state.json")
    assert answer.status_code == 200
    return json.loads(answer.content)


def test_a_seat_gets_each_hand_tile_at_each_rotation_and_a_spectator_none(db):
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = start_game([ann, bob], variant="pitchfork")
    mover = seat_user(game, 0)
    answer = page_state(mover, game)
    hand = answer["state"]["hands"][0]
    previews = answer["move_previews"]
    assert sorted(previews["place"]) == sorted(hand) and previews["flip"] == []
    catalogue = game_state_get(game).config.catalogue
    for tile_id in hand:
        for face in ("front", "back"):
            turns = previews["place"][tile_id][face]
            assert [t["rotation"] for t in turns] == [0, 1, 2, 3]
            assert [t["terrain"] for t in turns] == [
                oriented_view(catalogue[tile_id], face, r)["terrain"] for r in range(4)]
            assert all(t["flips_left"] == (1 if catalogue[tile_id].spade else 0)
                       for t in turns)  # Pitchfork: a tile is flipped once
    assert answer["state"]["claim_tokens"] == {"arc": "boot", "side": "pitchfork"}
    assert page_state(cyd, game)["move_previews"] is None


def test_in_classic_a_beast_takes_a_boot_and_a_tile_flips_three_times(db):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], variant="classic")
    answer = page_state(seat_user(game, 1), game)
    assert answer["state"]["claim_tokens"] == {"arc": "boot", "side": "boot"}
    catalogue = game_state_get(game).config.catalogue
    for tile_id, faces in answer["move_previews"]["place"].items():
        assert faces["front"][0]["flips_left"] == (3 if catalogue[tile_id].spade else 0)
