"""Fair chance: the deck and every draw follow from one committed seed, and a
finished game can be checked against it by anyone."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

from engine.marram import apply, chance_event, chance_odds, make_config, new_game, standard
from engine.marram.fairness import commitment, deck_from_seed, draw, new_seed, verify
from engine.marram.record import Record
from engine.marram.selfplay import random_action

ROOT = Path(__file__).resolve().parents[2]
SEED = "ab" * 32


def fair_game(seed: str) -> dict:
    """A random 2-player Animals game whose deck and draws come from the seed."""
    rng = random.Random(1)
    tiles = standard().deck_ids()
    config = make_config("animals", "long", ["ann", "bob"], deck=deck_from_seed(seed, tiles))
    state, record = new_game(config), Record(config)
    while not state.finished:
        odds = chance_odds(state)
        if odds:
            event = chance_event(state, draw(seed, len(record.events), odds))
        else:
            event = random_action(state, rng)
        state = apply(state, event)
        record.events.append(event)
    return {**record.to_json(), "fairness": {"seed": seed, "commitment": commitment(seed)}}


def test_the_commitment_is_the_sha256_of_the_seed():
    # sha256 of 32 bytes 0xab, computed independently of the engine
    import hashlib

    assert commitment(SEED) == hashlib.sha256(bytes([0xAB] * 32)).hexdigest()
    assert len(new_seed()) == 64 and new_seed() != new_seed()


def test_the_deck_is_a_permutation_fixed_by_the_seed():
    tiles = standard().deck_ids()
    deck = deck_from_seed(SEED, tiles)
    assert sorted(deck) == sorted(tiles) and deck != tiles
    assert deck_from_seed(SEED, tiles) == deck
    assert deck_from_seed("cd" * 32, tiles) != deck


def test_draws_follow_the_odds_exactly():
    odds = {(0, 1): Fraction(1, 4), (1, 0): Fraction(3, 4)}
    outcomes = [draw(new_seed(), i, odds) for i in range(4000)]
    share = outcomes.count((0, 1)) / len(outcomes)
    assert 0.22 < share < 0.28  # 1/4 within 6 standard deviations of 4000 draws
    assert draw(SEED, 7, odds) == draw(SEED, 7, odds)


def test_a_fair_game_verifies_and_tampering_is_caught(tmp_path: Path):
    raw = fair_game(SEED)
    tiles = standard().deck_ids()
    assert any(e["type"] == "hop" for e in raw["events"])
    assert verify(raw, SEED, commitment(SEED), tiles) == []

    assert "the seed does not match the published commitment" in verify(
        raw, SEED, commitment("cd" * 32), tiles)
    swapped = json.loads(json.dumps(raw))
    deck = swapped["config"]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    assert "the deck is not the one the seed gives" in verify(swapped, SEED, commitment(SEED),
                                                             tiles)
    # move the first hop to another legal tile: the seed no longer gives it
    forged = json.loads(json.dumps(raw))
    state = new_game(make_config("animals", "long", ["ann", "bob"], deck=deck_from_seed(
        SEED, tiles)))
    tampered = None
    for index, event in enumerate(forged["events"]):
        if event["type"] == "hop":
            others = [p for p in chance_odds(state) if list(p) != event["to"]]
            if others:
                event["to"] = list(others[0])
                tampered = index
                break
        state = apply(state, event)
    problems = verify(forged, SEED, commitment(SEED), tiles)
    assert problems and problems[0].startswith(f"event {tampered}: the seed gives")

    path = tmp_path / "game.json"
    path.write_text(json.dumps(raw))
    out = subprocess.run([sys.executable, "-m", "engine", "verify", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("fair")


def test_verify_refuses_a_record_without_a_proper_seed(tmp_path: Path):
    raw = fair_game(SEED)
    for fairness, says in [(None, "has no revealed seed"),
                           ({"seed": "not-hex", "commitment": "x"}, "64 lowercase hex digits")]:
        path = tmp_path / "bad.json"
        path.write_text(json.dumps({**raw, "fairness": fairness}))
        out = subprocess.run([sys.executable, "-m", "engine", "verify", str(path)], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr
