"""`python -m engine` plays Pond: it is listed, self-play finishes every game
and writes records that replay and verify, and a Pond record the engine cannot
read gets one line and exit status 2."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[3]


def test_pond_is_listed_with_its_option_sets(capsys: pytest.CaptureFixture[str]):
    assert main(["games", "--json"]) == 0
    pond = next(g for g in json.loads(capsys.readouterr().out) if g["key"] == "pond")
    assert pond["format"] == "pond-game-record" and pond["seats"] == [2]
    assert pond["options"] == [{"name": "options", "label": "Pond", "default": "big",
                                "choices": ["big", "small", "small-13", "small-14"]}]


@pytest.mark.parametrize("options", ["big", "small", "small-13", "small-14"])
def test_selfplay_records_replay_to_their_end_and_verify(options: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]):
    assert main(["selfplay", "--game", "pond", "--option", f"options={options}", "--games",
                 "5", "--seed", "3", "--quiet", "--out", str(tmp_path)]) == 0
    assert "5 Pond games (options " + options in capsys.readouterr().out
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 5
    for path in records:
        assert main(["replay", str(path)]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["finished"] is True and summary["winners"]
        assert summary["end"] in ("target", "elimination", "repetition")
        assert main(["verify", str(path)]) == 0
        assert capsys.readouterr().out.strip().endswith("follow from the committed seed")


@pytest.mark.parametrize(("config", "message"), [
    ({"players": ["a", "b"], "options": "tiny"}, "unknown Pond options 'tiny'"),
    ({"players": ["a"]}, "'players' must be a list of two names"),
])
def test_a_pond_record_that_makes_no_game_is_one_line_and_exit_2(config, message,
                                                                 tmp_path: Path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "pond-game-record", "version": 1, "config": config,
                                "events": []}))
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1
