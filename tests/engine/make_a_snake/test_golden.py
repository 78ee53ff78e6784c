"""Golden records: the hand-made ones in tests/golden/make_a_snake/ and the spec
note's examples of this game replay through ``python -m engine replay`` to the
expected summary (the comparison of shared/tools/check-records)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.make_a_snake.record import FORMAT

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "make_a_snake"
EXAMPLES = ROOT.parent / "shared" / "spec" / "examples"


def cases() -> list[Path]:
    examples = [p for p in sorted(EXAMPLES.glob("*.json"))
                if json.loads(p.read_text())["record"].get("format") == FORMAT]
    return sorted(GOLDEN.glob("*.json")) + examples


def differences(want: object, got: object, where: str = "") -> list[str]:
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected an object, got {got!r}"]
        return [d for k, v in want.items()
                for d in differences(v, got.get(k, "<missing>"), f"{where}.{k}")]
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [f"{where}: expected {want!r}, got {got!r}"]
        return [d for i, (a, b) in enumerate(zip(want, got, strict=True))
                for d in differences(a, b, f"{where}[{i}]")]
    return [] if want == got else [f"{where}: expected {want!r}, got {got!r}"]


def test_there_are_golden_records_of_every_kind():
    names = {p.stem for p in cases()}
    assert {"distances_4p_cat_shortest", "mirror_tie_4p", "lollipop_won", "lollipop_lost",
            "advanced_turn_the_last_tile", "timeout_and_resign"} <= names
    assert any(n.startswith("snake-") for n in names), "the spec's examples are found"


@pytest.mark.parametrize("path", cases(), ids=lambda p: p.name)
def test_golden_records_replay_to_their_expected_summary(path: Path, tmp_path: Path):
    case = json.loads(path.read_text())
    record = tmp_path / "record.json"
    record.write_text(json.dumps(case["record"]))
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(record)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    want = dict(case["expect"])
    if "error_event" in want:
        assert out.returncode == 1, out.stdout
        assert got["event"] == want["error_event"]
        if "error_code" in want:
            assert got["code"] == want["error_code"], got
        return
    assert out.returncode == 0, out.stderr
    assert differences(want, got) == []
