"""Flipping tiles with spade cards (rule book: "Flipping a tile", "Notes on using spade
cards"; spec: A tile, flips).

X is a spade tile whose west part is grass and east part sand ("GGSSSGGG"). Its back
swaps the terrain; turned twice (rotation 2) the back reads "GSSSSSGG", grass again on
the west side, so next to the all-grass starter X flips to rotation 2 and only to it.
"""
from __future__ import annotations

import pytest

from engine.marram import IllegalAction, apply, player_view, summary

from .helpers import flip, game, place, seg, tile

X_FRONT = "GGSSSGGG"
X_BACK_R2 = "GSSSSSGG"

TILES = {
    "S0": tile("GGGGGGGG"),
    "X": tile(X_FRONT, spade=True),
    "Y": tile("SSGGGSSS", spade=True),  # X's mirror image, for the west of the starter
    "N": tile(X_FRONT),                 # the same terrain without a spade
} | {f"G{i}": tile("GGGGGGGG") for i in range(1, 12)}


def timeout(state, player):
    return apply(state, {"type": "timeout", "player": player})


def code_of(fn) -> str:
    with pytest.raises(IllegalAction) as e:
        fn()
    return e.value.code


def at(state, pos):
    return {tuple(t["at"]): t for t in player_view(state)["board"]}[pos]


def spades(state):
    return [sup["spades"] for sup in summary(state)["supply"]]


# ---------------------------------------------------------------- Classic

def test_flip_turns_a_spade_tile_to_its_swapped_back():
    s = game(TILES, [["X", "G1"], ["G2", "G3"]])
    s = place(s, 0, "X", (1, 0))
    s = place(s, 0, "G1", (-1, 0))
    s = flip(s, 1, (1, 0), rotation=2)
    t = at(s, (1, 0))
    assert (t["face"], t["rotation"], t["terrain"]) == ("back", 2, X_BACK_R2)
    assert spades(s) == [4, 3]  # a spade card spent
    assert t["flips_left"] == 2  # Classic: three flips a tile


@pytest.mark.parametrize("rotation", [0, 1, 3])
def test_flip_to_a_rotation_that_does_not_fit(rotation):
    s = game(TILES, [["X", "G1"], ["G2", "G3"]])
    s = place(s, 0, "X", (1, 0))
    s = place(s, 0, "G1", (-1, 0))
    assert code_of(lambda: flip(s, 1, (1, 0), rotation=rotation)) == "edge_mismatch"


def test_only_spade_tiles_flip():
    s = game(TILES, [["N", "G1"], ["G2", "G3"]])
    s = place(s, 0, "N", (1, 0))
    s = place(s, 0, "G1", (-1, 0))
    assert code_of(lambda: flip(s, 1, (1, 0), rotation=2)) == "not_flippable"
    assert code_of(lambda: flip(s, 1, (0, 0), rotation=0)) == "not_flippable"  # the starter


def test_classic_tile_flips_at_most_three_times():
    s = game(TILES, [["X", "G1", "G2"], ["G3", "G4", "G5"]])
    s = place(s, 0, "X", (1, 0))
    s = place(s, 0, "G1", (-1, 0))
    s = flip(s, 1, (1, 0), rotation=2)    # 1
    s = place(s, 1, "G3", (0, 1))
    s = flip(s, 0, (1, 0), rotation=0)    # 2: back to the front
    s = place(s, 0, "G2", (0, -1))
    s = flip(s, 1, (1, 0), rotation=2)    # 3
    assert at(s, (1, 0))["flips_left"] == 0
    s = place(s, 1, "G4", (-1, 1))
    assert code_of(lambda: flip(s, 0, (1, 0), rotation=0)) == "flip_limit"
    assert spades(s) == [3, 2]


def test_classic_never_flips_the_same_tile_twice_in_a_turn():
    s = game(TILES, [["X", "Y"], ["G1", "G2"]])
    s = place(s, 0, "X", (1, 0))
    s = place(s, 0, "Y", (-1, 0))
    s = flip(s, 1, (1, 0), rotation=2)
    assert code_of(lambda: flip(s, 1, (1, 0), rotation=0)) == "flipped_this_turn"
    s = flip(s, 1, (-1, 0), rotation=2)  # another tile is fine
    assert spades(s) == [4, 2]
    assert s.current == 0
    s = flip(s, 0, (1, 0), rotation=0)   # and the next turn may flip X again
    assert at(s, (1, 0))["terrain"] == X_FRONT


def test_no_spade_cards_left():
    # four players hold 2 spade cards each; p0 spends both, then has none
    s = game(TILES, [["X", "Y"], [], [], []])
    s = place(s, 0, "X", (1, 0))
    s = place(s, 0, "Y", (-1, 0))
    for p in (1, 2, 3):
        s = timeout(s, p)
    assert spades(s) == [2, 2, 2, 2]
    s = flip(s, 0, (1, 0), rotation=2)
    s = flip(s, 0, (-1, 0), rotation=2)
    for p in (1, 2, 3):
        s = timeout(s, p)
    assert spades(s) == [0, 2, 2, 2]
    assert code_of(lambda: flip(s, 0, (1, 0), rotation=0)) == "no_spades"


def test_starter_makes_the_first_move_a_placement():
    s = game(TILES, [["G1"], []])
    assert code_of(lambda: flip(s, 0, (0, 0))) == "not_flippable"
    assert code_of(lambda: flip(s, 0, (5, 5))) == "no_tile"


# ---------------------------------------------------------------- tokens on a flipped tile

@pytest.mark.parametrize("variant, boots", [("classic", 7), ("pitchfork", 5)])
def test_token_on_a_flipped_tile_is_retired(variant, boots):
    s = game(TILES, [["X", "G1"], ["G2", "G3"]], variant=variant)
    s = place(s, 0, "X", (1, 0), claim={"arc": 0})  # p0's boot on the big grass patch
    s = place(s, 0, "G1", (-1, 0))
    assert summary(s)["supply"][0]["boots"] == boots - 1
    s = flip(s, 1, (1, 0), rotation=2)
    assert at(s, (1, 0))["token"] is None
    assert summary(s)["supply"][0]["boots"] == boots - 1  # gone for good, not returned
    assert s.retired == [1, 0]


def test_patch_is_free_to_claim_after_its_only_boot_was_retired():
    s = game(TILES, [["X", "G1"], ["G2", "G3"]])
    s = place(s, 0, "X", (1, 0), claim={"arc": 0})
    s = place(s, 0, "G1", (-1, 0))
    # the flipper claims the grass patch again, on the flipped tile
    s = flip(s, 1, (1, 0), rotation=2, claim={"arc": 0})
    assert at(s, (1, 0))["token"] == {"seat": 1, "kind": "boot", "arc": 0}
    assert [sup["boots"] for sup in summary(s)["supply"]] == [6, 6]


# ---------------------------------------------------------------- features re-formed

# A sand circle around grid point (1, 1) whose sand runs on, through A's link, to the
# middle of A's east side and into X. X's front links that middle arc (7) to its SE
# corner, so the sand reaches X's open sides. X's back, turned twice, leaves arc 7 sand
# on its own (its link now joins grass arcs 3 and 0): the flip closes the patch.
REFORM = {
    "S0": tile("GGGGSGGG"),                        # (0, 0) sand at SE
    "A": tile("GGGSGGSG", links=[(3, 6)]),         # (1, 0) sand SW corner linked to E middle
    "B": tile("GGSGGGGG"),                         # (0, 1) sand at NE
    "C": tile("SGGGGGGG"),                         # (1, 1) sand at NW
    "X": tile("GGSGSGGS", links=[(7, 4)], spade=True),   # (2, 0)
    "Z": tile("GGSGSGGS", spade=True),             # X without the link: arc 7 on its own
}


def test_flip_that_closes_a_patch_scores_a_claim_on_the_flipped_tile():
    s = game(REFORM, [["A", "X"], ["B", "C"]])
    s = place(s, 0, "A", (1, 0))
    s = place(s, 0, "X", (2, 0))
    s = place(s, 1, "B", (0, 1))
    s = place(s, 1, "C", (1, 1))
    assert s.scores == [0, 0]  # the sand still runs into X's open south and east
    s = flip(s, 0, (2, 0), rotation=2, claim={"arc": 7})
    # now complete: the one bulge at (1, 1), Classic 1 x 5 = 5, for the flipper's boot
    assert s.scores == [5, 0]
    assert at(s, (2, 0))["terrain"] == "GSSGSSGS"
    assert summary(s)["supply"][0]["boots"] == 7  # the boot came straight back


def test_flip_in_a_completed_patch_lets_it_be_claimed_again():
    # "The player may flip a tile in a previously completed patch. The player is still
    # entitled to place a welly boot in the now-altered patch"
    s = game(REFORM, [["A", "Z"], ["B", "C"]])
    s = place(s, 0, "A", (1, 0))
    s = place(s, 0, "Z", (2, 0))
    s = place(s, 1, "B", (0, 1))
    s = place(s, 1, "C", (1, 1), claim={"arc": 0})
    assert s.scores == [0, 5]  # the circle closes at once: 1 bulge = 5 for p1
    s = flip(s, 0, (2, 0), rotation=2, claim={"arc": 7})
    assert s.scores == [5, 5]  # the re-formed patch is complete again and p0 claimed it


def test_token_on_a_neighbour_survives_the_flip_and_scores():
    # p1's boot on C stays on the patch the flip re-forms: the flipper may not claim it,
    # and the completion pays p1 (1 bulge = 5)
    s = game(REFORM, [["A", "X"], ["B", "C"]])
    s = place(s, 0, "A", (1, 0))
    s = place(s, 0, "X", (2, 0))
    s = place(s, 1, "B", (0, 1))
    s = place(s, 1, "C", (1, 1), claim={"arc": 0})
    assert code_of(lambda: flip(s, 0, (2, 0), rotation=2, claim={"arc": 7})) == "taken_feature"
    s = flip(s, 0, (2, 0), rotation=2)
    assert s.scores == [0, 5]
    assert [sup["boots"] for sup in summary(s)["supply"]] == [7, 7]


# Classic transplant: an orange snake runs through Q, a spade tile with an orange body.
# Flipped (rotation 2 keeps the body across west and east) the snake is re-formed from
# the new face's body: complete again, and free to claim.
TRANSPLANT = {
    "S0": tile("GGGGGGGG", seg("orange", "end", 1)),
    "Q": tile("GGSSSGGG", seg("orange", "body", 3, 1), spade=True),   # (1, 0)
    "R": tile("SGGGGGSS", seg("orange", "end", 3)),                   # (2, 0): sand west
} | {f"G{i}": tile("GGGGGGGG") for i in range(1, 3)}


@pytest.mark.parametrize("claim, scores", [({"side": 1}, [3, 3]), (None, [0, 3])])
def test_flip_transplants_a_completed_snake_that_can_be_claimed_again(claim, scores):
    s = game(TRANSPLANT, [["Q", "G1"], ["R", "G2"]])
    s = place(s, 0, "Q", (1, 0))
    s = place(s, 0, "G1", (0, 1))
    s = place(s, 1, "R", (2, 0), claim={"side": 3})  # end + body + end = 1 x 3 = 3
    s = place(s, 1, "G2", (0, -1))
    assert s.scores == [0, 3]
    s = flip(s, 0, (1, 0), rotation=2, claim=claim)
    assert at(s, (1, 0))["terrain"] == X_BACK_R2
    assert s.scores == scores  # the transplanted snake: 3 more for its new claimer


# ---------------------------------------------------------------- Pitchfork and Animals

@pytest.mark.parametrize("variant", ["pitchfork", "animals"])
def test_pitchfork_tile_flips_once(variant):
    s = game(TILES, [["X", "G1", "G2"], ["G3", "G4", "G5"]], variant=variant)
    s = place(s, 0, "X", (1, 0))
    s = place(s, 0, "G1", (-1, 0))
    s = flip(s, 1, (1, 0), rotation=2)
    assert at(s, (1, 0))["flips_left"] == 0
    s = place(s, 1, "G3", (0, 1))
    assert code_of(lambda: flip(s, 0, (1, 0), rotation=0)) == "flip_limit"
    assert spades(s) == [10, 9]
