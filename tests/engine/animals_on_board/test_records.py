"""The game record through ``python -m engine``: golden records and the spec's
examples replay to their expected summaries, bad records get one line and exit
status 2, self-play's records verify against their seed."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.animals_on_board import FORMAT

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "animals_on_board"
EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def ours(path: Path) -> bool:
    return json.loads(path.read_text())["record"].get("format") == FORMAT


def cases() -> list[Path]:
    return sorted(GOLDEN.glob("*.json")) + sorted(filter(ours, EXAMPLES.glob("*.json")))


def test_there_are_golden_records_and_spec_examples_to_replay():
    names = [p.name for p in cases()]
    assert "game-five-rounds-ark-of-ten.json" in names
    assert any(n.startswith("aob-") for n in names) or not EXAMPLES.exists()


@pytest.mark.parametrize("path", cases(), ids=lambda p: p.name)
def test_records_replay_to_their_expected_summary(path: Path, tmp_path: Path):
    case = json.loads(path.read_text())
    record = tmp_path / "record.json"
    record.write_text(json.dumps(case["record"]))
    out = run("replay", str(record))
    got = json.loads(out.stdout.strip().splitlines()[-1])
    want = case["expect"]
    if "error_event" in want:
        assert out.returncode == 1
        assert got["event"] == want["error_event"]
        if "error_code" in want:
            assert got["code"] == want["error_code"]
        return
    assert out.returncode == 0, out.stderr
    for key, value in want.items():
        assert got[key] == value, key


def test_the_summary_has_every_field_of_the_note(tmp_path: Path):
    case = json.loads((GOLDEN / "game-five-rounds-ark-of-ten.json").read_text())
    record = tmp_path / "record.json"
    record.write_text(json.dumps(case["record"]))
    got = json.loads(run("replay", str(record)).stdout)
    assert {"finished", "winners", "scores", "current_player", "awaiting", "round",
            "start_player", "crates", "arks", "middle", "in_round"} <= set(got)


BAD_CONFIGS = [
    ({"players": ["a"], "species": list("ABCDEFGH"), "deck": []}, "2 to 4 players"),
    ({"players": ["a", "b"], "species": list("ABCDEFG"), "deck": []}, "8 different species"),
    ({"players": ["a", "b"], "species": list("ABCDEFGZ"), "deck": []}, "letters from A to L"),
    ({"players": ["a", "b"], "species": list("ABCDEFGH"), "deck": ["A1", "A1"]}, "A1 twice"),
    ({"players": ["a", "b"], "species": list("ABCDEFGH"), "deck": ["L1"]}, "'L1'"),
    ({"players": ["a", "b"], "species": list("ABCDEFGH"), "deck": ["A1"]}, "lacks A2"),
]


@pytest.mark.parametrize(("config", "message"), BAD_CONFIGS)
def test_a_config_it_cannot_read_gets_one_line_and_exit_2(config, message, tmp_path: Path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": FORMAT, "version": 1, "config": config,
                                "events": []}))
    out = run("replay", str(path))
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert message in out.stderr


def test_an_event_that_is_no_event_of_the_game_stops_the_replay(tmp_path: Path):
    case = json.loads((GOLDEN / "setup-one-keep-awaits-the-other.json").read_text())
    for bad in ({"type": "fly"}, {"type": "keep", "player": "0", "tile": "A1"},
                {"type": "keep", "player": 7, "tile": "A1"}, [1, 2]):
        case["record"]["events"] = [bad]
        path = tmp_path / "r.json"
        path.write_text(json.dumps(case["record"]))
        out = run("replay", str(path))
        assert out.returncode == 1
        assert json.loads(out.stdout)["event"] == 0


def test_selfplay_plays_every_seat_count_and_its_records_verify(tmp_path: Path):
    for players in ("2", "3", "4"):
        out = run("selfplay", "--game", "animals_on_board", "--players", players,
                  "--games", "5", "--quiet", "--out", str(tmp_path / players))
        assert out.returncode == 0, out.stderr
        assert "5 Animals on Board games" in out.stdout
    for record in sorted(tmp_path.glob("*/game-*.json")):
        out = run("verify", str(record))
        assert out.returncode == 0, out.stdout
        replayed = run("replay", str(record))
        assert json.loads(replayed.stdout)["finished"] is True


def test_a_forged_deck_does_not_verify(tmp_path: Path):
    assert run("selfplay", "--game", "animals_on_board", "--games", "1", "--quiet",
               "--out", str(tmp_path)).returncode == 0
    path = next(tmp_path.glob("game-*.json"))
    record = json.loads(path.read_text())
    deck = record["config"]["deck"]
    deck[0], deck[-1] = deck[-1], deck[0]
    path.write_text(json.dumps(record))
    out = run("verify", str(path))
    assert out.returncode == 1
    assert "deck is not the one the seed gives" in out.stdout


def test_the_game_is_listed():
    out = run("games", "--json")
    listed = {g["key"]: g for g in json.loads(out.stdout)}
    assert listed["animals_on_board"]["format"] == FORMAT
    assert listed["animals_on_board"]["seats"] == [2, 3, 4]
