"""`python -m engine`: the replay contract and one-line errors for bad input."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.marram.record import FORMAT

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"
GOLDEN = ROOT / "tests" / "golden"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def replayable(path: Path) -> bool:
    """The spec's examples cover every game of the project; replay those whose
    record format this engine reads (the others arrive with their games)."""
    return json.loads(path.read_text())["record"].get("format") == FORMAT


def cases() -> list[Path]:
    return sorted(GOLDEN.glob("*.json")) + sorted(filter(replayable, EXAMPLES.glob("*.json")))


@pytest.mark.parametrize("path", cases(), ids=lambda p: p.name)
def test_golden_records_replay_to_their_expected_outcome(path: Path, tmp_path: Path):
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
        if key == "supply":
            for seat, supply in enumerate(value):
                for k, v in supply.items():
                    assert got["supply"][seat][k] == v, (seat, k)
        else:
            assert got[key] == value, key


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"format": "marram-game-record", "version": 2, "config": {}, "events": []}',
         "unsupported record version 2"),
        ('{"format": "something-else", "version": 1}', "not a game record"),
        (json.dumps({"format": "marram-game-record", "version": 1,
                     "config": {"variant": "classic", "length": "long",
                                "players": ["a", "b"], "deck": ["T01", "NOPE"]},
                     "events": []}), "unknown tile 'NOPE'"),
        (json.dumps({"format": "marram-game-record", "version": 1,
                     "config": {"variant": "animals", "length": "short",
                                "players": ["a", "b"]}, "events": []}),
         "Animals is played as a long game only"),
    ],
)
def test_bad_records_get_one_line_and_no_traceback(content: str, message: str, tmp_path: Path):
    path = tmp_path / "bad.json"
    path.write_text(content)
    out = run("replay", str(path))
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert message in out.stderr


def test_missing_file_is_a_one_line_error():
    out = run("replay", "/nonexistent/record.json")
    assert out.returncode == 2 and "cannot read" in out.stderr and "Traceback" not in out.stderr


def test_illegal_event_reports_its_index(tmp_path: Path):
    record = {"format": "marram-game-record", "version": 1,
              "config": {"variant": "classic", "length": "long", "players": ["a", "b"]},
              "events": [{"type": "pass", "player": 1}]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    out = run("replay", str(path))
    assert out.returncode == 1
    assert json.loads(out.stdout) == {
        "error": "it is player 0's turn, not player 1's", "code": "not_your_turn", "event": 0}


def test_selfplay_writes_records_that_replay(tmp_path: Path):
    out = run("selfplay", "--variant", "pitchfork", "--length", "short", "--players", "3",
              "--games", "2", "--seed", "4", "--out", str(tmp_path), "--quiet")
    assert out.returncode == 0, out.stderr
    assert "mean scores" in out.stdout and "games/s" in out.stdout
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    for path in records:
        replayed = run("replay", str(path))
        assert replayed.returncode == 0
        assert json.loads(replayed.stdout)["finished"] is True


def test_catalogue_check_passes():
    out = run("catalogue", "--check")
    assert out.returncode == 0, out.stdout
    assert "95 tiles and a starter: ok" in out.stdout
