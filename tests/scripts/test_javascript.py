"""The pages' JavaScript unit tests (tests/js/, node's own runner) as part of the
suite: a failing one fails ``./dev test``."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_client_s_unit_tests_pass():
    node = shutil.which("node")
    assert node is not None, "node is needed for the JavaScript tests (apt-get install nodejs)"
    run = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout
