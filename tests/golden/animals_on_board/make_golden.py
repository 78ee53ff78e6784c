"""Writes the hand-made golden records of Animals on Board in this folder
({record, expect}, the form of shared/tools/check-records). Each expectation is
worked out from the rules in the comment beside it, not taken from the engine.

    python tests/golden/animals_on_board/make_golden.py

Every record uses two players and the deck OPENING + the other tiles of species
A-H in letter-and-number order, so the stack after OPENING runs
A2 A3 A5 B1 B3 B4 C2 C4 C5 D1 D2 D3 D5 E1 E2 E3 E4 F2 ... Ann draws A1 B2 C3,
bob D4 E5 F1; round 1 adds G2 H3 A4 B5 face up and C1 face down.
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
OPENING = ["A1", "B2", "C3", "D4", "E5", "F1", "G2", "H3", "A4", "B5", "C1"]
DECK = OPENING + [f"{s}{n}" for s in "ABCDEFGH" for n in range(1, 6)
                  if f"{s}{n}" not in OPENING]


def record(events):
    return {"format": "animals-on-board-game-record", "version": 1,
            "config": {"players": ["ann", "bob"], "species": list("ABCDEFGH"), "deck": DECK},
            "events": events}


def keep(p, tile):
    return {"type": "keep", "player": p, "tile": tile}


def split(p, group, *part):
    return {"type": "split", "player": p, "group": group, "part": list(part)}


def take(p, group):
    return {"type": "take", "player": p, "group": group}


def server(kind, p):
    return {"type": kind, "player": p}


KEEPS = [keep(1, "E5"), keep(0, "B2")]
CASES = {}

# Bob keeps first: ann is still awaited, nobody is to move, nothing is in the
# middle yet; bob's ark holds E5.
CASES["setup-one-keep-awaits-the-other"] = (
    record([keep(1, "E5")]),
    {"finished": False, "winners": [], "current_player": None, "awaiting": [0],
     "arks": [[], ["E5"]], "middle": [], "crates": [1, 1], "round": 1},
)

# A whole game, five rounds, ending when ann's ark reaches 10 tiles.
GAME = [
    *KEEPS,
    # round 1, ann first: A1 A4 B5 C3 D4 F1 G2 H3 + C1 face down
    split(0, 0, "A1"), split(1, 0, "A4"), split(0, 0, "B5"), split(1, 0, "C3"),
    split(0, 0, "D4"), split(1, 0, "F1"),          # crates ann 4, bob 4
    take(0, 0),      # ann pays 3 for G2 H3 and the face-down C1 (1 left), takes the flag
    take(1, 0),      # bob, alone, takes A1 for 1 (3 left)
    # round 2, ann first: A4 B5 C3 D4 F1 left + A2 A3 A5 face up, B1 face down
    split(0, 0, "A2", "A3", "A4", "A5"), split(1, 0, "B5"), split(0, 0, "C3"),
    take(1, 1),      # bob pays 4 for A2 A3 A4 A5 (0 left), takes the flag
    take(0, 0),      # ann, alone, pays 3 for D4 F1 and the face-down B1 (0 left)
    # round 3, bob first: B5 C3 left + B3 B4 C2 C4 C5 D1, D2 face down
    split(1, 0, "B3", "B4", "B5"), split(0, 0, "D1"), split(1, 0, "C2"),
    split(0, 0, "C3"), split(1, 0, "C4"), split(0, 0, "C5"),   # group 0 is D2 alone
    take(1, 1),      # bob pays 3 for B3 B4 B5 (0 left): 9 tiles; his flag
    take(0, 0),      # ann, alone, pays 1 for the face-down D2 (2 left)
    # round 4, bob first: D1 C2 C3 C4 C5 left + D3 D5 E1, E2 face down
    split(1, 0, "E1"),
    take(0, 1),      # ann pays 1 for E1: 9 tiles; her flag
    split(1, 0, "C2", "C3", "C4", "C5"),   # bob's last turn: he cannot pay for 8
    # round 5, ann first: D1 D3 D5 E2 C2 C3 C4 C5 are 8 face up, E3 face down
    split(0, 0, "C2", "C3", "C4", "C5"), split(1, 0, "D5"),
    take(0, 2),      # ann pays 1 for D5: 10 tiles
    split(1, 1, "C5"),   # bob's last turn; the round ends, and the game with it
]
# Ann: B1 B2 C1 D2 D4 D5 E1 F1 G2 H3 and 1 crate. B1 B2 are a pair, returned;
# 8 tiles stay: C1 1, D2 D4 D5 a herd 15, E1 1, F1 1, G2 2, H3 3 = 23, + 1 = 24.
# Bob: A1-A5 a herd 25, B3 B4 B5 a herd 15, E5 5 = 45, + 4 crates = 49. Bob wins.
CASES["game-five-rounds-ark-of-ten"] = (
    record(GAME),
    {"finished": True, "winners": [1], "scores": [24, 49], "current_player": None,
     "round": 5, "start_player": 0, "crates": [1, 4], "in_round": [],
     "arks": [["B1", "B2", "C1", "D2", "D4", "D5", "E1", "F1", "G2", "H3"],
              ["A1", "A2", "A3", "A4", "A5", "B3", "B4", "B5", "E5"]],
     "middle": [["D1", "D3", "E2", "?"], ["C2", "C3", "C4"], ["C5"]],
     # 6 dealt, then 5 + 4 + 7 + 4 + 1 drawn by the rounds: 27 of 40
     "stack": 13},
)

# The crate rule: eight splits in round 1 bring both to 5 crates; ann takes A1
# (4 left) and bob the face-down C1 (4 left). Round 2 (A2 added, A3 face down):
# ann splits (5), bob splits (5), ann splits again: a sixth crate, so she
# returns one and holds 4.
CASES["crate-rule-a-sixth-returns-one"] = (
    record([*KEEPS, split(0, 0, "A1"), split(1, 0, "A4"), split(0, 0, "B5"),
            split(1, 0, "C3"), split(0, 0, "D4"), split(1, 0, "F1"), split(0, 0, "G2"),
            split(1, 0, "H3"), take(0, 1), take(1, 0),
            split(0, 0, "A2"), split(1, 0, "A4"), split(0, 0, "B5")]),
    {"round": 2, "crates": [4, 5], "current_player": 1, "start_player": 0,
     "arks": [["A1", "B2"], ["C1", "E5"]],
     "middle": [["C3", "D4", "F1", "G2", "H3", "?"], ["A2"], ["A4"], ["B5"]]},
)

# Out of time: bob at the setup keeps the first of his three (D4); ann, out of
# time on her turn, passes: bob is left alone for his last turn.
CASES["timeout-keeps-the-first-tile-then-passes"] = (
    record([server("timeout", 1), keep(0, "B2"), server("timeout", 0)]),
    {"arks": [["B2"], ["D4"]], "current_player": 1, "in_round": [1], "final_turn": True,
     "middle": [["A1", "A4", "B5", "C3", "E5", "F1", "G2", "H3", "?"]]},
)

# Ann resigns: bob, the only seat left, wins.
CASES["resign-leaves-the-last-seat-the-winner"] = (
    record([*KEEPS, server("resign", 0)]),
    {"finished": True, "winners": [1], "current_player": None},
)

# A pass while a split is possible is refused at event 2.
CASES["illegal-pass-while-a-split-is-possible"] = (
    record([*KEEPS, server("pass", 0)]),
    {"error_event": 2, "error_code": "not_stuck"},
)

# Naming the face-down tile (C1) instead of writing "?" is refused at event 2.
CASES["illegal-split-naming-the-face-down-tile"] = (
    record([*KEEPS, split(0, 0, "C1")]),
    {"error_event": 2, "error_code": "not_in_group"},
)

# Ann keeps a tile bob drew: refused at event 0.
CASES["illegal-keep-of-another-seat-s-tile"] = (
    record([keep(0, "E5")]),
    {"error_event": 0, "error_code": "not_your_tile"},
)

# Bob moves on ann's turn: refused at event 2.
CASES["illegal-split-out-of-turn"] = (
    record([*KEEPS, split(1, 0, "A1")]),
    {"error_event": 2, "error_code": "not_your_turn"},
)

if __name__ == "__main__":
    for name, (rec, expect) in CASES.items():
        (HERE / f"{name}.json").write_text(json.dumps({"record": rec, "expect": expect},
                                                      indent=1) + "\n")
    print(f"wrote {len(CASES)} golden records")
