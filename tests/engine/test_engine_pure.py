"""The engine is pure Python: importing every one of its modules brings in no
Django, no database or queue client and none of the service's own packages."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SERVICE = {"django", "rest_framework", "drf_spectacular", "celery", "kombu", "psycopg",
           "redis", "marram_site", "games", "bots", "notifications", "ratings", "notes", "chat",
           "ui"}
"""Top-level packages the engine must never import."""

IMPORT_ALL = """
import importlib, json, pkgutil, sys
import engine
names = ["engine"]
for info in pkgutil.walk_packages(engine.__path__, "engine."):
    if info.name != "engine.__main__":  # runs the command line when imported
        importlib.import_module(info.name)
        names.append(info.name)
print(json.dumps({"imported": names, "loaded": sorted({m.partition(".")[0] for m in sys.modules})}))
"""


def test_every_engine_module_imports_without_the_service():
    # a fresh interpreter, so that nothing the test run imported counts
    done = subprocess.run([sys.executable, "-c", IMPORT_ALL], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert "engine.marram.rules" in found["imported"]  # the walk reached the games
    assert SERVICE & set(found["loaded"]) == set()
