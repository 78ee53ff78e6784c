"""What a move would score before it is made (engine.marram.preview): the move applied to
a copy, the awards read off, the state itself untouched. Each expected score is
worked out from the rule book ("Scoring after each move") in the comment beside it."""
from __future__ import annotations

import json

import pytest

from engine import IllegalAction
from engine.marram.preview import score_preview

from .helpers import game, place, seg, tile
from .test_endgame import gold_circle, tie_circle_before_its_last_corner
from .test_patches import circle


def laid(tile_id: str, at: tuple[int, int], player: int, claim: dict | None = None,
         rotation: int = 0) -> dict:
    return {"type": "place", "player": player, "tile": tile_id, "face": "front",
            "at": list(at), "rotation": rotation, "claim": claim}


def sand_circle_waiting_for_its_last_corner(claim_first: bool = True):
    """Three of the four corners of a sand circle (test_patches.circle): p0 laid NE
    (with a boot on the sand, or not) and SW; p1 holds SE, the last corner."""
    s = game(circle("S"), [["NE", "SW"], ["SE"]])
    s = place(s, 0, "NE", (1, 0), claim={"arc": 6} if claim_first else None)
    return place(s, 0, "SW", (0, 1))


def test_the_last_corner_of_a_claimed_circle_scores_for_the_holder_not_the_mover():
    s = sand_circle_waiting_for_its_last_corner()
    before = (list(s.scores), list(s.log), set(s.board), [h[:] for h in s.hands])
    answer = score_preview(s, laid("SE", (1, 1), 1))
    # Classic: a completed sand circle is 1 bulge x 5 = 5, for p0 who holds its only boot
    assert answer["gains"] == [5, 0]
    assert answer["scores"] == [5, 0]
    assert [(a["seat"], a["points"], a["kind"]) for a in answer["awards"]] == [(0, 5, "sand")]
    assert answer["awards"][0]["feature"] == "sand patch with 1 bulge"
    assert answer["completed"] == {"sand": 1}
    assert answer["ends_game"] is False
    # nothing changed: the preview played the move on a copy
    assert (list(s.scores), list(s.log), set(s.board), [h[:] for h in s.hands]) == before


def test_a_claim_on_the_completing_tile_takes_an_unclaimed_feature():
    s = sand_circle_waiting_for_its_last_corner(claim_first=False)
    # nobody holds the circle: completing it scores nothing, but it is completed
    bare = score_preview(s, laid("SE", (1, 1), 1))
    assert bare["gains"] == [0, 0] and bare["awards"] == []
    assert bare["completed"] == {"sand": 1}
    # the SE tile's NW corner (arc 0) is the circle's: a boot there makes it p1's, 5
    claimed = score_preview(s, laid("SE", (1, 1), 1, claim={"arc": 0}))
    assert claimed["gains"] == [0, 5]


def test_a_regular_blue_snake_is_three_a_segment():
    tiles = {
        "S0": tile("GGGGGGGG", seg("blue", "head", 1)),
        "B": tile("GGGGGGGG", seg("blue", "body", 3, 1)),
        "T": tile("GGGGGGGG", seg("blue", "tail", 3)),
    }
    s = game(tiles, [["B", "T"], []])
    s = place(s, 0, "B", (1, 0), claim={"side": 3})
    answer = score_preview(s, laid("T", (2, 0), 0))
    # head + body + tail: 3 x 3 = 9 for p0's boot
    assert answer["gains"] == [9, 0]
    assert answer["awards"][0]["feature"] == "blue snake of 3 segments"
    assert answer["completed"] == {"blue": 1}


def test_tied_holders_both_score_in_full_and_the_short_game_ends():
    # test_endgame.test_short_game_tie_at_the_target, before the last corner
    s = tie_circle_before_its_last_corner()
    answer = score_preview(s, laid("SW", (1, 1), 0))
    # 1 bulge x 5 + 12 gold x 5 = 65 to each of the two boots: both over the 60 target
    assert answer["gains"] == [65, 65, 0]
    assert answer["ends_game"] is True
    assert not s.finished


def test_reaching_the_short_game_target_is_told():
    s = game(gold_circle([3, 3, 3, 2]), [["NE", "SW"], ["SE"], []], length="short")
    s = place(s, 0, "NE", (1, 0), claim={"arc": 5})
    s = place(s, 0, "SW", (0, 1))
    answer = score_preview(s, laid("SE", (1, 1), 1))
    # 1 bulge x 5 + 11 gold x 5 = 60 for p0: the three-player target
    assert answer["gains"] == [60, 0, 0] and answer["ends_game"] is True


def test_an_illegal_move_is_refused_as_apply_refuses_it():
    s = sand_circle_waiting_for_its_last_corner()
    with pytest.raises(IllegalAction) as refused:
        score_preview(s, laid("SE", (1, 1), 0))  # p0's turn is over
    assert refused.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as refused:
        score_preview(s, laid("SE", (5, 5), 1))
    assert refused.value.code == "detached"


def test_the_preview_shows_nothing_of_the_tiles_still_to_draw():
    # p0's second move ends the turn and tops the hand up from the deck: the copy
    # holds the next tiles, the answer none of them
    s = game(circle("S"), [["NE", "SW"], ["SE"]], rest=["SECRET1", "SECRET2"])
    s = place(s, 0, "NE", (1, 0), claim={"arc": 6})
    answer = score_preview(s, laid("SW", (0, 1), 0))
    assert "SECRET" not in json.dumps(answer)
