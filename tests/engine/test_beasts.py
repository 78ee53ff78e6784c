"""Completed snakes and worms (rule book: "Completing snakes and worms", freaks, the
Beastly tile) and majority scoring."""
from __future__ import annotations

import pytest

from engine.marram import IllegalAction, player_view, summary

from .helpers import game, place, seg, tile


def row_tiles(kinds: list[tuple[str, str]]) -> dict:
    """Tiles T0 (the starter, at x = 0) .. Tn-1 along y = 0, each holding one segment;
    one-sided segments point along the row, two-sided ones cross it west to east."""
    n = len(kinds)
    tiles = {}
    for i, (type_, kind) in enumerate(kinds):
        two_sided = kind in ("body", "saddle")
        sides = (3, 1) if two_sided else (1,) if i == 0 else (3,)
        tiles["S0" if i == 0 else f"T{i}"] = tile("GGGGGGGG", seg(type_, kind, *sides))
    assert n <= 7
    return tiles


def play_row(kinds: list[tuple[str, str]], variant: str = "classic", claim: bool = True):
    """Lay T1.. east of the starter, two moves a turn; p0 claims the beast on T1."""
    tiles = row_tiles(kinds)
    ids = [f"T{i}" for i in range(1, len(kinds))]
    seat_of = [(k // 2) % 2 for k in range(len(ids))]
    hands = [[t for t, p in zip(ids, seat_of, strict=True) if p == seat] for seat in (0, 1)]
    s = game(tiles, hands, variant=variant)
    for k, t in enumerate(ids):
        c = {"side": 3} if claim and k == 0 else None
        s = place(s, seat_of[k], t, (k + 1, 0), claim=c)
    return s


H, B, T = ("blue", "head"), ("blue", "body"), ("blue", "tail")
E, OB = ("orange", "end"), ("orange", "body")
WE, WB, WS = ("worm", "end"), ("worm", "body"), ("worm", "saddle")
ANY = ("any", "body")


@pytest.mark.parametrize("kinds, expected", [
    ([H, B, T], 9),            # head + body + tail, regular blue: 3 x 3 = 9
    ([H, B, B, T], 12),        # regular blue, 4 segments: 3 x 4 = 12
    ([T, B, H], 9),            # a snake may run either way: 9
    ([E, E], 2),               # orange, head and tail alike: 1 x 2 = 2
    ([E, OB, E], 3),           # orange: 1 x 3 = 3
    ([WE, WS, WE], 6),         # worm with its saddle: 2 x 3 = 6
    ([WE, WS, WB, WE], 8),     # worm, saddle + one more body: 2 x 4 = 8
])
def test_regular_beasts(kinds, expected):
    s = play_row(kinds)
    assert s.scores == [expected, 0]


@pytest.mark.parametrize("kinds", [
    [H, T],                    # blue head and tail without a body
    [H, B, H],                 # two heads
    [T, B, T],                 # two tails
    [WE, WB, WE],              # worm without a saddle
    [WE, WS, WS, WE],          # worm with two saddles
])
def test_freaks_score_three(kinds):
    # a freak scores 3 for the whole beast, whatever its length
    s = play_row(kinds)
    assert s.scores == [3, 0]


@pytest.mark.parametrize("type_", ["blue", "orange", "worm"])
def test_a_loop_is_a_freak(type_):
    # four bodies in a 2 x 2 ring, no head or tail: freak, 3
    tiles = {
        "S0": tile("GGGGGGGG", seg(type_, "body", 1, 2)),  # (0, 0)
        "A": tile("GGGGGGGG", seg(type_, "body", 3, 2)),   # (1, 0)
        "B": tile("GGGGGGGG", seg(type_, "body", 0, 3)),   # (1, 1)
        "C": tile("GGGGGGGG", seg(type_, "body", 0, 1)),   # (0, 1)
    }
    s = game(tiles, [["A", "B"], ["C"]])
    s = place(s, 0, "A", (1, 0), claim={"side": 3})
    s = place(s, 0, "B", (1, 1))
    assert s.scores == [0, 0]
    s = place(s, 1, "C", (0, 1))
    assert s.scores == [3, 0]


def test_beast_with_an_open_end_is_not_complete():
    # head + body, the body's east side still open: nothing yet, the boot stays out
    s = play_row([H, B, B])  # head, body, body: the last body is open to the east
    assert s.scores == [0, 0]
    assert summary(s)["supply"][0]["boots"] == 6


def test_completed_beast_sends_its_boot_home():
    s = play_row([H, B, T])
    assert summary(s)["supply"][0]["boots"] == 7  # Classic: 7 boots, all back


def test_completed_beast_sends_its_pitchfork_home():
    s = play_row([E, OB, E], variant="pitchfork")
    assert s.scores == [3, 0]  # orange 1 x 3
    sup = summary(s)["supply"][0]
    assert (sup["boots"], sup["pitchforks"]) == (5, 5)


# ---------------------------------------------------------------- the Beastly tile

@pytest.mark.parametrize("kinds, expected", [
    ([H, ANY, T], 9),          # the Beastly tile takes blue: 3 x 3 = 9
    ([E, ANY, E], 3),          # takes orange: 1 x 3 = 3
    ([WE, WS, ANY, WE], 8),    # takes worm, one saddle: 2 x 4 = 8
    ([H, ANY, ANY, T], 12),    # two Beastly tiles in a row: blue 3 x 4 = 12
])
def test_beastly_tile_extends_any_beast(kinds, expected):
    s = play_row(kinds)
    assert s.scores == [expected, 0]


def test_beastly_tile_then_only_matches_its_type():
    # once joined to a blue head, the far side of the Beastly tile is blue: an orange end
    # cannot meet it
    tiles = row_tiles([H, ANY, E])
    s = game(tiles, [["T1", "T2"], []])
    s = place(s, 0, "T1", (1, 0))
    with pytest.raises(IllegalAction) as e:
        place(s, 0, "T2", (2, 0))
    assert e.value.code == "edge_mismatch"


def beastly_corner(end: tuple[str, str]) -> dict:
    """Starter (0, 0) with a blue head facing east; P (0, 1) plain; X (1, 1) with ``end``
    facing north; the Beastly tile K for (1, 0) joins west (blue) and south (``end``)."""
    return {
        "S0": tile("GGGGGGGG", seg("blue", "head", 1)),
        "P": tile("GGGGGGGG"),
        "X": tile("GGGGGGGG", seg(end[0], end[1], 0)),
        "K": tile("GGGGGGGG", seg("any", "body", 3, 2)),
    }


def test_beastly_tile_cannot_join_two_types():
    s = game(beastly_corner(E), [["P", "X"], ["K"]])
    s = place(s, 0, "P", (0, 1))
    s = place(s, 0, "X", (1, 1))
    with pytest.raises(IllegalAction) as e:
        place(s, 1, "K", (1, 0))  # would make one beast of a blue head and an orange end
    assert e.value.code == "edge_mismatch"
    assert (1, 0) not in s.board


def test_beastly_tile_joining_one_type_around_a_corner():
    # the same corner with a blue tail: head + Beastly body + tail, blue 3 x 3 = 9
    s = game(beastly_corner(T), [["P", "X"], ["K"]])
    s = place(s, 0, "P", (0, 1))
    s = place(s, 0, "X", (1, 1))
    s = place(s, 1, "K", (1, 0), claim={"side": 3})
    assert s.scores == [0, 9]
    view = {tuple(t["at"]): t for t in player_view(s)["board"]}
    assert {b["feature_type"] for b in view[(1, 0)]["beasts"]} == {"blue"}


# ---------------------------------------------------------------- majority

# A blue snake around the starter: H (0,-1) -> J1 (1,-1) -> X (1,0) -> J2 (1,1) -> T (0,1).
RING = {
    "S0": tile("GGGGGGGG"),
    "H": tile("GGGGGGGG", seg("blue", "head", 1)),
    "J1": tile("GGGGGGGG", seg("blue", "body", 3, 2)),
    "X": tile("GGGGGGGG", seg("blue", "body", 0, 2)),
    "J2": tile("GGGGGGGG", seg("blue", "body", 0, 3)),
    "T": tile("GGGGGGGG", seg("blue", "tail", 1)),
}


def test_majority_takes_the_beast():
    s = game(RING, [["H", "X", "J2"], ["T", "J1"]])
    s = place(s, 0, "H", (0, -1), claim={"side": 1})   # p0 on the head's fragment
    s = place(s, 0, "X", (1, 0), claim={"side": 0})    # p0 on a second fragment
    s = place(s, 1, "T", (0, 1), claim={"side": 1})    # p1 on the tail's fragment
    s = place(s, 1, "J1", (1, -1))                     # joins head and X: two p0 boots
    assert s.scores == [0, 0]
    s = place(s, 0, "J2", (1, 1))
    # 5 segments, regular blue 3 x 5 = 15 for p0 (2 boots against 1); p1 gets nothing
    assert s.scores == [15, 0]
    assert [sup["boots"] for sup in summary(s)["supply"]] == [7, 7]  # all three back


# Two fragments claimed apart and joined by the last tile: the starter is a body.
TIE = {
    "S0": tile("GGGGGGGG", seg("blue", "body", 3, 1)),   # (0, 0)
    "H": tile("GGGGGGGG", seg("blue", "head", 1)),       # (-1, 0)
    "G1": tile("GGGGGGGG"),                              # (0, -1)
    "T": tile("GGGGGGGG", seg("blue", "tail", 2)),       # (1, -1)
    "J": tile("GGGGGGGG", seg("blue", "body", 3, 0)),    # (1, 0)
}


def test_tied_majority_all_score_in_full():
    s = game(TIE, [["H", "G1"], ["T", "J"]])
    s = place(s, 0, "H", (-1, 0), claim={"side": 1})
    s = place(s, 0, "G1", (0, -1))
    s = place(s, 1, "T", (1, -1), claim={"side": 2})
    s = place(s, 1, "J", (1, 0))
    # head + 2 bodies + tail, regular blue 3 x 4 = 12, one boot each: both score 12
    assert s.scores == [12, 12]
