"""The advanced rules (spec note, "Advanced rules"): a new tile may overlap
earlier tiles only if one of them has its colour (the head never counts, the
tile it is connected to never overlaps it); when neither side fits, the last
tiles are turned over, the fewest that make it fit; when none do, it is
connected as in the basic game."""
from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from engine.make_a_snake import GAME
from engine.make_a_snake.advanced import fits
from engine.make_a_snake.snake import NECK, lay_tile, overlapped
from engine.protocol import query

from .helpers import connect, moves, new, play, roll, summary, take


def awaiting_connect(tops: dict, *seat0: str, tile_colour: str):
    """An advanced two-seat game where seat 0 lays ``seat0`` (seat 1 takes yellow
    between), then takes the top tile of ``tile_colour``."""
    plan: list[str] = []
    for step in seat0:
        plan += [step, "yellow"]
    state = moves(new(advanced=True, **tops), *plan)
    return play(state, roll(tile_colour, "yellow"), take(0, tile_colour))


def choice(state) -> tuple[int, list[str]]:
    actions = GAME.legal_actions(state, 0)
    assert len({a["turn"] for a in actions}) == 1
    return actions[0]["turn"], [a["side"] for a in actions]


# red-6 up: the lower half circle round (4,0), from the neck to (8,0), heading
# north; green-6 up: the upper half back to the neck, heading south again
CIRCLE = {"red": ["red-6", "red-4"], "green": ["green-6"], "blue": ["blue-6"]}


def test_a_tile_overlapping_only_the_head_fits_whatever_its_colour():
    # green-6 up comes back over the head to the neck: the head never counts, and
    # red-6 is the tile it is connected to
    state = awaiting_connect(CIRCLE, "red up", tile_colour="green")
    assert choice(state) == (0, ["up", "down"])


def test_a_tile_may_overlap_a_tile_of_its_own_colour():
    # red-4 from the neck (either side) starts on red-6's first point: red on red
    state = awaiting_connect(CIRCLE, "red up", "green up", tile_colour="red")
    assert state.taken == "red-4"
    assert choice(state) == (0, ["up", "down"])


def test_a_side_that_overlaps_only_other_colours_is_refused():
    # red-1 runs south to (0,-8); green-6 up turns round (4,-8) to (8,-8), north.
    # blue-6 up would turn back round (4,-8) onto the end of red-1 (distance 0):
    # blue on red, refused. Down, it turns round (12,-8), 8 from red-1: it fits.
    state = awaiting_connect({"red": ["red-1"], "green": ["green-6"], "blue": ["blue-6"]},
                             "red up", "green up", tile_colour="blue")
    assert choice(state) == (0, ["down"])
    with pytest.raises(IllegalAction) as e:
        play(state, connect(0, "up"))
    assert e.value.code == "does_not_fit"
    assert summary(play(state, connect(0, "down")))["open_ends"][0] == [16, -8, 270]


def test_the_last_tile_is_turned_over_when_neither_side_fits():
    # after red-6 up and green-6 up the open end is the neck again: blue-6 from
    # there starts on red-6's first point, either side, and fits neither. Turning
    # green-6 over (down: round (12,0) to (16,0), heading south) takes the end
    # away; blue-6 up then turns round (20,0), far from red-6, and fits; down it
    # would turn round (12,0) back to (8,0), the end of red-6: it does not.
    state = awaiting_connect(CIRCLE, "red up", "green up", tile_colour="blue")
    assert choice(state) == (1, ["up"])
    for wrong in (connect(0, "up", 0), connect(0, "up", 2)):
        with pytest.raises(IllegalAction) as e:
            play(state, wrong)
        assert e.value.code == "wrong_turn"
    state = play(state, connect(0, "up", 1))
    s = summary(state)
    assert s["snakes"][0] == [["red-6", "up"], ["green-6", "down"], ["blue-6", "up"]]
    assert s["open_ends"][0] == [24, 0, 90]


def test_earlier_tiles_are_turned_too_when_turning_the_last_is_not_enough():
    # red-6 up, green-6 up (back at the neck), red-2 south to (0,-4): blue-1 from
    # (0,-4) starts √32 - 4 = 1.66 from red-6. Turning red-2 alone changes nothing
    # (a line); turning green-6 and red-2 moves them to (16,0) and (16,-4), and
    # blue-1 runs south from there, 8 or more from red-6
    state = awaiting_connect({"red": ["red-6", "red-2"], "green": ["green-6"]},
                             "red up", "green up", "red up", tile_colour="blue")
    assert choice(state) == (2, ["up", "down"])
    state = play(state, connect(0, "down", 2))
    assert summary(state)["snakes"][0] == [["red-6", "up"], ["green-6", "down"],
                                           ["red-2", "down"], ["blue-1", "down"]]
    assert summary(state)["open_ends"][0] == [16, -12, 270]


def test_when_no_turning_helps_the_tile_is_connected_as_in_the_basic_game():
    # red-5 up (round (10,0) to (10,-10)), green-6 up (to (10,-2), heading west),
    # red-8 up (line to (6,-2), then round (6,-7) to (1,-7), heading south).
    # blue-1 from (1,-7) starts √130 - 10 = 1.40 from red-5. Turned red-8 ends at
    # (1,3), √10 = 3.16 from red-5's first point, and blue-1 runs north from it.
    # Turned green-6 and red-8 end at (1,-13) and blue-1 runs to (1,-5), √106 - 10
    # = 0.30 from red-5. Turning all three lays the mirror image of the snake.
    # No turn helps: turn 0, either side.
    state = awaiting_connect({"red": ["red-5", "red-8"], "green": ["green-6"]},
                             "red up", "green up", "red up", tile_colour="blue")
    assert choice(state) == (0, ["up", "down"])
    assert summary(state)["connect"] == {"turn": 0, "sides": ["up", "down"], "blocked": True}
    state = play(state, connect(0, "down"))
    assert summary(state)["snakes"][0][-1] == ["blue-1", "down"]


def test_tiles_exactly_four_apart_across_a_line_4_do_not_overlap():
    # red-1 to (0,-8), green-2 to (0,-12), blue-1 from (0,-12): its start is
    # exactly 4 from red-1's end
    red = lay_tile("red-1", "up", NECK, 270)
    green = lay_tile("green-2", "up", red.end, red.heading)
    blue = lay_tile("blue-1", "up", green.end, green.heading)
    assert overlapped(blue, [red, green]) == []
    assert fits(blue, [red, green])


def test_a_timeout_connects_up_even_where_up_does_not_fit():
    # as in the basic game: blue-6 up on red-6 (it needed green-6 turned first)
    state = awaiting_connect(CIRCLE, "red up", "green up", tile_colour="blue")
    state = play(state, {"type": "timeout", "player": 0})
    assert summary(state)["snakes"][0] == [["red-6", "up"], ["green-6", "up"],
                                           ["blue-6", "up"]]


def test_the_preview_shows_both_sides_and_why_one_is_refused():
    # as above: blue-6 up would come back onto red-1, blue on red; down fits
    state = awaiting_connect({"red": ["red-1"], "green": ["green-6"], "blue": ["blue-6"]},
                             "red up", "green up", tile_colour="blue")
    up, down = query(GAME, state, "connect_preview", 0, {})
    assert (up["side"], up["allowed"], up["action"]) == ("up", False, None)
    assert up["overlap_tiles"] == ["red-1"] and up["overlaps"] == [0]
    assert up["why"] == ("It would overlap red-1 and no blue tile: a tile may overlap "
                         "only where a tile of its own colour is.")
    assert (down["allowed"], down["action"]) == (True, {"type": "connect", "player": 0,
                                                        "side": "down", "turn": 0})
    assert down["why"] == "It overlaps no earlier tile." and down["open_end"] == [16, -8, 270]


def test_the_preview_lays_the_tile_after_the_tiles_to_turn_and_draws_them():
    state = awaiting_connect(CIRCLE, "red up", "green up", tile_colour="blue")
    up, down = query(GAME, state, "connect_preview", 0, {})
    assert (up["allowed"], down["allowed"]) == (True, False)
    assert up["action"] == {"type": "connect", "player": 0, "side": "up", "turn": 1}
    # green-6 turned down: round (12,0) from the end of red-6 at (8,0) to (16,0)
    [green] = up["turned"]
    assert (green["tile"], green["side"]) == ("green-6", "down")
    assert green["parts"][0]["end"] == [16.0, 0.0]
    assert up["why"].startswith("With the last 1 tile turned over (neither side fitted")
    assert down["overlap_tiles"] == ["red-6"]


def test_the_prompt_names_the_one_side_that_fits():
    state = awaiting_connect({"red": ["red-1"], "green": ["green-6"], "blue": ["blue-6"]},
                             "red up", "green up", tile_colour="blue")
    [task] = GAME.awaiting(state).tasks
    assert task.prompt == "connect blue-6 to your snake, down (the other side does not fit)"
    both = awaiting_connect(CIRCLE, "red up", tile_colour="green")
    assert GAME.awaiting(both).tasks[0].prompt == "connect green-6 to your snake, up or down"
