"""The Debian packages the tests need: find the missing ones and install them.

``./dev test`` runs ``ensure`` before anything else, with the machine's Python
(this module needs only the standard library, so it runs before .venv exists)::

    python3 scripts/devpackages.py ensure            # the packages of dev-packages.txt
    python3 scripts/devpackages.py install NAME...   # these packages

A package counts as installed when any of its probes in dev-packages.txt is
found: a bare name as a command on PATH, an absolute path (a glob) as a file.
As root the missing packages are installed with apt-get; as anyone else the
script exits 1 with one line on stderr giving the command that would install
them, and installs nothing.

``--root DIR`` looks for the absolute paths under DIR instead of ``/``, so that
the tests can ask about a machine without these packages.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_LIST = ROOT / "dev-packages.txt"


@dataclass(frozen=True)
class Package:
    name: str
    probes: tuple[str, ...]


def read_packages(path: Path = PACKAGE_LIST) -> list[Package]:
    packages = []
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        if len(line) < 2:
            raise ValueError(f"{path}:{number}: {line[0]} says nothing that shows it is installed")
        packages.append(Package(line[0], tuple(line[1:])))
    return packages


def is_present(probe: str, *, search_path: str, root: str) -> bool:
    if probe.startswith("/"):
        return bool(glob.glob(os.path.join(root, probe.lstrip("/"))))
    return shutil.which(probe, path=search_path) is not None


def missing_packages(packages: list[Package], *, search_path: str, root: str = "/") -> list[str]:
    """The names of the packages none of whose probes is found, in the list's order."""
    return [
        package.name
        for package in packages
        if not any(is_present(p, search_path=search_path, root=root) for p in package.probes)
    ]


def install_command(names: list[str]) -> list[str]:
    return ["apt-get", "install", "-y", "-q", "--no-install-recommends", *names]


def say(message: str) -> None:
    print(f"[dev] {message}", file=sys.stderr, flush=True)


def install(names: list[str]) -> int:
    """Install ``names`` as root, or name the command that would; an exit code."""
    if not names:
        return 0
    if os.geteuid() != 0:
        # One line, the command to copy: nothing is installed without the user.
        say(f"missing Debian packages; install them with: "
            f"sudo apt-get install -y {' '.join(names)}")
        return 1
    if shutil.which("apt-get") is None:
        say(f"missing packages {' '.join(names)} and no apt-get to install them with")
        return 1
    say(f"installing the missing Debian packages: {' '.join(names)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    # A fresh machine has no package lists yet, and old ones may name files long gone.
    for argv in (["apt-get", "update", "-q"], install_command(names)):
        done = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=sys.stderr)
        if done.returncode != 0:
            say(f"error: {' '.join(argv)} failed ({done.returncode})")
            return 1
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="devpackages.py", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    ensure = commands.add_parser("ensure", help="install what dev-packages.txt lists and lacks")
    ensure.add_argument("--list", type=Path, default=PACKAGE_LIST, help="the package list")
    ensure.add_argument("--root", default="/", help="where absolute probes are looked for")
    named = commands.add_parser("install", help="install these packages")
    named.add_argument("names", nargs="+")
    args = parser.parse_args(argv)

    if args.command == "install":
        return install(args.names)
    packages = read_packages(args.list)
    search_path = os.environ.get("PATH", os.defpath)
    status = install(missing_packages(packages, search_path=search_path, root=args.root))
    if status != 0:
        return status
    still = missing_packages(packages, search_path=search_path, root=args.root)
    if still:
        say(f"error: still missing after apt-get: {' '.join(still)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
