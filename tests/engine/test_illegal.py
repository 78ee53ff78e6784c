"""Illegal events: each is refused with its stable code, and the state passed in is left
exactly as it was (``apply`` is pure even when the event fails half-way, e.g. a claim
refused after the tile was laid on the working copy)."""
from __future__ import annotations

import pytest

from engine.marram import IllegalAction, apply, player_view, summary

from .helpers import game, seg, tile

TILES = {
    "S0": tile("GGGGGGGG", seg("blue", "body", 3, 1)),
    "H": tile("GGGGGGGG", seg("blue", "head", 1)),
    "T": tile("GGGGGGGG", seg("blue", "tail", 3)),
    "X": tile("GGSSSGGG", spade=True),   # flips to rotation 2 next to grass
    "Y": tile("SSGGGSSS", spade=True),   # the same, for the west side
    "P": tile("SGSSSSSS"),               # grass only at its north middle
} | {f"G{i}": tile("GGGGGGGG") for i in range(1, 10)}


def ev(type_: str, player: int = 0, **kw) -> dict:
    return {"type": type_, "player": player, **kw}


def put(tile_id: str, at, player: int = 0, rotation: int = 0, face: str = "front",
        claim=None) -> dict:
    return ev("place", player, tile=tile_id, face=face, at=list(at), rotation=rotation,
              claim=claim)


def play(state, *events):
    for e in events:
        state = apply(state, e)
    return state


def refused(state, event, code: str) -> None:
    before_summary, before_view, tiles = summary(state), player_view(state), len(state.board)
    with pytest.raises(IllegalAction) as e:
        apply(state, event)
    assert e.value.code == code, e.value.message
    assert e.value.message  # says which rule
    assert summary(state) == before_summary
    assert player_view(state) == before_view
    assert len(state.board) == tiles


def start(hands=(("H", "G1", "G2"), ("T", "G3", "G4")), **kw):
    return game(TILES, [list(h) for h in hands], **kw)


# ---------------------------------------------------------------- placing

def test_wrong_player():
    refused(start(), put("T", (1, 0), player=1), "not_your_turn")


def test_unmatched_edge():
    # a head meeting the starter's body is fine; a plain grass side against its body is not
    refused(start(), put("G1", (1, 0)), "edge_mismatch")
    # H's head turned to face north: its east side is bare against the body
    refused(start(), put("H", (-1, 0), rotation=3), "edge_mismatch")
    # a sand side against grass
    refused(start(hands=(("F9",), ())), put("F9", (0, 1)), "edge_mismatch")


def test_detached_tile():
    refused(start(), put("G1", (2, 2)), "detached")
    refused(start(), put("G1", (1, 1)), "detached")  # a corner touch is not a side


def test_occupied_position():
    refused(start(), put("G1", (0, 0)), "occupied")


@pytest.mark.parametrize("tile_id", ["T", "G9", "nope", None])
def test_tile_not_in_hand(tile_id):
    refused(start(), put(tile_id, (0, 1)), "tile_not_in_hand")


@pytest.mark.parametrize("face", ["side", None, 0])
def test_bad_face(face):
    refused(start(), put("G1", (0, 1), face=face), "bad_face")


@pytest.mark.parametrize("rotation", [4, -1, "1", None, True, 1.0])
def test_bad_rotation(rotation):
    refused(start(), put("G1", (0, 1), rotation=rotation), "bad_rotation")


# ---------------------------------------------------------------- claiming

def test_taken_feature():
    s = play(start(), put("H", (-1, 0), claim={"side": 1}), put("G1", (0, 1)))
    # the tail would join p0's snake: it may be laid, but not claimed
    refused(s, put("T", (1, 0), player=1, claim={"side": 3}), "taken_feature")


def test_taken_patch_joined_by_this_tile():
    s = play(start(), put("G1", (0, 1), claim={"arc": 0}), put("G2", (0, -1)))
    refused(s, put("G3", (1, -1), player=1, claim={"arc": 4}), "taken_feature")


@pytest.mark.parametrize("variant, claim", [
    ("classic", {"side": 1, "token": "pitchfork"}),
    ("pitchfork", {"side": 1, "token": "boot"}),
    ("pitchfork", {"arc": 0, "token": "pitchfork"}),
])
def test_wrong_token_kind(variant, claim):
    refused(start(variant=variant), put("H", (-1, 0), claim=claim), "wrong_token")


@pytest.mark.parametrize("claim", [{"arc": 8}, {"side": 4}, {"side": 0}, {"arc": 0, "side": 1},
                                   {}, "arc 0", {"arc": True}])
def test_bad_claim(claim):
    refused(start(), put("H", (-1, 0), claim=claim), "bad_claim")


def test_no_token_left():
    # Pitchfork short: 3 boots, spent on three one-arc grass patches
    tiles = {"S0": tile("SSSSSSSS")} | {f"P{i}": tile("SGSSSSSS") for i in range(1, 5)}
    s = game(tiles, [["P1", "P2", "P3"], []], rest=["P4"], variant="pitchfork",
             length="short")
    s = play(s, put("P1", (1, 0), claim={"arc": 1}), put("P2", (2, 0), claim={"arc": 1}),
             ev("timeout", 1), put("P3", (3, 0), claim={"arc": 1}))
    refused(s, put("P4", (4, 0), claim={"arc": 1}), "no_token")


# ---------------------------------------------------------------- flipping

def flip_board(players: int = 2, variant: str = "classic"):
    hands = [["X", "Y", "G1"]] + [["G3", "G4", "G5"]] + [[] for _ in range(players - 2)]
    s = game(TILES | {"S0": tile("GGGGGGGG")}, hands, variant=variant)
    return play(s, put("X", (1, 0)), put("Y", (-1, 0)))


def test_flip_of_a_tile_without_a_spade():
    s = flip_board()
    refused(s, ev("flip", 1, at=[0, 0], rotation=0), "not_flippable")
    refused(s, ev("flip", 1, at=[3, 3], rotation=0), "no_tile")


def test_flip_to_a_rotation_that_does_not_fit():
    refused(flip_board(), ev("flip", 1, at=[1, 0], rotation=0), "edge_mismatch")


def test_flip_same_tile_twice_in_a_turn():
    s = play(flip_board(), ev("flip", 1, at=[1, 0], rotation=2))
    refused(s, ev("flip", 1, at=[1, 0], rotation=0), "flipped_this_turn")


def test_flip_limit_classic():
    s = flip_board()
    for p, r in ((1, 2), (0, 0), (1, 2)):
        s = play(s, ev("flip", p, at=[1, 0], rotation=r), ev("timeout", p))
    refused(s, ev("flip", 0, at=[1, 0], rotation=0), "flip_limit")


def test_flip_limit_pitchfork():
    s = play(flip_board(variant="pitchfork"), ev("flip", 1, at=[1, 0], rotation=2),
             ev("timeout", 1))
    refused(s, ev("flip", 0, at=[1, 0], rotation=0), "flip_limit")


def test_no_spades_left():
    s = play(flip_board(players=4), ev("timeout", 1), ev("timeout", 2), ev("timeout", 3),
             ev("flip", 0, at=[1, 0], rotation=2), ev("flip", 0, at=[-1, 0], rotation=2),
             ev("timeout", 1), ev("timeout", 2), ev("timeout", 3))
    refused(s, ev("flip", 0, at=[1, 0], rotation=0), "no_spades")


# ---------------------------------------------------------------- passing and the end

def test_pass_while_a_tile_fits():
    refused(start(), ev("pass", 0), "must_place")


def test_any_event_after_the_end():
    s = play(start(), ev("resign", 1))
    assert s.finished
    refused(s, put("H", (-1, 0)), "game_finished")
    refused(s, ev("pass", 0), "game_finished")
    refused(s, ev("timeout", 0), "game_finished")
    refused(s, ev("resign", 0), "game_finished")
    refused(s, ev("flip", 0, at=[0, 0], rotation=0), "game_finished")


@pytest.mark.parametrize("event", [
    {"type": "dance", "player": 0},
    {"player": 0},
    "pass",
    None,
    {"type": "pass", "player": 2},
    {"type": "pass", "player": "0"},
    {"type": "pass", "player": True},
    {"type": "place", "player": 0, "tile": "H", "face": "front", "at": [1], "rotation": 0},
    {"type": "place", "player": 0, "tile": "H", "face": "front", "at": "1,0", "rotation": 0},
    {"type": "guess", "player": 0, "creature": "bee", "hops": 3},
])
def test_malformed_or_unknown_events(event):
    refused(start(), event, "bad_event")


def test_unknown_event_after_the_end_is_still_bad():
    s = play(start(), ev("resign", 1))
    refused(s, {"type": "dance", "player": 0}, "bad_event")


def test_chance_events_out_of_turn():
    s = start(variant="animals")
    refused(s, {"type": "hop", "creature": "fly", "to": [0, 0]}, "not_pending")
    refused(s, {"type": "creature_appears", "creature": "fly", "at": [0, 0]}, "not_pending")
    refused(s, ev("guess", 0, creature="fly", hops=3), "not_pending")
