"""Claims: which token, on what, and when a feature cannot be claimed (rule book:
"Placing a welly boot", "Notes on placing welly boots and pitchforks"; spec: Claims)."""
from __future__ import annotations

import pytest

from engine.marram import IllegalAction, apply, player_view, summary

from .helpers import game, place, seg, tile

# The starter carries a blue snake body; H (head) and T (tail) finish it either side.
SNAKE = {
    "S0": tile("GGGGGGGG", seg("blue", "body", 3, 1)),
    "H": tile("GGGGGGGG", seg("blue", "head", 1)),
    "T": tile("GGGGGGGG", seg("blue", "tail", 3)),
    "G1": tile("GGGGGGGG"),
    "G2": tile("GGGGGGGG"),
}


def supply(state, seat: int = 0) -> tuple[int, int]:
    sup = summary(state)["supply"][seat]
    return sup["boots"], sup["pitchforks"]


def code_of(fn) -> str:
    with pytest.raises(IllegalAction) as e:
        fn()
    return e.value.code


# ---------------------------------------------------------------- which token

def test_classic_claims_patches_with_boots():
    s = game(SNAKE, [["G1"], []])
    s = place(s, 0, "G1", (0, 1), claim={"arc": 0})
    assert supply(s) == (6, 0)  # Classic: 7 boots, no pitchforks


def test_classic_claims_beasts_with_boots():
    s = game(SNAKE, [["H"], []])
    s = place(s, 0, "H", (-1, 0), claim={"side": 1})
    assert supply(s) == (6, 0)


@pytest.mark.parametrize("variant", ["pitchfork", "animals"])
def test_pitchfork_claims_patches_with_boots(variant):
    s = game(SNAKE, [["G1"], []], variant=variant)
    s = place(s, 0, "G1", (0, 1), claim={"arc": 0})
    assert supply(s) == (4, 5)  # long game: 5 boots, 5 pitchforks


@pytest.mark.parametrize("variant", ["pitchfork", "animals"])
def test_pitchfork_claims_beasts_with_pitchforks(variant):
    s = game(SNAKE, [["H"], []], variant=variant)
    s = place(s, 0, "H", (-1, 0), claim={"side": 1})
    assert supply(s) == (5, 4)
    view = {tuple(t["at"]): t for t in player_view(s)["board"]}
    assert view[(-1, 0)]["token"] == {"seat": 0, "kind": "pitchfork", "side": 1}


@pytest.mark.parametrize("variant, claim", [
    ("classic", {"arc": 0, "token": "boot"}),
    ("classic", {"side": 1, "token": "boot"}),
    ("pitchfork", {"arc": 0, "token": "boot"}),
    ("pitchfork", {"side": 1, "token": "pitchfork"}),
])
def test_naming_the_right_token_is_accepted(variant, claim):
    s = game(SNAKE, [["H"], []], variant=variant)
    s = place(s, 0, "H", (-1, 0), claim=claim)
    assert s.board[(-1, 0)].token is not None


@pytest.mark.parametrize("variant, claim", [
    ("classic", {"side": 1, "token": "pitchfork"}),    # Classic has no pitchforks
    ("classic", {"arc": 0, "token": "pitchfork"}),
    ("pitchfork", {"arc": 0, "token": "pitchfork"}),   # patches take boots
    ("pitchfork", {"side": 1, "token": "boot"}),       # beasts take pitchforks
    ("animals", {"side": 1, "token": "boot"}),
])
def test_wrong_token(variant, claim):
    s = game(SNAKE, [["H"], []], variant=variant)
    assert code_of(lambda: place(s, 0, "H", (-1, 0), claim=claim)) == "wrong_token"


# ---------------------------------------------------------------- taken features

def test_claimed_feature_cannot_be_claimed_again():
    # p0 boots the snake through the head; p1's tail joins that snake: taken
    s = game(SNAKE, [["H", "G1"], ["T"]])
    s = place(s, 0, "H", (-1, 0), claim={"side": 1})
    s = place(s, 0, "G1", (0, 1))
    assert code_of(lambda: place(s, 1, "T", (1, 0), claim={"side": 3})) == "taken_feature"
    # the tail on its own held no boot: it is the join made by this very tile that is taken


def test_taken_patch_through_the_tile_just_laid():
    # p0 boots the big grass patch on G1; G2 joins it (through the starter): taken
    s = game(SNAKE, [["G1", "H"], ["G2"]])
    s = place(s, 0, "G1", (0, 1), claim={"arc": 0})
    s = place(s, 0, "H", (-1, 0))
    assert code_of(lambda: place(s, 1, "G2", (0, -1), claim={"arc": 4})) == "taken_feature"
    s = place(s, 1, "G2", (0, -1))  # without a claim the tile may still be laid
    assert supply(s, 1) == (7, 0)


def test_claimed_beast_is_not_taken_for_a_different_beast_on_the_same_tile():
    # a tile with two segments: one joins p0's claimed snake, the other starts a new orange
    tiles = dict(SNAKE)
    tiles["T"] = tile("GGGGGGGG", seg("blue", "tail", 3), seg("orange", "end", 2))
    s = game(tiles, [["H", "G1"], ["T"]])
    s = place(s, 0, "H", (-1, 0), claim={"side": 1})
    s = place(s, 0, "G1", (0, 1))
    s = place(s, 1, "T", (1, 0), claim={"side": 2})  # the orange end: free
    assert supply(s, 1) == (6, 0)
    # the blue snake completed (head + body + tail = 9) and went to p0
    assert s.scores == [9, 0]


# ---------------------------------------------------------------- completing with a claim

def test_claim_on_a_feature_the_move_completes_scores_at_once():
    # p0 lays H (no claim), then T with a boot: head + body + tail = 3 x 3 = 9 at once
    s = game(SNAKE, [["H", "T"], []])
    s = place(s, 0, "H", (-1, 0))
    s = place(s, 0, "T", (1, 0), claim={"side": 3})
    assert s.scores == [9, 0]
    assert supply(s) == (7, 0)  # the boot went down and came straight back


# ---------------------------------------------------------------- no token left

def one_arc_patches():
    """Pitchfork short (3 boots). A sand starter and tiles P1.. with grass only at their
    north middle arc: laid on y = 0 at rotation 0, each holds a one-arc grass patch of its
    own; one laid above another at rotation 2 (grass at its south middle) closes it."""
    tiles = {"S0": tile("SSSSSSSS")}
    for i in range(1, 6):
        tiles[f"P{i}"] = tile("SGSSSSSS")
    return game(tiles, [["P1", "P2", "P3"], []], rest=["P4", "P5", "X1", "X2"],
                variant="pitchfork", length="short")


def test_no_boot_left():
    s = one_arc_patches()
    s = place(s, 0, "P1", (1, 0), claim={"arc": 1})
    s = place(s, 0, "P2", (2, 0), claim={"arc": 1})
    s = apply(s, {"type": "timeout", "player": 1})
    s = place(s, 0, "P3", (3, 0), claim={"arc": 1})
    assert supply(s) == (0, 5)
    before = summary(s)
    assert code_of(lambda: place(s, 0, "P4", (4, 0), claim={"arc": 1})) == "no_token"
    assert summary(s) == before
    s = place(s, 0, "P4", (4, 0))  # without a claim the tile may still be laid
    s = apply(s, {"type": "timeout", "player": 1})
    # P5 above P4 closes P4's patch at once; still, with no boot in stock nothing can be
    # put down (boots are laid before any come back)
    assert code_of(lambda: place(s, 0, "P5", (4, -1), rotation=2, claim={"arc": 5})) \
        == "no_token"


def test_last_boot_claims_a_feature_it_completes_and_comes_back():
    s = one_arc_patches()
    s = place(s, 0, "P1", (1, 0), claim={"arc": 1})
    s = place(s, 0, "P2", (2, 0), claim={"arc": 1})
    s = apply(s, {"type": "timeout", "player": 1})
    s = place(s, 0, "P3", (3, 0))
    assert supply(s) == (1, 5)
    s = place(s, 0, "P4", (3, -1), rotation=2, claim={"arc": 5})  # closes P3's patch
    assert supply(s) == (1, 5)  # laid, the patch completed (0 bulges: 0 points), back home
    assert s.board[(3, -1)].token is None


# ---------------------------------------------------------------- as the tile lies

ORANGE = {
    "S0": tile("GGGGGGGG", seg("orange", "end", 0)),   # an end facing north
    "O": tile("GGGGGGGG", seg("orange", "end", 1)),    # an end on its east side, as defined
}


def test_beast_claim_names_the_side_after_rotation():
    # O at (0, -1) turned once clockwise: its end crosses side 2 (south) and meets the
    # starter's: orange end + end = 1 x 2 = 2, claimed by that side
    s = game(ORANGE, [["O"], []])
    assert code_of(lambda: place(s, 0, "O", (0, -1), rotation=1, claim={"side": 1})) \
        == "bad_claim"
    s = place(s, 0, "O", (0, -1), rotation=1, claim={"side": 2})
    assert s.scores == [2, 0]


# Sand circle around grid point (1, 1); the last tile, SE, has its sand at arc 4 as
# defined and lies turned twice (180 degrees) so that the sand sits at arc 0.
CIRCLE = {
    "S0": tile("GGGGSGGG"),
    "NE": tile("GGGGGGSG", items=[(6, "flower")]),
    "SW": tile("GGSGGGGG"),
    "SE": tile("GGGGSGGG"),
}


@pytest.mark.parametrize("arc, expected", [
    (0, 9),   # the sand circle: 1 bulge x 5 + flower 4 = 9, completed by this tile
    (4, 0),   # arc 4 as the tile lies is grass: the big open grass patch, nothing yet
])
def test_patch_claim_names_the_arc_after_rotation(arc, expected):
    s = game(CIRCLE, [["NE", "SW"], ["SE"]])
    s = place(s, 0, "NE", (1, 0))
    s = place(s, 0, "SW", (0, 1))
    s = place(s, 1, "SE", (1, 1), rotation=2, claim={"arc": arc})
    assert s.scores == [0, expected]


def test_claim_on_a_side_without_a_beast_is_refused():
    s = game(SNAKE, [["H"], []])
    assert code_of(lambda: place(s, 0, "H", (-1, 0), claim={"side": 0})) == "bad_claim"
