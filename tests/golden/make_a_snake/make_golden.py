"""Writes the hand-made golden records of Make-a-snake in this folder ({record,
expect}, the form of shared/tools/check-records). Each expectation is worked
out from the rules in the comment beside it, not taken from the engine's output.

    python tests/golden/make_a_snake/make_golden.py
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLOURS = ("red", "green", "blue", "yellow")
NAMES = ("ann", "bob", "cat", "dan")


def stacks(**tops):
    """Full stacks, the named tiles on top, the rest in shape order."""
    out = {}
    for colour in COLOURS:
        top = [f"{colour}-{n}" for n in tops.get(colour, [])]
        out[colour] = top + [f"{colour}-{n}" for n in range(1, 9)
                             if f"{colour}-{n}" not in top]
    return out


def record(players, events, mode="competitive", advanced=False, **tops):
    return {"format": "make-a-snake-game-record", "version": 1,
            "config": {"players": list(NAMES[:players]), "mode": mode, "advanced": advanced,
                       "stacks": stacks(**tops)},
            "events": events}


def turns(players, plan, first=0):
    """Whole turns in seat order: each "red" or "red down" (the die shows the
    colour taken and the next one), or "timeout" (after a roll)."""
    events = []
    for i, step in enumerate(plan):
        seat = (first + i) % players
        if step == "timeout":
            events += [{"type": "roll", "face": ["red", "green"]},
                       {"type": "timeout", "player": seat}]
            continue
        colour, _, side = step.partition(" ")
        other = COLOURS[(COLOURS.index(colour) + 1) % 4]
        face = sorted([colour, other], key=COLOURS.index)
        events += [{"type": "roll", "face": face},
                   {"type": "take", "player": seat, "colour": colour},
                   {"type": "connect", "player": seat, "side": side or "up", "turn": 0}]
    return events


CASES = {}

# Four seats take red then green, all up, four tiles each; take 16 (dan's, the
# last seat) empties green after red: the game ends at once, tails connected.
#   ann: lines 4, 4, 8, 8 south to (0,-24); tail to (0,-29): 7 + 29 = 36.00
#   bob: arcs 6 90, 6 90 (half circle round (6,0) to (12,0) heading north), arcs
#        4 180, 4 180 (a full circle back there); tail to (12,5): √148 = 12.17
#   cat: arcs 10 90 twice to (20,0) north, arcs 8 45 twice round (12,0) to (12,8)
#        heading west; tail to (7,8): √50 = 7.07, the shortest: cat wins
#   dan: two S's, each (16 - 8√2, -8√2); line 4 + arc 5 90 twice: (0,-4)+(5,-5)
#        then (4,0)+(5,5), heading north at (46 - 16√2, -4 - 16√2) =
#        (23.37, -26.63); tail to (23.37, -21.63): √(23.37² + 28.63²) = 36.96
CASES["distances_4p_cat_shortest"] = {
    "record": record(4, turns(4, (["red"] * 4 + ["green"] * 4) * 2),
                     red=[2, 4, 5, 7, 1, 6, 3, 8], green=[2, 4, 5, 7, 1, 6, 3, 8]),
    "expect": {"finished": True, "current_player": None, "awaiting": None, "winners": [2],
               "distances": [36.0, 12.17, 7.07, 36.96],
               "open_ends": [[0, -24, 270], [12, 0, 90], [12, 8, 180], [23.37, -26.63, 90]],
               "stacks": {"red": 0, "green": 0, "blue": 8, "yellow": 8}},
}

# Bob lays ann's shapes the other side up, so his snake is hers mirrored in the
# head's line and the tongue tip is as far from both tails: they share the win.
#   ann: arc 6 90 to (6,-6) east; arc 10 90 round (6,4) to (16,4) north; arc 4
#        180 round (12,4) to (8,4) south; arc 8 45 round (16,4) to
#        (16 - 4√2, 4 - 4√2) heading 315; tail (5√2/2, -5√2/2) to
#        (16 - 1.5√2, 4 - 6.5√2); from (0,7): √(13.88² + 12.19²) = 18.47
#   cat: lines 8, 4, 8, 4: 36.00; dan: as above, 36.96
CASES["mirror_tie_4p"] = {
    "record": record(4, turns(4, ["red", "green down", "red", "red",
                                  "red", "green down", "red", "green",
                                  "green", "red down", "green", "red",
                                  "green", "red down", "green", "green"]),
                     red=[4, 1, 7, 5, 2, 6, 8, 3], green=[4, 5, 7, 6, 1, 3, 2, 8]),
    "expect": {"finished": True, "winners": [0, 1], "distances": [18.47, 18.47, 36.0, 36.96],
               "snakes": [[["red-4", "up"], ["red-5", "up"], ["green-6", "up"],
                           ["green-3", "up"]],
                          [["green-4", "down"], ["green-5", "down"], ["red-6", "down"],
                           ["red-3", "down"]],
                          [["red-1", "up"], ["red-2", "up"], ["green-1", "up"],
                           ["green-2", "up"]],
                          [["red-7", "up"], ["green-7", "up"], ["red-8", "up"],
                           ["green-8", "up"]]]},
}

# The lollipop hunt, three seats, one snake: four arcs 10 90 up (a circle round
# (10,0), 0.62 from lollipops 0 and 3), four arcs 8 45 down (the lower half
# round (-8,0), 2.92 from lollipop 2), red-8 down (north to (-16,4), round
# (-11,4) to (-11,9), 1.65 from lollipop 1): won with the ninth tile.
CASES["lollipop_won"] = {
    "record": record(3, turns(3, ["red", "green", "blue", "yellow", "red down",
                                  "green down", "blue down", "yellow down", "red down"]),
                     mode="lollipop", red=[5, 3, 8], green=[5, 3], blue=[5, 3], yellow=[5, 3]),
    "expect": {"finished": True, "winners": [0, 1, 2], "touched": [0, 1, 2, 3],
               "open_ends": [[-11, 9, 0]], "current_player": None, "awaiting": None},
}

# The lollipop hunt lost: half circles round (4,0) and (12,0) to (16,0), then
# tiles heading east of north-south only, never west of x = 16 (5.39 from any
# lollipop); the sixteenth take empties red after green, the tile is connected,
# and the hunt is lost at (86 + 24√2, 42 - 24√2) = (119.94, 8.06), heading south.
CASES["lollipop_lost"] = {
    "record": record(2, turns(2, ["red", "green down", "red", "red", "green", "red", "green",
                                  "red", "green", "red", "green down", "red", "green down",
                                  "green down", "green", "red down"]),
                     mode="lollipop", red=[6, 4, 1, 2, 7, 3, 5, 8],
                     green=[6, 1, 2, 7, 3, 5, 4, 8]),
    "expect": {"finished": True, "winners": [], "touched": [], "distances": [None],
               "open_ends": [[119.94, 8.06, 270]]},
}

# Advanced rules: ann lays red-6 up and green-6 up (back at the neck); blue-6
# from there starts on red-6, either side; turning green-6 over takes the open
# end to (16,0), and blue-6 up then turns round (20,0) to (24,0), heading north.
# Bob lays yellow-1 and yellow-2 south to (0,-12).
ADVANCED_EVENTS = turns(2, ["red", "yellow", "green", "yellow"]) + [
    {"type": "roll", "face": ["blue", "yellow"]},
    {"type": "take", "player": 0, "colour": "blue"}]
CASES["advanced_turn_the_last_tile"] = {
    "record": record(2, ADVANCED_EVENTS + [{"type": "connect", "player": 0, "side": "up",
                                            "turn": 1}],
                     advanced=True, red=[6], green=[6], blue=[6]),
    "expect": {"finished": False, "current_player": 1, "awaiting": "roll",
               "snakes": [[["red-6", "up"], ["green-6", "down"], ["blue-6", "up"]],
                          [["yellow-1", "up"], ["yellow-2", "up"]]],
               "open_ends": [[24, 0, 90], [0, -12, 270]], "distances": [None, None]},
}
CASES["advanced_illegal_no_turn"] = {
    "record": record(2, ADVANCED_EVENTS + [{"type": "connect", "player": 0, "side": "up"}],
                     advanced=True, red=[6], green=[6], blue=[6]),
    "expect": {"error_event": 14, "error_code": "wrong_turn"},
}

# A timeout after the roll takes nothing; one after the take connects the tile
# up; bob resigns and is skipped: after ann's red-4 (to (6,-6) east), bob's
# timeout, cat's timed-out red-1 (up, to (0,-8)), bob's resignation, ann's
# green-1 (east to (14,-6)), the roll is cat's.
CASES["timeout_and_resign"] = {
    "record": record(3, turns(3, ["red", "timeout"]) + [
        {"type": "roll", "face": ["red", "blue"]},
        {"type": "take", "player": 2, "colour": "red"},
        {"type": "timeout", "player": 2},
        {"type": "resign", "player": 1}] + turns(3, ["green"]), red=[4, 1]),
    "expect": {"finished": False, "current_player": 2, "awaiting": "roll",
               "snakes": [[["red-4", "up"], ["green-1", "up"]], [], [["red-1", "up"]]],
               "open_ends": [[14, -6, 0], [0, 0, 270], [0, -8, 270]],
               "stacks": {"red": 6, "green": 7, "blue": 8, "yellow": 8}},
}

# Illegal: a take from a stack that was not rolled while both rolled stacks
# hold tiles; a move by the wrong seat; a roll when a take is due; anything
# after the end.
CASES["illegal_take_not_rolled"] = {
    "record": record(2, [{"type": "roll", "face": ["green", "yellow"]},
                         {"type": "take", "player": 0, "colour": "red"}]),
    "expect": {"error_event": 1, "error_code": "not_rolled"},
}
CASES["illegal_connect_by_the_other_seat"] = {
    "record": record(2, [{"type": "roll", "face": ["green", "yellow"]},
                         {"type": "take", "player": 0, "colour": "green"},
                         {"type": "connect", "player": 1, "side": "up"}]),
    "expect": {"error_event": 2, "error_code": "not_your_turn"},
}
CASES["illegal_second_roll"] = {
    "record": record(2, [{"type": "roll", "face": ["green", "yellow"]},
                         {"type": "roll", "face": ["red", "blue"]}]),
    "expect": {"error_event": 1, "error_code": "not_pending"},
}
CASES["illegal_move_after_the_end"] = {
    "record": record(2, turns(2, ["red"] * 8 + ["green"] * 8)
                     + [{"type": "roll", "face": ["blue", "yellow"]}]),
    "expect": {"error_event": 48, "error_code": "game_finished"},
}


def main() -> None:
    for name, case in CASES.items():
        (HERE / f"{name}.json").write_text(json.dumps(case, indent=1) + "\n")
    print(f"wrote {len(CASES)} golden records")


if __name__ == "__main__":
    main()
