"""Writes Pond's hand-made golden records in this folder ({record, expect}, the
form of shared/tools/check-records). Each expectation is worked out from the
rules (shared/spec/pond.md) in the comment beside it, not taken from the
engine's output.

    python tests/golden/pond/make_golden.py
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def record(options, events):
    return {"format": "pond-game-record", "version": 1,
            "config": {"players": ["ann", "bob"], "options": options}, "events": events}


def egg(p, x, y):
    return {"type": "egg", "player": p, "at": [x, y]}


def move(p, a, b):
    return {"type": "move", "player": p, "from": list(a), "to": list(b)}


# The spec's opening on the small-13 pond: ann's egg 0,0; bob's egg 1,0 develops
# it into a tadpole; ann's egg 0,1 develops it into a frog; bob's egg 1,1
# develops his egg 1,0 into a tadpole and ann's egg 0,1 into a tadpole.
# Board: f T / t E; spawns 11 and 11.
OPENING = [egg(0, 0, 0), egg(1, 1, 0), egg(0, 0, 1), egg(1, 1, 1)]

# Then ann's tadpole 0,1 -> 0,2 and bob's tadpole 1,0 -> 2,0, landing next to
# nothing: position P (ann to move) is f . T . / . E . . / t . . . / . . . .
# Each player then swims one step away and back, touching nothing: P again after
# 4 more events (its 2nd time) and after 8 (its 3rd): a draw at event 13.
CYCLE = [move(0, (0, 2), (0, 3)), move(1, (2, 0), (3, 0)),
         move(0, (0, 3), (0, 2)), move(1, (3, 0), (2, 0))]
REACH_P = [move(0, (0, 1), (0, 2)), move(1, (1, 0), (2, 0))]

CASES = {}

CASES["repetition-third-time-draws"] = (
    record("small-13", OPENING + REACH_P + CYCLE + CYCLE),
    {"finished": True, "winners": [0, 1], "current_player": None, "end": "repetition",
     "scores": [0, 0], "spawn": [11, 11], "board": ["f.T.", ".E..", "t...", "...."]},
)

# One event short of the third time the game goes on: bob's tadpole is still on
# 3,0 and bob is to move.
CASES["repetition-twice-goes-on"] = (
    record("small-13", OPENING + REACH_P + CYCLE + CYCLE[:3]),
    {"finished": False, "winners": [], "current_player": 1, "end": None,
     "board": ["f..T", ".E..", "t...", "...."]},
)

# A pond of 4x4 with one egg each: ann's egg 0,0, bob's egg 3,3 far away. Ann has
# no egg left and her only piece is an egg, which cannot move: she cannot take
# her turn and loses at once; bob wins.
CASES["elimination-no-egg-and-nothing-moves"] = (
    record({"size": 4, "eggs": 1, "target": 3}, [egg(0, 0, 0), egg(1, 3, 3)]),
    {"finished": True, "winners": [1], "current_player": None, "end": "elimination",
     "scores": [0, 0], "spawn": [0, 0], "board": ["e...", "....", "....", "...E"]},
)

# The spec's set of three with a target of 2: ann's tadpole lands on 1,2 and
# develops ann's egg 0,2 and bob's egg 2,2 into tadpoles: row 2 t t T scores 2
# for ann and 1 for bob. Ann's pile reaches the target with more: she wins.
CASES["target-reached-bigger-pile-wins"] = (
    record({"size": 4, "eggs": 13, "target": 2},
           [egg(0, 1, 0), egg(1, 0, 0), egg(0, 0, 2), egg(1, 2, 2), move(0, (1, 0), (1, 1)),
            egg(1, 3, 0), move(0, (1, 1), (1, 2))]),
    {"finished": True, "winners": [0], "current_player": None, "end": "target",
     "scores": [2, 1], "spawn": [11, 10], "board": ["E..E", "....", "....", "...."]},
)

# A timeout gives up ann's turn, nothing moves; bob places an egg; bob then
# resigns on ann's turn: ann wins. Bob's spawn is 11 - 1 = 10.
CASES["timeout-then-resign-on-the-other-s-turn"] = (
    record("small", [{"type": "timeout", "player": 0}, egg(1, 2, 2),
                     {"type": "resign", "player": 1}]),
    {"finished": True, "winners": [0], "current_player": None, "end": "resign",
     "scores": [0, 0], "spawn": [11, 10], "board": ["....", "....", "..E.", "...."]},
)

# The big pond by default: 5x5, 15 eggs each; ann's egg on 4,4.
CASES["big-pond-by-default"] = (
    {**record("big", [egg(0, 4, 4)]), "config": {"players": ["ann", "bob"]}},
    {"finished": False, "winners": [], "current_player": 1, "spawn": [14, 15],
     "board": [".....", ".....", ".....", ".....", "....e"], "end": None},
)

# Illegal events: each stops the replay at its index with the rule's code.
CASES["illegal-wrong-player"] = (  # bob cannot open: light moves first
    record("small", [egg(1, 0, 0)]), {"error_event": 0, "error_code": "not_your_turn"})
CASES["illegal-moving-the-other-colour"] = (  # 1,0 holds bob's tadpole
    record("small-13", OPENING + [move(0, (1, 0), (2, 0))]),
    {"error_event": 4, "error_code": "not_your_piece"})
CASES["illegal-frog-lands-on-a-piece"] = (  # ann's frog 0,0 onto bob's tadpole 1,0
    record("small-13", OPENING + [move(0, (0, 0), (1, 0))]),
    {"error_event": 4, "error_code": "occupied"})
CASES["illegal-egg-with-an-empty-spawn"] = (  # bob's egg made ann's a tadpole; no egg left
    record({"size": 4, "eggs": 1, "target": 3}, [egg(0, 0, 0), egg(1, 1, 0), egg(0, 2, 2)]),
    {"error_event": 2, "error_code": "no_eggs_left"})
CASES["illegal-event-after-the-end"] = (
    record("small", [{"type": "resign", "player": 0}, egg(1, 0, 0)]),
    {"error_event": 1, "error_code": "game_finished"})
CASES["illegal-an-egg-moves"] = (  # bob's egg at 1,1 stays put
    record("small-13", OPENING + [move(0, (0, 1), (0, 2)), move(1, (1, 1), (1, 2))]),
    {"error_event": 5, "error_code": "egg_cannot_move"})

if __name__ == "__main__":
    for name, (rec, expect) in CASES.items():
        (HERE / f"{name}.json").write_text(json.dumps({"record": rec, "expect": expect},
                                                      indent=1) + "\n")
    print(f"wrote {len(CASES)} golden records")
