"""What people see: the seat's view and the spectator's (Pond hides nothing,
and neither shows the fairness seed), the last turn's developments and sets,
the projection kept for lists, who is awaited, and the pages' queries."""
from __future__ import annotations

import json

import pytest

from engine import IllegalAction
from engine.pond import GAME
from engine.protocol import query, standings

from .helpers import egg, move, play, position


def test_the_seat_and_the_spectator_see_the_same_pond_and_never_the_seed():
    seed = "5eed" * 16
    state = GAME.start(GAME.setup({"options": "small"}, ["ann", "bob"], seed))
    state = play(state, egg(0, 1, 1), egg(1, 2, 1))
    views = [GAME.view(state, seat) for seat in (0, 1, None)]
    assert [v.pop("you") for v in views] == [0, 1, None]
    assert views[0] == views[1] == views[2]
    assert views[0]["board"] == ["....", ".tE.", "....", "...."]
    for seat in (0, 1, None):
        assert seed not in json.dumps(GAME.view(state, seat))


def test_the_view_tells_what_the_last_turn_developed_and_scored():
    # ann's tadpole lands on 2,0 next to her egg 1,0 (developed); row 0 T t t scores
    state = play(position("Te..", "..t.", "....", "...."), move(0, (2, 1), (2, 0)))
    assert GAME.view(state, 1)["last"] == {
        "player": 0, "at": [2, 0], "developed": [[1, 0]],
        "scored": [{"at": [0, 0], "colour": "dark", "face": "tadpole"},
                   {"at": [1, 0], "colour": "light", "face": "tadpole"},
                   {"at": [2, 0], "colour": "light", "face": "tadpole"}]}
    assert GAME.view(state, 1)["scores"] == [2, 1]


def test_the_summary_is_the_note_s():
    state = play(GAME.start({"players": ["ann", "bob"], "options": "small"}), egg(0, 0, 3))
    assert GAME.summary(state) == {
        "finished": False, "winners": [], "current_player": 1, "scores": [0, 0],
        "spawn": [10, 11], "board": ["....", "....", "....", "e..."], "end": None}


def test_the_projection_and_standings_follow_the_piles():
    state = play(position("Te..", "..t.", "....", "....", piles=(8, 0)),
                 move(0, (2, 1), (2, 0)))
    p = GAME.projection(state)
    assert (p.finished, p.scores, p.winners, p.to_act, p.end) == (True, (10, 1), (0,), (),
                                                                  "target")
    assert [(s.seat, s.rank, s.won) for s in standings(p)] == [(0, 1, True), (1, 2, False)]


def test_the_player_to_move_is_awaited_for_a_move():
    wait = GAME.awaiting(position("....", "....", "....", "....", to_move=1))
    assert wait.players == (1,) and wait.tasks[0].kind == "move"
    assert wait.tasks[0].detail == {"spawn": 13, "colour": "dark"}
    assert GAME.chance(position("....", "....", "....", "....")) is None
    assert GAME.automatic(position("....", "....", "....", "....")) is None


def test_the_destinations_query_lists_where_a_seat_s_own_piece_may_go():
    state = position("f...", "E...", "....", "....")
    assert sorted(query(GAME, state, "destinations", 0, {"from": [0, 0]})) == \
        [[0, 2], [1, 0], [2, 0]]
    assert query(GAME, state, "destinations", 1, {"from": [0, 0]}) == []  # not bob's
    assert query(GAME, state, "destinations", 0, {"from": [0, 1]}) == []  # an egg
    for args in ({}, {"from": "0,0"}, {"from": [9, 9]}):
        with pytest.raises(IllegalAction):
            query(GAME, state, "destinations", 0, args)


def test_the_preview_query_shows_a_move_s_outcome_and_changes_nothing():
    state = position("Te..", "..t.", "....", "....")
    answer = query(GAME, state, "preview", 0, {"action": move(0, (2, 1), (2, 0))})
    assert answer["gains"] == [2, 1] and answer["board"] == ["...."] * 4
    assert answer["last"]["developed"] == [[1, 0]]
    assert state.board.rows() == ["Te..", "..t.", "....", "...."]
    with pytest.raises(IllegalAction) as e:
        query(GAME, state, "preview", 0, {"action": move(0, (2, 1), (2, 3))})
    assert e.value.code == "tadpole_one_step"
    with pytest.raises(IllegalAction) as e:
        query(GAME, state, "preview", 0, {"action": egg(1, 3, 3)})
    assert e.value.code == "not_your_seat"
    with pytest.raises(IllegalAction) as e:
        query(GAME, state, "preview", 0, {"action": {"type": "resign"}})
    assert e.value.code == "bad_query"
