"""Pond's golden records (tests/golden/pond/, made by hand in make_golden.py)
and the spec's Pond examples replay through `python -m engine replay` to the
summary worked out beside them; illegal events stop it with exit status 1 at
their index, with the rule's code."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.pond import FORMAT

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "pond"
EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"


def cases() -> list[Path]:
    examples = [p for p in sorted(EXAMPLES.glob("*.json"))
                if json.loads(p.read_text())["record"].get("format") == FORMAT]
    return sorted(GOLDEN.glob("*.json")) + examples


def test_there_are_golden_records_and_spec_examples_to_replay():
    names = [p.name for p in cases()]
    assert len(names) >= 12 and "pond-illegal_tadpole_moves_two.json" in names


@pytest.mark.parametrize("path", cases(), ids=lambda p: p.name)
def test_a_golden_record_replays_to_its_expected_summary(path: Path, tmp_path: Path):
    case = json.loads(path.read_text())
    record = tmp_path / "record.json"
    record.write_text(json.dumps(case["record"]))
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(record)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    want = case["expect"]
    if "error_event" in want:
        assert out.returncode == 1
        assert set(got) == {"error", "code", "event"} and got["error"]
        assert got["event"] == want["error_event"]
        if "error_code" in want:
            assert got["code"] == want["error_code"]
        return
    assert out.returncode == 0, out.stderr
    assert {k: got.get(k) for k in want} == want
    assert {"finished", "winners", "current_player", "scores", "spawn", "board",
            "end"} <= set(got)
