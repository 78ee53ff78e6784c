"""Completed grass and sand patches: bulges and items (rule book: "Completing patches").

Geometry reminders (spec): arcs 0 NW, 1 N, 2 NE, 3 E, 4 SE, 5 S, 6 SW, 7 W; the four
corner arcs around a grid point belong to the four tiles around it, so a "circle" is
one corner arc of each of four tiles in a square.
"""
from __future__ import annotations

import pytest

from engine.marram import summary

from .helpers import game, place, seg, tile


def swap(terrain: str) -> str:
    return terrain.translate(str.maketrans("GS", "SG"))


def circle(patch: str, item: str | None = None) -> dict:
    """Four tiles whose corner arcs around grid point (1, 1) hold a one-bulge patch of
    ``patch`` terrain ('S' sand in grass, 'G' grass in sand); the NE tile may hold an item."""
    def t(terrain: str, **kw) -> dict:
        return tile(terrain if patch == "S" else swap(terrain), **kw)

    items = [(6, item)] if item else []
    return {
        "S0": t("GGGGSGGG"),               # (0, 0): SE corner
        "NE": t("GGGGGGSG", items=items),  # (1, 0): SW corner
        "SW": t("GGSGGGGG"),               # (0, 1): NE corner
        "SE": t("SGGGGGGG"),               # (1, 1): NW corner
    }


def play_circle(tiles: dict, variant: str = "classic"):
    s = game(tiles, [["NE", "SW"], ["SE"]], variant=variant)
    s = place(s, 0, "NE", (1, 0), claim={"arc": 6})
    s = place(s, 0, "SW", (0, 1))
    assert s.scores == [0, 0]  # three of four corners: still open
    return place(s, 1, "SE", (1, 1))


@pytest.mark.parametrize("variant, expected", [("classic", 5), ("pitchfork", 3)])
@pytest.mark.parametrize("terrain", ["S", "G"])
def test_circle_is_one_bulge(variant, expected, terrain):
    # a circle is the simplest complete patch: 1 bulge; Classic 5 a bulge, Pitchfork 3
    s = play_circle(circle(terrain), variant)
    assert s.scores == [expected, 0]  # p1 completed it but holds no boot


@pytest.mark.parametrize("variant, terrain, item, expected", [
    ("classic", "G", "gold", 10),      # 1 bulge x 5 + gold 5
    ("classic", "G", "silver", 8),     # 5 + silver 3
    ("classic", "S", "flower", 9),     # 5 + flower 4
    ("pitchfork", "G", "gold", 7),     # 1 bulge x 3 + gold 4
    ("pitchfork", "G", "silver", 5),   # 3 + silver 2
    ("pitchfork", "S", "flower", 6),   # 3 + flower 3
    ("animals", "G", "gold", 7),       # Animals values are Pitchfork's
])
def test_item_values(variant, terrain, item, expected):
    s = play_circle(circle(terrain, item), variant)
    assert s.scores == [expected, 0]


@pytest.mark.parametrize("variant", ["classic", "pitchfork"])
def test_completed_patch_sends_its_boot_home(variant):
    tiles = circle("S")
    s = game(tiles, [["NE", "SW"], ["SE"]], variant=variant)
    s = place(s, 0, "NE", (1, 0), claim={"arc": 6})
    start = 7 if variant == "classic" else 5
    assert summary(s)["supply"][0]["boots"] == start - 1
    s = place(s, 0, "SW", (0, 1))
    s = place(s, 1, "SE", (1, 1))
    assert summary(s)["supply"][0]["boots"] == start
    assert s.board[(1, 0)].token is None


# A dumbbell: sand over grid points (1, 1) and (2, 1), joined through the shared side of
# (1, 0) and (1, 1), whose sides there are all sand.
DUMBBELL = {
    "S0": tile("GGGGSGGG"),  # (0, 0) SE corner sand
    "A": tile("GGGGSSSG"),   # (1, 0) S side sand
    "B": tile("GGSGGGGG"),   # (0, 1) NE corner
    "C": tile("SSSGGGGG"),   # (1, 1) N side sand
    "D": tile("GGGGGGSG"),   # (2, 0) SW corner
    "E": tile("SGGGGGGG"),   # (2, 1) NW corner
}


@pytest.mark.parametrize("variant, expected", [("classic", 10), ("pitchfork", 6)])
def test_dumbbell_is_two_bulges(variant, expected):
    # a dumbbell has 2 complete bulges: Classic 2 x 5 = 10, Pitchfork 2 x 3 = 6
    s = game(DUMBBELL, [["A", "B", "E"], ["C", "D"]], variant=variant)
    s = place(s, 0, "A", (1, 0), claim={"arc": 5})
    s = place(s, 0, "B", (0, 1))
    s = place(s, 1, "C", (1, 1))
    s = place(s, 1, "D", (2, 0))
    assert s.scores == [0, 0]  # the east bulge still lacks its fourth tile
    s = place(s, 0, "E", (2, 1))
    assert s.scores == [expected, 0]


def test_unclaimed_patch_scores_for_nobody():
    # completion without any boot on the patch: no points
    s = game(circle("S", "flower"), [["NE", "SW"], ["SE"]])
    s = place(s, 0, "NE", (1, 0))
    s = place(s, 0, "SW", (0, 1))
    s = place(s, 1, "SE", (1, 1))
    assert s.scores == [0, 0]


def test_patch_open_on_one_side_is_not_complete():
    # three tiles of the circle laid around a fourth gap: the sand still touches an empty side
    s = game(circle("S", "flower"), [["NE", "SW"], ["SE"]])
    s = place(s, 0, "NE", (1, 0), claim={"arc": 6})
    s = place(s, 0, "SW", (0, 1))
    assert s.scores == [0, 0]
    assert summary(s)["supply"][0]["boots"] == 6  # still on the board


def test_beasts_do_not_cut_a_patch():
    # an orange snake slithers across the circle's tiles (between NE and SE, and from
    # SW to SE): the patch is read from the terrain alone, 1 bulge + flower = 5 + 4 = 9
    tiles = circle("S", "flower")
    tiles["NE"] = tile("GGGGGGSG", seg("orange", "end", 2), items=[(6, "flower")])
    tiles["SW"] = tile("GGSGGGGG", seg("orange", "end", 1))
    tiles["SE"] = tile("SGGGGGGG", seg("orange", "body", 0, 3))
    s = game(tiles, [["NE", "SW"], ["SE"]])
    s = place(s, 0, "NE", (1, 0), claim={"arc": 6})
    s = place(s, 0, "SW", (0, 1))
    s = place(s, 1, "SE", (1, 1))
    # the patch (9) for p0; the orange snake end-body-end completes too, unclaimed
    assert s.scores == [9, 0]


# A grass circle in sand around grid point (1, 2): corners NW (0, 1), NE (1, 1),
# SW (0, 2), SE (1, 2); the sand starter and a sand filler at (1, 0) hold them up.
CORNERS = {
    "S0": tile("SSSSSSSS"),
    "NW": tile("SSSSGSSS", items=[(4, "gold")]),
    "NE": tile("SSSSSSGS"),
    "SW": tile("SSGSSSSS"),
    "SE": tile("GSSSSSSS"),
}
AT = {"NW": (0, 1), "NE": (1, 1), "SW": (0, 2), "SE": (1, 2)}


@pytest.mark.parametrize("order", [
    ["NE", "SE", "SW", "NW"],
    ["NW", "SW", "SE", "NE"],
    ["NW", "NE", "SE", "SW"],
    ["NW", "NE", "SW", "SE"],
], ids=lambda order: f"{order[-1]}-last")
def test_circle_completes_whichever_corner_comes_last(order):
    # 1 bulge x 5 + gold 5 = 10, whichever tile closes the bulge
    s = game(CORNERS, [["F9", order[0], order[3]], [order[1], order[2]]])
    s = place(s, 0, "F9", (1, 0))
    s = place(s, 0, order[0], AT[order[0]], claim={"arc": {"NW": 4, "NE": 6, "SW": 2,
                                                          "SE": 0}[order[0]]})
    s = place(s, 1, order[1], AT[order[1]])
    s = place(s, 1, order[2], AT[order[2]])
    assert s.scores == [0, 0]
    s = place(s, 0, order[3], AT[order[3]])
    assert s.scores == [10, 0]
