"""Pitchfork and Animals: completed beasts leave the board, bare tiles gain the spade, and
the last blue snake head stays (rule book: "Removal of completed beasts")."""
from __future__ import annotations

import pytest

from engine.marram import IllegalAction, player_view, summary

from .helpers import flip, game, place, seg, tile


def code_of(fn) -> str:
    with pytest.raises(IllegalAction) as e:
        fn()
    return e.value.code


def board(state) -> dict:
    return {tuple(t["at"]): t for t in player_view(state)["board"]}


def beasts_at(state, pos) -> list[tuple[str, str]]:
    return [(b["type"], b["kind"]) for b in board(state)[pos]["beasts"]]


# An orange snake of two ends: the starter's (east) and O's (west). O is grass in the
# west and sand in the east ("GGSSSGGG"): with its terrain swapped and turned twice it
# reads "GSSSSSGG", grass again on the west, so once it gains a spade it flips to
# rotation 2 next to the all-grass starter.
ORANGE = {
    "S0": tile("GGGGGGGG", seg("orange", "end", 1)),
    "O": tile("GGSSSGGG", seg("orange", "end", 3)),
    "G1": tile("GGGGGGGG"),
}


@pytest.mark.parametrize("variant", ["pitchfork", "animals"])
def test_completed_beast_leaves_the_board(variant):
    s = game(ORANGE, [["O", "G1"], []], variant=variant)
    s = place(s, 0, "O", (1, 0), claim={"side": 3})
    assert s.scores == [2, 0]  # orange end + end = 1 x 2 = 2
    assert summary(s)["supply"][0]["pitchforks"] == 5  # back in stock
    assert beasts_at(s, (0, 0)) == [] and beasts_at(s, (1, 0)) == []


def test_classic_beasts_stay_after_completion():
    s = game(ORANGE, [["O", "G1"], []])
    s = place(s, 0, "O", (1, 0), claim={"side": 3})
    assert s.scores == [2, 0]
    assert beasts_at(s, (1, 0)) == [("orange", "end")]
    assert board(s)[(1, 0)]["spade"] is False


@pytest.mark.parametrize("variant", ["pitchfork", "animals"])
def test_tile_that_lost_all_segments_gains_the_spade_and_flips_to_swapped_terrain(variant):
    s = game(ORANGE, [["O", "G1"], []], variant=variant)
    s = place(s, 0, "O", (1, 0), claim={"side": 3})
    assert board(s)[(1, 0)]["spade"] is True
    assert board(s)[(0, 0)]["spade"] is True  # even the starter, once bare
    # the flip keeps the face and swaps grass and sand; only rotation 2 fits the starter
    assert code_of(lambda: flip(s, 0, (1, 0), rotation=0)) == "edge_mismatch"
    s = flip(s, 0, (1, 0), rotation=2)
    t = board(s)[(1, 0)]
    assert (t["face"], t["inverted"], t["terrain"]) == ("front", True, "GSSSSSGG")
    assert summary(s)["supply"][0]["spades"] == 9
    assert t["flips_left"] == 0


def test_gained_spade_flip_swaps_the_face_that_lies_up():
    # O2 is laid on its back (the front mirrored: "GGSSSGGG" up). Once bare, its flip
    # keeps that face and swaps grass and sand ("SSGGGSSS"), here turned twice:
    # "GSSSSSGG". (Turning to the front instead would read "GGSSSGGG".)
    tiles = dict(ORANGE)
    tiles["O2"] = tile("SGGGGGSS", seg("orange", "end", 3))
    s = game(tiles, [["O2", "G1"], []], variant="pitchfork")
    s = place(s, 0, "O2", (1, 0), face="back", claim={"side": 3})
    assert s.scores == [2, 0]
    s = flip(s, 0, (1, 0), rotation=2)
    t = board(s)[(1, 0)]
    assert (t["face"], t["inverted"], t["terrain"]) == ("back", True, "GSSSSSGG")


def test_tile_with_a_boot_on_it_does_not_gain_the_spade():
    # O completes the orange snake while p0's boot goes on O's grass: no spade for O
    s = game(ORANGE, [["O", "G1"], []], variant="pitchfork")
    s = place(s, 0, "O", (1, 0), claim={"arc": 0})
    assert beasts_at(s, (1, 0)) == []
    assert board(s)[(1, 0)]["spade"] is False
    assert code_of(lambda: flip(s, 0, (1, 0), rotation=2)) == "not_flippable"
    assert board(s)[(0, 0)]["spade"] is True  # the starter held no token


def test_spade_tile_with_beasts_loses_the_spade_then_regains_it():
    # Q is a spade tile with two orange ends (west and east), each its own beast
    tiles = {
        "S0": tile("GGGGGGGG", seg("orange", "end", 1)),
        "Q": tile("GGGGGGGG", seg("orange", "end", 3), seg("orange", "end", 1), spade=True),
        "R": tile("GGGGGGGG", seg("orange", "end", 3)),
        "G1": tile("GGGGGGGG"),
    }
    s = game(tiles, [["Q", "G1"], ["R"]], variant="pitchfork")
    s = place(s, 0, "Q", (1, 0))  # the west end meets the starter's: that snake leaves
    assert beasts_at(s, (1, 0)) == [("orange", "end")]
    assert board(s)[(1, 0)]["spade"] is False
    s = place(s, 0, "G1", (0, 1))
    assert code_of(lambda: flip(s, 1, (1, 0), rotation=0)) == "not_flippable"
    s = place(s, 1, "R", (2, 0))  # the east end's snake completes and leaves too
    assert beasts_at(s, (1, 0)) == []
    assert board(s)[(1, 0)]["spade"] is True


# ---------------------------------------------------------------- the last blue head

BLUE = {
    "S0": tile("GGGGGGGG", seg("blue", "head", 1)),     # (0, 0)
    "B": tile("GGGGGGGG", seg("blue", "body", 3, 1)),   # (1, 0)
    "T": tile("GGGGGGGG", seg("blue", "tail", 3)),      # (2, 0)
    "H2": tile("GGGGGGGG", seg("blue", "head", 2)),     # a head facing south, open
    "B2": tile("GGGGGGGG", seg("blue", "body", 3, 1)),  # (1, 1)
    "T2": tile("GGGGGGGG", seg("blue", "tail", 3)),     # (2, 1)
    "H3": tile("GGGGGGGG", seg("blue", "head", 1)),     # (0, 1)
    "TA": tile("GGGGGGGG", seg("blue", "tail", 1)),     # (0, 1)
    "TB": tile("GGGGGGGG", seg("blue", "tail", 3)),     # (1, 1)
    "OT": tile("GGGGGGGG", seg("blue", "tail", 3)),     # a tail for the starter's head
}
SNAKE1 = [(0, 0), (1, 0), (2, 0)]
SNAKE2 = [(0, 1), (1, 1), (2, 1)]


def first_snake(hands1: list[str], variant: str = "pitchfork"):
    s = game(BLUE, [["B", "T"], hands1], variant=variant)
    s = place(s, 0, "B", (1, 0), claim={"side": 3})
    return place(s, 0, "T", (2, 0))


@pytest.mark.parametrize("variant", ["pitchfork", "animals"])
def test_completed_blue_snake_stays_while_it_has_the_only_head(variant):
    s = first_snake(["H2"], variant)
    assert s.scores == [9, 0]  # head + body + tail = 3 x 3 = 9
    assert summary(s)["supply"][0]["pitchforks"] == 5
    assert [beasts_at(s, p) for p in SNAKE1] == [
        [("blue", "head")], [("blue", "body")], [("blue", "tail")]]


def test_kept_snake_leaves_once_another_head_is_laid():
    s = first_snake(["H2"])
    s = place(s, 1, "H2", (0, 1))  # a second blue head on the board
    assert [beasts_at(s, p) for p in SNAKE1] == [[], [], []]
    assert beasts_at(s, (0, 1)) == [("blue", "head")]
    assert all(board(s)[p]["spade"] for p in SNAKE1)  # bare tiles gain the spade


def test_older_kept_snake_leaves_when_a_newer_one_completes():
    s = game(BLUE, [["B", "T", "H3"], ["B2", "T2"]], variant="pitchfork")
    s = place(s, 0, "B", (1, 0), claim={"side": 3})
    s = place(s, 0, "T", (2, 0))           # snake 1 complete, kept for its head
    s = place(s, 1, "B2", (1, 1), claim={"side": 1})
    s = place(s, 1, "T2", (2, 1))          # body + tail, no head yet: snake 1 stays
    assert beasts_at(s, (0, 0)) == [("blue", "head")]
    s = place(s, 0, "H3", (0, 1))          # its head completes snake 2 (9 for p1)
    assert s.scores == [9, 9]
    assert [beasts_at(s, p) for p in SNAKE1] == [[], [], []]   # the earlier one goes
    assert [len(beasts_at(s, p)) for p in SNAKE2] == [1, 1, 1]  # the newer one stays


def test_completed_blue_snake_leaves_at_once_if_another_head_is_on_the_board():
    s = game(BLUE | {"G9": tile("GGGGGGGG")}, [["H2", "G9"], ["B", "T"]], variant="pitchfork")
    s = place(s, 0, "H2", (0, 1))
    s = place(s, 0, "G9", (0, -1))
    s = place(s, 1, "B", (1, 0), claim={"side": 3})
    s = place(s, 1, "T", (2, 0))
    assert s.scores == [0, 9]
    assert [beasts_at(s, p) for p in SNAKE1] == [[], [], []]
    assert beasts_at(s, (0, 1)) == [("blue", "head")]


def test_headless_blue_freak_leaves_and_the_kept_snake_stays():
    s = first_snake(["TA", "TB"])
    s = place(s, 1, "TA", (0, 1), claim={"side": 1})
    s = place(s, 1, "TB", (1, 1))          # tail + tail: a freak without a head, 3
    assert s.scores == [9, 3]
    assert beasts_at(s, (0, 1)) == [] and beasts_at(s, (1, 1)) == []
    assert [len(beasts_at(s, p)) for p in SNAKE1] == [1, 1, 1]


def test_blue_freak_with_a_head_stays_as_the_only_head():
    # head + tail without a body: a freak (3), but it has the board's only head
    s = game(BLUE, [["OT"], []], variant="pitchfork")
    s = place(s, 0, "OT", (1, 0), claim={"side": 3})
    assert s.scores == [3, 0]
    assert beasts_at(s, (0, 0)) == [("blue", "head")]
    assert beasts_at(s, (1, 0)) == [("blue", "tail")]
