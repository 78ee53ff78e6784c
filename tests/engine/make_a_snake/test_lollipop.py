"""The lollipop hunt (spec note, "The lollipop hunt"): one snake, played by
every seat in turn, must touch the four lollipops 15 from the neck (headings 45,
135, 225, 315) before a take leaves two stacks; everyone wins or loses together."""
from __future__ import annotations

from engine.make_a_snake import GAME

from .helpers import connect, moves, new, play, roll, summary, take

# red-5, green-5, blue-5, yellow-5 up: a full circle of radius 10 round (10,0);
# it passes 10.62 - 10 = 0.62 from lollipops 0 (10.61, 10.61) and 3 (10.61, -10.61).
# Then the four arcs 8 45 down: the lower half circle round (-8,0) to (-16,0),
# heading north, 10.92 - 8 = 2.92 from lollipop 2 (-10.61, -10.61). Then red-8
# down: north to (-16,4), right round (-11,4) to (-11,9), 1.65 from lollipop 1.
HUNT = {"red": ["red-5", "red-3", "red-8"], "green": ["green-5", "green-3"],
        "blue": ["blue-5", "blue-3"], "yellow": ["yellow-5", "yellow-3"]}
CIRCLE = ["red up", "green up", "blue up", "yellow up"]
HALF = ["red down", "green down", "blue down", "yellow down"]


def hunt(players: int = 3, advanced: bool = False, **tops):
    return new(players=players, mode="lollipop", advanced=advanced, **(tops or HUNT))


def test_a_tile_touches_a_lollipop_coming_closer_than_4_to_its_centre():
    # red-5 up ends at (10,-10): √(0.61² + 0.61²) = 0.86 from lollipop 3
    state = moves(hunt(), "red up")
    assert summary(state)["touched"] == [3]
    assert summary(state)["snakes"] == [[["red-5", "up"]]]  # one snake for everybody


def test_every_seat_plays_the_one_snake_in_turn():
    state = moves(hunt(), "red up", "green up")
    s = summary(state)
    assert s["snakes"] == [[["red-5", "up"], ["green-5", "up"]]]
    assert s["current_player"] == 2 and len(s["open_ends"]) == 1


def test_the_players_win_together_as_soon_as_all_four_are_touched():
    state = moves(hunt(), *CIRCLE)
    assert summary(state)["touched"] == [0, 3]
    state = moves(state, *HALF)
    assert summary(state)["touched"] == [0, 2, 3]
    assert not summary(state)["finished"]
    state = moves(state, "red down")
    s = summary(state)
    assert s["touched"] == [0, 1, 2, 3]
    assert s["finished"] and s["winners"] == [0, 1, 2] and s["end"] == "won"
    p = GAME.projection(state)
    assert p.cooperative and p.result == "won" and p.winners == (0, 1, 2)


def test_a_resigned_seat_does_not_share_the_win():
    state = play(hunt(), {"type": "resign", "player": 1})
    state = moves(state, *CIRCLE, *HALF, "red down")
    s = summary(state)
    assert s["finished"] and s["winners"] == [0, 2]


# The lost hunt: red-6 up and green-6 down (half circles round (4,0) and (12,0),
# to (16,0) heading south, each at least 6.7 from every lollipop), then red-4 up
# round (22,0) to (22,-6) heading east, and tiles that keep heading between south
# and north through east, so never west of x = 16, 5.39 or more from every
# lollipop (x = ±10.61). The sixteenth take empties red, after green: lost.
LOST_TOPS = {"red": ["red-6", "red-4", "red-1", "red-2", "red-7", "red-3", "red-5", "red-8"],
             "green": ["green-6", "green-1", "green-2", "green-7", "green-3", "green-5",
                       "green-4", "green-8"]}
LOST_PLAN = ["red up", "green down", "red up", "red up", "green up", "red up", "green up",
             "red up", "green up", "red up", "green down", "red up", "green down",
             "green down", "green up", "red down"]


def test_the_hunt_is_lost_when_a_take_leaves_two_stacks_before_all_are_touched():
    state = moves(hunt(players=2, **LOST_TOPS), *LOST_PLAN[:-1])
    assert not summary(state)["finished"]
    state = play(state, roll("red", "blue"), take(1, "red"))
    assert summary(state)["stacks"] == {"red": 0, "green": 0, "blue": 8, "yellow": 8}
    state = play(state, connect(1, "down"))  # the tile taken is connected, then it ends
    s = summary(state)
    assert s["finished"] and s["end"] == "lost" and s["winners"] == [] and s["touched"] == []
    # from (22,-6) east: lines 8, 8, 4, 4 to (46,-6); two S's and the pair of arcs
    # 8 45, each (8√2, 16 - 8√2); arcs 10 90 up and down (10, 10); arc 6 90 down
    # (6, -6); line 4 and arc 5 up (5, -9); line 4 and arc 5 down (9, -5):
    # (86 + 24√2, 42 - 24√2) = (119.94, 8.06), heading south
    assert s["open_ends"] == [[119.94, 8.06, 270]]
    assert GAME.projection(state).result == "lost"


def test_a_tile_turned_over_may_leave_a_lollipop():
    # advanced rules. green-4 down to (-6,-6) heading west; blue-8 up: line to
    # (-10,-6), round (-10,-11) to (-15,-11) heading south; blue-6 up round
    # (-11,-11) to (-7,-11): its end is 3.63 from lollipop 2 (-10.61, -10.61).
    # red-2 from there runs north to (-7,-7), 1 from blue-8's line: red on blue,
    # either side. Turned down, blue-6 turns round (-19,-11) to (-23,-11), its
    # ends 4.41 and 12.4 from the lollipop; red-2 runs north from there and fits.
    tops = {"green": ["green-4"], "blue": ["blue-8", "blue-6"], "red": ["red-2"]}
    state = moves(hunt(players=2, advanced=True, **tops), "green down", "blue up", "blue up")
    assert summary(state)["touched"] == [2]
    state = play(state, roll("red", "green"), take(1, "red"))
    assert [(a["side"], a["turn"]) for a in GAME.legal_actions(state, 1)] == [("up", 1),
                                                                               ("down", 1)]
    state = play(state, connect(1, "down", 1))
    s = summary(state)
    assert s["snakes"][0][2] == ["blue-6", "down"] and s["touched"] == []


def test_a_seat_left_alone_plays_the_hunt_on_and_wins_it_alone():
    # the competitive game ends when one seat is left; the hunt does not
    state = play(hunt(players=2), {"type": "resign", "player": 1})
    assert not summary(state)["finished"] and summary(state)["current_player"] == 0
    state = moves(state, *CIRCLE, *HALF, "red down")
    s = summary(state)
    assert s["finished"] and s["end"] == "won" and s["winners"] == [0]


def test_when_every_seat_resigns_the_hunt_is_lost():
    state = play(hunt(players=2), {"type": "resign", "player": 1},
                 {"type": "resign", "player": 0})
    s = summary(state)
    assert s["finished"] and s["winners"] == [] and GAME.projection(state).result == "lost"


def test_the_view_shows_where_the_lollipops_lie():
    view = GAME.view(moves(hunt(), "red up"), 0)
    assert [lp["centre"] for lp in view["lollipops"]] == [
        [10.607, 10.607], [-10.607, 10.607], [-10.607, -10.607], [10.607, -10.607]]
    assert view["touched"] == [3]
