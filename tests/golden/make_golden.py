"""Writes the hand-made golden records in this folder ({record, expect}, the
form of shared/tools/check-records). Each expectation is worked out from the
rule book in the comment beside it, not taken from the engine's output.

    python tests/golden/make_golden.py
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
G = "GGGGGGGG"


def t(beasts=(), terrain=G, items=(), spade=False):
    front = {"terrain": terrain}
    if beasts:
        front["beasts"] = [{"type": ty, "kind": k, "sides": list(s)} for ty, k, s in beasts]
    if items:
        front["items"] = [{"arc": a, "kind": k} for a, k in items]
    return {"spade": spade, "front": front}


def record(variant, tiles, deck, events, players=("ann", "bob"), length="long"):
    return {"format": "marram-game-record", "version": 1,
            "config": {"variant": variant, "length": length, "players": list(players),
                       "catalogue": tiles, "starter": "S0", "deck": deck},
            "events": events}


def place(p, tile, at, rot=0, claim=None, face="front"):
    return {"type": "place", "player": p, "tile": tile, "face": face, "at": list(at),
            "rotation": rot, "claim": claim}


FILL = {f"F{i}": t() for i in range(1, 10)}
CASES = {}

# Classic: head (starter) + body + tail laid by ann, who claims the body with a
# boot: a regular blue snake of 3 segments, 3 x 3 = 9 points; the boot comes back.
CASES["classic-blue-snake"] = (
    record("classic", {"S0": t([("blue", "head", [2])]), "A": t([("blue", "body", [0, 2])]),
                       "B": t([("blue", "tail", [0])]), **FILL},
           ["A", "B", "F1", "F2", "F3", "F4", "F5", "F6"],
           [place(0, "A", (0, 1), claim={"side": 0}), place(0, "B", (0, 2))]),
    {"finished": False, "scores": [9, 0], "current_player": 1,
     "supply": [{"boots": 7, "spades": 4, "tiles_in_hand": 3},
                {"boots": 7, "spades": 4, "tiles_in_hand": 3}]},
)

# Classic: head + tail with no body is a freak: 3 points in all, for its only
# holder. Ann lays two plain tiles; bob lays the tail under the starter's head
# and claims the snake with a boot on the tail, completing it in the same move.
CASES["classic-freak-snake"] = (
    record("classic", {"S0": t([("blue", "head", [2])]), "B": t([("blue", "tail", [0])]),
                       **FILL},
           ["F1", "F2", "F3", "B", "F4", "F5", "F6", "F7"],
           [place(0, "F1", (1, 0)), place(0, "F2", (2, 0)),
            place(1, "B", (0, 1), claim={"side": 0})]),
    {"finished": False, "scores": [0, 3], "current_player": 1,
     "supply": [{"boots": 7}, {"boots": 7, "tiles_in_hand": 2}]},
)

# Classic: the same orange snake claimed separately by both players, then
# joined: end (A, ann) - body (starter) - body (D) - body (C, bob) - end (E).
# 5 segments x 1 = 5 points, one token each: the tie scores in full for both.
CASES["classic-tied-orange"] = (
    record("classic", {"S0": t([("orange", "body", [1, 3])]), "A": t([("orange", "end", [3])]),
                       "C": t([("orange", "body", [0, 3])]),
                       "D": t([("orange", "body", [1, 2])]),
                       "E": t([("orange", "end", [1])]), **FILL},
           ["A", "F1", "D", "F2", "C", "F3", "E", "F4", "F5", "F6"],
           [place(0, "A", (1, 0), claim={"side": 3}), place(0, "F1", (0, 1)),
            place(1, "F2", (1, 1)), place(1, "C", (-1, 1), claim={"side": 0}),
            place(0, "D", (-1, 0)), place(0, "E", (-2, 1))]),
    {"finished": False, "scores": [5, 5], "current_player": 1,
     "supply": [{"boots": 7}, {"boots": 7}]},
)

# Pitchfork short, 2 players, target 120: not reached by a 3-point orange snake.
# A pitchfork claim on a beast (side) comes back when the snake completes
# (end + body + end, 3 x 1 = 3 points) and the snake leaves the board. Boots
# (3 in the short game) and spades (8) are untouched.
CASES["pitchfork-snake-leaves"] = (
    record("pitchfork", {"S0": t([("orange", "end", [2])]), "A": t([("orange", "body", [0, 2])]),
                         "E": t([("orange", "end", [0])]), **FILL},
           ["A", "E", "F1", "F2", "F3", "F4", "F5", "F6"],
           [place(0, "A", (0, 1), claim={"side": 0, "token": "pitchfork"}),
            place(0, "E", (0, 2)), place(1, "F2", (1, 0)), place(1, "F3", (-1, 0))],
           length="short"),
    {"finished": False, "scores": [3, 0], "current_player": 0,
     "supply": [{"boots": 3, "pitchforks": 5, "spades": 8, "tiles_in_hand": 3},
                {"boots": 3, "pitchforks": 5, "spades": 8, "tiles_in_hand": 1}]},
)

# A claim with a boot on a beast in Pitchfork is the wrong token: event 0 fails.
CASES["pitchfork-wrong-token"] = (
    record("pitchfork", {"S0": t([("orange", "end", [2])]), "A": t([("orange", "body", [0, 2])]),
                         **FILL},
           ["A", "F1", "F2", "F3", "F4", "F5"],
           [place(0, "A", (0, 1), claim={"side": 0, "token": "boot"})]),
    {"error_event": 0, "error_code": "wrong_token"},
)

# Bob cannot move on ann's turn: event 1 (ann's second move is due) fails.
CASES["classic-not-your-turn"] = (
    record("classic", {"S0": t(), **FILL}, ["F1", "F2", "F3", "F4", "F5", "F6"],
           [place(0, "F1", (1, 0)), place(1, "F4", (0, 1))]),
    {"error_event": 1, "error_code": "not_your_turn"},
)

if __name__ == "__main__":
    for name, (rec, expect) in CASES.items():
        (HERE / f"{name}.json").write_text(json.dumps({"record": rec, "expect": expect},
                                                      indent=1) + "\n")
    print(f"wrote {len(CASES)} golden records")
