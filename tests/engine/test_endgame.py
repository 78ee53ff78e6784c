"""Supplies, short-game targets, the end-game pass round and end-game scoring (rule book:
"Welly boots and spade cards", "End of the game", "End-game scoring")."""
from __future__ import annotations

import pytest

from engine.marram import RecordError, apply, player_view, summary

from .helpers import flip, game, pass_, place, seg, tile


def timeout(state, player):
    return apply(state, {"type": "timeout", "player": player})


# ---------------------------------------------------------------- supplies

@pytest.mark.parametrize("variant, length, players, boots, pitchforks, spades", [
    ("classic", "long", 2, 7, 0, 4),
    ("classic", "long", 3, 7, 0, 3),
    ("classic", "long", 4, 7, 0, 2),
    ("classic", "short", 2, 7, 0, 4),
    ("classic", "short", 4, 7, 0, 2),
    ("pitchfork", "long", 2, 5, 5, 10),
    ("pitchfork", "long", 3, 5, 5, 7),
    ("pitchfork", "long", 4, 5, 5, 5),
    ("pitchfork", "short", 2, 3, 5, 8),
    ("pitchfork", "short", 3, 3, 5, 5),
    ("pitchfork", "short", 4, 3, 5, 4),
    ("animals", "long", 2, 5, 5, 10),
    ("animals", "long", 3, 5, 5, 7),
    ("animals", "long", 4, 5, 5, 5),
])
def test_starting_supplies(variant, length, players, boots, pitchforks, spades):
    s = game({"S0": tile()}, [[]] * players, variant=variant, length=length)
    for sup in summary(s)["supply"]:
        assert (sup["boots"], sup["pitchforks"], sup["spades"]) == (boots, pitchforks, spades)
        assert sup["tiles_in_hand"] == 3


def test_animals_has_no_short_game():
    with pytest.raises(RecordError):
        game({"S0": tile()}, [[], []], variant="animals", length="short")


@pytest.mark.parametrize("variant, players, target", [
    ("classic", 2, 80), ("classic", 3, 60), ("classic", 4, 50),
    ("pitchfork", 2, 120), ("pitchfork", 3, 80), ("pitchfork", 4, 60),
])
def test_short_game_targets(variant, players, target):
    s = game({"S0": tile()}, [[]] * players, variant=variant, length="short")
    assert player_view(s)["target"] == target


@pytest.mark.parametrize("variant", ["classic", "pitchfork", "animals"])
def test_long_game_has_no_target(variant):
    s = game({"S0": tile()}, [[], []], variant=variant)
    assert player_view(s)["target"] is None


# ---------------------------------------------------------------- the short game

def gold_circle(golds: list[int], silvers: list[int] = ()) -> dict:
    """A grass circle in sand around grid point (1, 1): each of the four tiles holds three
    grass arcs around that corner; items go on those arcs, the starter's first."""
    corners = [("S0", "SSSGGGSS", (3, 4, 5)), ("NE", "SSSSSGGG", (5, 6, 7)),
               ("SW", "SGGGSSSS", (1, 2, 3)), ("SE", "GGSSSSSG", (7, 0, 1))]
    tiles = {}
    for (name, terrain, arcs), g, sv in zip(corners, golds, list(silvers) + [0] * 4,
                                            strict=False):
        items = [(a, "gold") for a in arcs[:g]] + [(a, "silver") for a in arcs[g:g + sv]]
        tiles[name] = tile(terrain, items=items)
    return tiles


@pytest.mark.parametrize("golds, silvers, score, over", [
    ([3, 3, 3, 2], [], 60, True),        # 1 bulge x 5 + 11 gold x 5 = 60: at the target
    ([3, 3, 3, 0], [0, 0, 0, 3], 59, False),  # 5 + 9 x 5 + 3 silver x 3 = 59: one short
])
def test_short_game_ends_as_soon_as_a_move_reaches_the_target(golds, silvers, score, over):
    # Classic short, three players: the target is 60
    s = game(gold_circle(golds, silvers), [["NE", "SW"], ["SE"], []], length="short")
    s = place(s, 0, "NE", (1, 0), claim={"arc": 5})
    s = place(s, 0, "SW", (0, 1))
    s = place(s, 1, "SE", (1, 1))  # p1 closes p0's patch, on p1's first move
    assert s.scores == [score, 0, 0]
    assert s.finished is over
    if over:
        assert s.winners == [0]
        assert summary(s)["current_player"] is None
    else:
        assert summary(s)["current_player"] == 1


# A gold grass circle around grid point (2, 1) in sand, away from the starter, so that two
# players can claim diagonal corners (NW and SE) before the last corner joins them.
TIE_CIRCLE = {
    "S0": tile("SSSSSSSS"),
    "NW": tile("SSSGGGSS", items=[(3, "gold"), (4, "gold"), (5, "gold")]),  # (1, 0)
    "NE": tile("SSSSSGGG", items=[(5, "gold"), (6, "gold"), (7, "gold")]),  # (2, 0)
    "SE": tile("GGSSSSSG", items=[(7, "gold"), (0, "gold"), (1, "gold")]),  # (2, 1)
    "SW": tile("SGGGSSSS", items=[(1, "gold"), (2, "gold"), (3, "gold")]),  # (1, 1)
}


def tie_circle_before_its_last_corner():
    """Classic short, three players (target 60); p2 lets its turns go by. p0 and p1
    hold a boot each on the gold circle; p0 holds SW, its last corner, at (1, 1)."""
    s = game(TIE_CIRCLE, [["NW", "SW"], ["F7", "F8", "NE"], []], rest=["F9", "F10", "SE"],
             length="short")
    s = place(s, 0, "NW", (1, 0), claim={"arc": 4})
    s = place(s, 0, "F1", (0, 1))
    s = place(s, 1, "F7", (0, 2))
    s = place(s, 1, "F8", (1, 2))
    s = timeout(s, 2)
    s = place(s, 0, "F9", (2, 2))
    s = place(s, 0, "F10", (-1, 0))
    s = place(s, 1, "SE", (2, 1), claim={"arc": 0})  # a separate fragment: free to claim
    s = place(s, 1, "NE", (2, 0))  # joins NW and SE: one patch, a boot each
    return timeout(s, 2)


def test_short_game_tie_at_the_target():
    s = tie_circle_before_its_last_corner()
    assert not s.finished
    s = place(s, 0, "SW", (1, 1))
    # 1 bulge x 5 + 12 gold x 5 = 65 for both holders: both over 60, tied
    assert s.scores == [65, 65, 0]
    assert s.finished
    assert s.winners == [0, 1]


def test_short_game_highest_wins_when_two_pass_the_target():
    # as above, but p0 first scores an orange snake (end + end = 2): 67 against 65
    tiles = dict(TIE_CIRCLE)
    tiles["S0"] = tile("SSSSSSSS", seg("orange", "end", 3))
    tiles["O"] = tile("SSSSSSSS", seg("orange", "end", 1))
    s = game(tiles, [["NW", "O", "SW"], ["F7", "F8", "NE"], []], rest=["F9", "F10", "SE"],
             length="short")
    s = place(s, 0, "NW", (1, 0), claim={"arc": 4})
    s = place(s, 0, "O", (-1, 0), claim={"side": 1})
    assert s.scores == [2, 0, 0]
    s = place(s, 1, "F7", (0, 1))
    s = place(s, 1, "F8", (0, 2))
    s = timeout(s, 2)
    s = place(s, 0, "F9", (1, 2))
    s = place(s, 0, "F10", (2, 2))
    s = place(s, 1, "SE", (2, 1), claim={"arc": 0})
    s = place(s, 1, "NE", (2, 0))
    s = timeout(s, 2)
    s = place(s, 0, "SW", (1, 1))
    assert s.scores == [67, 65, 0]
    assert s.finished
    assert s.winners == [0]


# ---------------------------------------------------------------- end-game scoring

# The starter (0, 0) holds a blue head facing east and a gold coin at its SE corner.
ENDGAME = {
    "S0": tile("GGGGGGGG", seg("blue", "head", 1), items=[(4, "gold")]),
    "B": tile("GGGGGGGG", seg("blue", "body", 3, 1)),   # (1, 0): the snake runs on, open
    "A": tile("GGGGGGGG"),                              # (0, 1)
    "C": tile("GGGGGGGG", items=[(0, "silver")]),       # (1, 1): closes grid point (1, 1)
}


def endgame_position():
    s = game(ENDGAME, [["B", "A"], ["C"]])
    s = place(s, 0, "B", (1, 0), claim={"side": 3})   # p0 on the open snake
    s = place(s, 0, "A", (0, 1))
    s = place(s, 1, "C", (1, 1), claim={"arc": 0})    # p1 on the open grass patch
    return s


def test_end_game_pass_round_and_unfinished_features():
    s = endgame_position()
    # p1's fillers fit nowhere: they leave, none come (the deck is empty); p1 gives up
    s = pass_(s, 1)
    s = pass_(s, 1)
    assert s.current == 0 and not s.finished
    # p0's last filler goes the same way; then p0 passes with nothing left anywhere
    s = pass_(s, 0)
    s = pass_(s, 0)
    assert not s.finished  # p1's give-up came while p0 still held a tile: it does not count
    s = pass_(s, 1)
    assert s.finished
    # unfinished snake, head + body: 1 x 2 = 2 for p0
    # unfinished grass patch: 1 complete bulge x 2 + gold 1 + silver 1 = 4 for p1
    assert s.scores == [2, 4]
    assert s.winners == [1]
    assert summary(s)["current_player"] is None


def test_unclaimed_unfinished_features_score_nothing():
    s = game(ENDGAME, [["B", "A"], ["C"]])
    s = place(s, 0, "B", (1, 0))
    s = place(s, 0, "A", (0, 1))
    s = place(s, 1, "C", (1, 1))
    for seat in (1, 1, 0, 0, 1):
        s = pass_(s, seat)
    assert s.finished
    assert s.scores == [0, 0]
    assert s.winners == [0, 1]  # a tie is a tie


def test_end_game_ties_score_in_full():
    # two fragments of a blue snake, one boot each, joined but still open at the west
    tiles = {
        "S0": tile("GGGGGGGG", seg("blue", "body", 3, 1)),
        "W": tile("GGGGGGGG", seg("blue", "body", 3, 1)),    # (-1, 0): open to the west
        "G1": tile("GGGGGGGG"),                             # (0, -1)
        "T": tile("GGGGGGGG", seg("blue", "tail", 2)),      # (1, -1)
        "J": tile("GGGGGGGG", seg("blue", "body", 3, 0)),   # (1, 0)
    }
    s = game(tiles, [["W", "G1"], ["T", "J"]])
    s = place(s, 0, "W", (-1, 0), claim={"side": 1})
    s = place(s, 0, "G1", (0, -1))
    s = place(s, 1, "T", (1, -1), claim={"side": 2})
    s = place(s, 1, "J", (1, 0))
    for seat in (0, 0, 1, 1, 0):
        s = pass_(s, seat)
    assert s.finished
    # body + body + body + tail, unfinished: 1 x 4 = 4 for each of the tied holders
    assert s.scores == [4, 4]


def test_a_flip_breaks_the_pass_round():
    # nothing left to lay, but a spade card may still be played: the round starts again.
    # X (spade) lies between the grass starter and a sand filler; its back, turned twice,
    # is grass on the west and sand on the east again, so it can flip in place.
    tiles = {"S0": tile("GGGGGGGG"), "X": tile("GGSSSGGG", spade=True)}
    s = game(tiles, [["X", "F1", "F2"], ["F3", "F4", "F5"]])
    s = place(s, 0, "X", (1, 0))
    s = place(s, 0, "F1", (2, 0))
    s = place(s, 1, "F3", (3, 0))
    s = place(s, 1, "F4", (4, 0))
    s = place(s, 0, "F2", (5, 0))
    s = pass_(s, 0)   # empty hand: p0 gives up the turn (p1 still holds F5: no count)
    s = place(s, 1, "F5", (6, 0))
    s = pass_(s, 1)   # nothing left anywhere: the round begins (1 of 2)
    s = flip(s, 0, (1, 0), rotation=2)  # p0 plays a spade card instead of passing
    s = pass_(s, 0)   # the round starts over: 1 of 2
    assert not s.finished
    s = pass_(s, 1)   # 2 of 2
    assert s.finished


def test_turns_given_up_while_a_hand_still_holds_tiles_do_not_end_the_game():
    # p1 keeps a grass tile in hand and lets its turns time out; p0 has nothing left.
    # Every seat gives up its turn in a row, but a tile is still in a hand: no end.
    s = game({"S0": tile(), "G1": tile()}, [[], ["G1"]])
    s = pass_(s, 0)
    s = pass_(s, 0)
    s = timeout(s, 1)
    s = pass_(s, 0)
    s = timeout(s, 1)
    s = pass_(s, 0)
    assert not s.finished
    s = place(s, 1, "G1", (1, 0))
    s = pass_(s, 1)  # F4 and F5 (sand) fit nowhere: they leave, p1's hand is empty
    s = pass_(s, 1)  # nothing left anywhere: 1 of 2
    assert not s.finished
    s = pass_(s, 0)  # 2 of 2
    assert s.finished


def test_timeout_with_nothing_to_lay_counts_in_the_round():
    s = game({"S0": tile()}, [[], []])
    s = pass_(s, 0)
    s = pass_(s, 0)
    s = pass_(s, 1)
    s = pass_(s, 1)   # 1 of 2
    s = timeout(s, 0)  # 2 of 2: the engine treats a timeout here as that player's pass
    assert s.finished


# Tiles that fit nowhere on these boards: a beast crosses every side.
STUCK = {f"K{i}": tile("SSSSSSSS", seg("blue", "body", 0, 2), seg("orange", "body", 1, 3))
         for i in range(1, 7)}


@pytest.mark.parametrize("golds, over", [([3, 3, 3, 2], True), ([3, 3, 3, 1], False)])
def test_the_last_tile_can_still_win_the_short_game(golds, over):
    # Classic short, three players (target 60); p1 and p2 hold tiles that fit nowhere
    tiles = gold_circle(golds) | STUCK
    s = game(tiles, [["NE", "SW", "SE"], ["K1", "K2", "K3"], ["K4", "K5", "K6"]],
             length="short")
    s = place(s, 0, "NE", (1, 0), claim={"arc": 5})
    s = place(s, 0, "SW", (0, 1))
    for seat in (1, 1, 2, 2):  # their hands leave the game; nothing comes: turns given up
        s = pass_(s, seat)
    s = place(s, 0, "SE", (1, 1))  # the last tile in the game closes p0's patch
    if over:
        # 1 bulge x 5 + 11 gold x 5 = 60: the target, on the very last tile
        assert s.scores == [60, 0, 0]
        assert s.finished and s.winners == [0]
    else:
        # 5 + 10 x 5 = 55: no knock-out; the game goes on to the pass round and the
        # end-game scoring (nothing unfinished is claimed), highest score wins
        assert s.scores == [55, 0, 0]
        assert not s.finished
        for seat in (0, 1, 2):
            s = pass_(s, seat)
        assert s.finished and s.winners == [0]


def test_no_knockout_by_a_flip_once_every_tile_is_laid():
    # Rule book: the short game is won at the target "as long as there are still tiles
    # to be played or as the last tile has just been played"; afterwards unfinished
    # features are counted. Here the last tile is laid short of the target, then a flip
    # closes a sand circle holding 19 flowers: 1 bulge x 5 + 19 x 4 = 81 >= 80.
    from engine.marram import make_config, new_game

    from .test_flips import REFORM

    flowers = {"S0": [4] * 5, "A": [3] * 5 + [6] * 5, "B": [2] * 4}
    tiles = {}
    for name, t in REFORM.items():
        front = dict(t["front"])
        if name in flowers:
            front["items"] = [{"arc": a, "kind": "flower"} for a in flowers[name]]
        tiles[name] = {**t, "front": front}
    # two players: p0 draws A, X, B; p1 draws C; nothing else
    s = new_game(make_config("classic", "short", ["p0", "p1"], tiles, ["A", "X", "B", "C"],
                             "S0"))
    s = place(s, 0, "A", (1, 0))
    s = place(s, 0, "X", (2, 0))
    s = place(s, 1, "C", (1, 1))
    s = pass_(s, 1)  # an empty hand gives up the rest of the turn
    s = place(s, 0, "B", (0, 1))  # the last tile: the circle still runs into X
    assert s.scores == [0, 0] and not s.finished
    s = flip(s, 0, (2, 0), rotation=2, claim={"arc": 7})
    assert s.scores == [81, 0]
    assert not s.finished  # no knock-out after the last tile: the pass round goes on
    s = pass_(s, 1)
    s = pass_(s, 0)
    assert s.finished and s.winners == [0]
