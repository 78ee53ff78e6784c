"""The move notation: every action written and read back, and plain-words errors."""
import pytest

from engine.marram.notation import NotationError, format_action, parse_action

ACTIONS = [
    {"type": "place", "player": 1, "tile": "T17", "face": "back", "at": [1, -2], "rotation": 2,
     "claim": {"arc": 4}},
    {"type": "place", "player": 1, "tile": "T05", "face": "front", "at": [0, 1], "rotation": 0,
     "claim": None},
    {"type": "flip", "player": 1, "at": [3, 0], "rotation": 1, "claim": {"side": 2}},
    {"type": "flip", "player": 1, "at": [-3, 7], "rotation": 3, "claim": None},
    {"type": "pass", "player": 1},
    {"type": "guess", "player": 1, "creature": "fly", "hops": 7},
    {"type": "guess", "player": 1, "creature": "frog", "hops": "escape"},
]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: format_action(a))
def test_every_action_round_trips(action):
    assert parse_action(format_action(action), 1) == action


def test_lenient_spellings():
    assert parse_action("  Place t17 BACK at [1, -2] rotation 2 claim ARC 4 ", 0) == {
        "type": "place", "player": 0, "tile": "T17", "face": "back", "at": [1, -2],
        "rotation": 2, "claim": {"arc": 4}}
    assert parse_action("flip 3,0 r1 no claim", 2)["claim"] is None


@pytest.mark.parametrize(("text", "says"), [
    ("", "the move is empty"),
    ("hello there", "'hello' is not a move"),
    ("place T17 sideways 1,2 r0", "'sideways' is not a face"),
    ("place T17 back 1;2 r0", "'1;2' is not a position"),
    ("place T17 back 1,2 r7", "'r7' is not a rotation"),
    ("place T17 back 1,2 r1 claim arc 9", "a claimed arc is a number from 0 to 7"),
    ("place T17 back 1,2 r1 claim roof 1", "is not a claim"),
    ("place T17", "a placement needs a tile, a face, a position and a rotation"),
    ("guess fly soon", "'soon' is not a guess"),
    ("guess bee 3", "a guess is 'guess fly 7'"),
])
def test_unparseable_moves_say_why(text, says):
    with pytest.raises(NotationError, match=None) as err:
        parse_action(text, 0)
    assert says in str(err.value)


def test_events_told_as_a_story():
    from engine.marram.notation import describe_event

    names = ["ann", "bob"]
    # a player's move in words, not in the notation a reply by mail is written in
    assert describe_event(ACTIONS[0] | {"player": 0}, names) == \
        "ann lays tile T17 back face up at 1,-2, turned half round, with a token on the " \
        "patch at arc 4"
    assert describe_event({"type": "flip", "player": 1, "at": [3, 0], "rotation": 1,
                           "claim": {"side": 2}}, names) == \
        "bob spends a spade card to flip the tile at 3,0, turned a quarter clockwise, " \
        "with a token on the beast at side 2"
    assert describe_event({"type": "pass", "player": 0}, names) == "ann passes"
    assert describe_event({"type": "guess", "player": 0, "creature": "fly", "hops": 7},
                          names) == "ann guesses the fly hops 7 times"
    assert describe_event({"type": "guess", "player": 1, "creature": "frog", "hops": "escape"},
                          names) == "bob guesses the frog escapes"
    assert describe_event({"type": "pass", "player": 1}, names, forced=True) == \
        "bob could lay no tile and passed"
    assert describe_event({"type": "hop", "creature": "frog", "to": [2, -1]}, names) == \
        "the frog hops to 2,-1"
    assert describe_event({"type": "creature_appears", "creature": "fly", "at": [0, 3]},
                          names) == "the fly appears at 0,3"
    assert describe_event({"type": "timeout", "player": 0}, names) == "ann ran out of time"
    assert describe_event({"type": "resign", "player": 1}, names) == "bob resigned"
