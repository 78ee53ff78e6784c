"""The package as pip builds it: a wheel of the project (not the editable
install ./dev makes) holds every package with its templates, static files and
data, and a site run from it alone serves each game's own pages."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from engine import registry

ROOT = Path(__file__).resolve().parents[2]

PACKAGES = sorted(p.name for p in ROOT.iterdir()
                  if (p / "__init__.py").is_file() and p.name != "tests")
"""The project's top-level packages: every folder with an ``__init__.py`` but the tests."""

SITE = """
import json, os, sys
target = sys.argv[1]
import django
django.setup()
import marram_site, ui
from django.contrib.staticfiles import finders
from django.template.loader import get_template
from django.test import Client
from engine import registry
from games.game_ui import ui_for
assert marram_site.__file__.startswith(target) and ui.__file__.startswith(target), \\
    (marram_site.__file__, ui.__file__)
client = Client()
pages = {"/": client.get("/").status_code}
for game in registry.games():
    shown = ui_for(game.key)
    assert shown.script != "games/generic.js", f"{game.key} has no UI of its own"
    get_template(shown.board_template)
    for path in (shown.script, *shown.stylesheets):
        assert finders.find(path), f"{game.key}: no static file {path}"
    pages[f"/rules/{game.key}/"] = client.get(f"/rules/{game.key}/").status_code
print(json.dumps(pages))
"""


def test_a_wheel_of_the_project_holds_and_serves_every_games_ui(tmp_path):
    # The build writes build/ and *.egg-info beside the sources: it gets a copy.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in PACKAGES:
        shutil.copytree(ROOT / name, source / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    built = subprocess.run([*pip, "wheel", "--no-deps", "--wheel-dir", str(wheels), str(source)],
                           capture_output=True, text=True, timeout=180)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = wheels.glob("marram-*.whl")

    # every file of every package is in it, whatever its kind
    with zipfile.ZipFile(wheel) as archive:
        packed = set(archive.namelist())
    wanted = {p.relative_to(source).as_posix() for name in PACKAGES
              for p in (source / name).rglob("*") if p.is_file()}
    assert sorted(wanted - packed) == []

    # installed on its own, beside the dependencies only: not the editable
    # install's finder (python -S reads no .pth file), nor the checkout (cwd)
    target = tmp_path / "installed"
    installed = subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)],
                               capture_output=True, text=True, timeout=120)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    dependencies = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "PYTHONPATH": os.pathsep.join([str(target), *sorted(dependencies)]),
        "PYTHONDONTWRITEBYTECODE": "1",
        "DJANGO_SETTINGS_MODULE": "marram_site.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    served = subprocess.run([sys.executable, "-S", "-c", SITE, str(target)], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=120)
    assert served.returncode == 0, served.stdout + served.stderr
    pages = json.loads(served.stdout.strip().splitlines()[-1])
    assert pages == {"/": 200, **{f"/rules/{g.key}/": 200 for g in registry.games()}}
