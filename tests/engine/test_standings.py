"""The final standings (engine.marram.standings): places with ties, the points and where
they came from, which always add up to the score; and no award worth nothing."""
from __future__ import annotations

import pytest

from engine.marram import apply, selfplay, summary
from engine.marram.standings import SOURCES, breakdown, standings

from .helpers import game, pass_, place, tile
from .test_endgame import endgame_position, tie_circle_before_its_last_corner
from .test_patches import circle


def points(row: dict, source: str) -> int:
    return row["sources"][source]["points"]


def test_end_game_points_are_their_own_source():
    s = endgame_position()
    for seat in (1, 1, 0, 0, 1):
        s = pass_(s, seat)
    assert s.finished
    rows = standings(s)
    # p1: unfinished grass patch, 1 bulge x 2 + gold 1 + silver 1 = 4; p0: the open
    # snake, head + body, 1 x 2 = 2
    assert [(r["seat"], r["place"], r["points"], r["winner"]) for r in rows] == \
        [(1, 1, 4, True), (0, 2, 2, False)]
    assert points(rows[0], "end_game") == 4 and points(rows[1], "end_game") == 2
    # an unfinished snake is no freak: only a finished beast has a shape to judge
    assert {e["feature"] for e in s.log} == {"blue snake of 2 segments",
                                            "grass patch with 1 bulge and 1 gold, 1 silver"}
    assert rows[0]["sources"]["end_game"]["count"] == 1
    assert all(points(r, s) == 0 for r in rows for s in SOURCES if s != "end_game")


def test_a_tie_shares_the_place_and_the_next_place_is_skipped():
    s = tie_circle_before_its_last_corner()
    s = place(s, 0, "SW", (1, 1))
    assert s.finished
    rows = standings(s)
    # 65 and 65 (1 bulge x 5 + 12 gold x 5 each), then p2 with nothing: places 1, 1, 3
    assert [(r["place"], r["points"], r["winner"]) for r in rows] == \
        [(1, 65, True), (1, 65, True), (3, 0, False)]
    assert {r["seat"] for r in rows[:2]} == {0, 1}
    assert points(rows[0], "grass") == 65 and rows[0]["sources"]["grass"]["count"] == 1


def test_a_resigned_player_keeps_the_points_but_has_no_place():
    # p1 completes the sand circle of test_patches with a boot on its last corner:
    # 1 bulge x 5 = 5; then p1 resigns and p0 and p2, with nothing, share first place
    s = game(circle("S"), [["NE", "SW"], ["SE"], []])
    s = place(s, 0, "NE", (1, 0))
    s = place(s, 0, "SW", (0, 1))
    s = place(s, 1, "SE", (1, 1), claim={"arc": 0})
    s = apply(s, {"type": "resign", "player": 1})
    rows = standings(s)
    assert [(r["seat"], r["place"], r["points"], r["resigned"]) for r in rows] == \
        [(0, 1, 0, False), (2, 1, 0, False), (1, None, 5, True)]
    assert points(rows[2], "sand") == 5


def test_a_completed_patch_without_bulges_or_items_makes_no_log_line():
    # two tiles whose grass meets only at the middle of their shared side: a complete
    # grass patch with no grid point, so no bulge, and no item: worth 0
    tiles = {"S0": tile("SSSGSSSS"), "E": tile("SSSSSSSG")}
    s = game(tiles, [["E"], []])
    s = place(s, 0, "E", (1, 0), claim={"arc": 7})
    assert s.completed == {"grass": 1}
    assert s.scores == [0, 0]
    assert s.log == []  # no "+0" for p0
    assert summary(s)["supply"][0]["boots"] == 7  # the boot came home all the same


@pytest.mark.parametrize("variant, players, seed", [
    ("classic", 2, 1), ("classic", 4, 2), ("pitchfork", 3, 3), ("animals", 4, 4),
    ("animals", 2, 5),
])
def test_the_sources_add_up_to_every_score_in_whole_games(variant, players, seed):
    state, _, _ = selfplay.play(variant, "long", players, seed, policy="compact")
    assert state.finished
    rows = standings(state)
    assert sorted(r["seat"] for r in rows) == list(range(players))
    for row in rows:
        assert sum(cell["points"] for cell in row["sources"].values()) == row["points"]
        assert row["points"] == state.scores[row["seat"]]
    assert all(entry["points"] > 0 for entry in state.log)
    assert [r["points"] for r in rows] == sorted(state.scores, reverse=True)
    assert rows[0]["place"] == 1 and rows[0]["winner"]
    assert breakdown(state)[rows[0]["seat"]] == rows[0]["sources"]
