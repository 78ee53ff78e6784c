"""What `./dev test` does about missing Debian packages (scripts/devpackages.py
over dev-packages.txt), asked about a machine that lacks them: a PATH of empty
folders and an empty root for the absolute paths.

The script runs as a user who is not root (``nobody`` when the suite runs as
root), as a developer would: it must name the exact command in one line and
install nothing. Installing as root is what ./dev test itself does on CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts.devpackages import PACKAGE_LIST, read_packages

SCRIPT = PACKAGE_LIST.parent / "scripts" / "devpackages.py"


def not_root(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    runuser = shutil.which("runuser")  # before the empty PATH the script gets
    if runuser is None:
        pytest.fail("runuser is missing: it runs the script as nobody", pytrace=False)
    return [runuser, "-u", "nobody", "--", *argv]


def system_python() -> str:
    """A Python 3 that the unprivileged user can run (the suite's may sit in /root)."""
    if os.geteuid() != 0:
        return shutil.which("python3") or "python3"
    found = shutil.which("python3", path="/usr/bin:/bin")
    if found is None:
        pytest.fail("no /usr/bin/python3 for the user nobody to run", pytrace=False)
    return found


@pytest.fixture
def machine() -> Iterator[Path]:
    """An empty machine: ``bin/`` for PATH and ``root/`` for the absolute paths, in
    /tmp, which the unprivileged user can reach (pytest's tmp_path is root's alone)."""
    top = Path(tempfile.mkdtemp(prefix="marram-devpackages-", dir="/tmp"))
    try:
        for name in ("bin", "root"):
            (top / name).mkdir()
        for folder in (top, top / "bin", top / "root"):
            folder.chmod(0o755)
        yield top
    finally:
        shutil.rmtree(top, ignore_errors=True)


def ensure(machine: Path) -> subprocess.CompletedProcess[str]:
    argv = [system_python(), str(SCRIPT), "ensure", "--root", str(machine / "root")]
    return subprocess.run(not_root(argv), capture_output=True, text=True, timeout=60,
                          env={"PATH": str(machine / "bin"), "LANG": "C.UTF-8"})


def put(machine: Path, *paths: str) -> None:
    for path in paths:
        target = machine / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("#!/bin/sh\n")
        target.chmod(0o755)
        for parent in target.relative_to(machine).parents:
            (machine / parent).chmod(0o755)


def test_the_list_names_what_the_tests_and_the_proxy_need():
    names = [p.name for p in read_packages()]
    assert {"postgresql", "redis-server", "chromium", "fonts-liberation", "nginx"} <= set(names)
    assert len(names) == len(set(names))


def test_nothing_installed_names_every_package_in_one_line_of_command(machine):
    done = ensure(machine)
    assert done.returncode == 1
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    every = " ".join(p.name for p in read_packages())  # in the list's order
    assert line.endswith(f": sudo apt-get install -y {every}"), line
    assert "postgresql redis-server chromium fonts-liberation nginx" in every


def install_fakes(machine: Path, *, probe: int, leave_out: str = "") -> None:
    """Make each listed package look installed by one of its probes (the first or
    the last), but ``leave_out``: a bare name as a command in bin/, an absolute
    path (a glob's * taken as 15) under root/."""
    for package in read_packages():
        if package.name == leave_out:
            continue
        found = package.probes[probe]
        if found.startswith("/"):
            put(machine, "root" + found.replace("*", "15"))
        else:
            put(machine, f"bin/{found}")


@pytest.mark.parametrize("probe", [0, -1])
def test_only_the_missing_packages_are_named(machine, probe):
    install_fakes(machine, probe=probe, leave_out="chromium")
    done = ensure(machine)
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.endswith(": sudo apt-get install -y chromium"), line


def test_with_everything_there_it_says_nothing_and_succeeds(machine):
    install_fakes(machine, probe=0)
    done = ensure(machine)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_line_without_a_probe_is_refused(tmp_path):
    listing = tmp_path / "packages.txt"
    listing.write_text("postgresql initdb\nnginx   # the proxy\n")
    with pytest.raises(ValueError, match=r"packages.txt:2: nginx says nothing"):
        read_packages(listing)
