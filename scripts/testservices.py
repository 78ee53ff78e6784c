"""Run pytest against a throwaway PostgreSQL cluster and Redis server.

``./dev test [PYTEST ARGS]`` runs this with the project's virtualenv. Each
service is started only when its URL is not already in the environment
(``DATABASE_URL``, ``REDIS_URL``), listens on 127.0.0.1 on a free port, keeps
all its files in a temporary directory, and is stopped and deleted when pytest
ends, however it ends. The exit code is pytest's.

PostgreSQL refuses to run as root, so as root the cluster belongs to the
``postgres`` system user (or, where there is none, to a ``marram-pg`` user
made for the purpose).

The whole suite (no test path among the arguments) runs on several processes,
one a core up to ``MARRAM_TEST_WORKERS`` (default: the cores this process may
use, at most four), with pytest-xdist: each worker gets a cluster and a Redis of its own
(tests/parallel.py says why and how), and takes whole test files, so a module's
fixtures are set up once. A run of chosen tests, or ``MARRAM_TEST_WORKERS=1``,
is one process, as before, and so is a run against a DATABASE_URL or REDIS_URL
of the caller's.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATABASE_NAME = "marram"
DATABASE_USER = "marram"
STARTUP_TIMEOUT_SECONDS = 30
# Workers by default: a core each, up to this many (each starts its own services,
# browsers and servers; past four the suite's longest module sets its length).
DEFAULT_WORKERS_AT_MOST = 4


class ServiceError(RuntimeError):
    """A test service could not be found or started."""


def log(message: str) -> None:
    print(f"[dev test] {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def postgres_bin(name: str) -> str:
    """Debian keeps the server binaries off PATH, under /usr/lib/postgresql/N/bin."""

    def major_version(path: str) -> int:
        version = Path(path).parent.parent.name
        return int(version) if version.isdigit() else 0

    versioned = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=major_version)
    if versioned:
        return versioned[-1]
    found = shutil.which(name)
    if found:
        return found
    raise ServiceError(
        f"PostgreSQL's {name} was not found under /usr/lib/postgresql/*/bin or on PATH; "
        "install the postgresql package or set DATABASE_URL"
    )


def cluster_owner() -> str | None:
    """The user to run PostgreSQL as, or None to run it as ourselves."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "marram-pg"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "marram-pg"],
        check=True,
    )
    return "marram-pg"


def as_owner(owner: str | None, argv: list[str]) -> list[str]:
    return argv if owner is None else ["runuser", "-u", owner, "--", *argv]


def run_quietly(argv: list[str], what: str, cwd: Path) -> None:
    result = subprocess.run(
        argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    if result.returncode != 0:
        raise ServiceError(f"{what} failed ({result.returncode}):\n{result.stdout}")


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """Yield the DATABASE_URL of a fresh, empty cluster that exists for the duration."""
    owner = cluster_owner()
    # The cluster's owner must be able to reach its directory, which a root-only
    # TMPDIR would forbid; /tmp is open to everyone.
    workdir = Path(tempfile.mkdtemp(prefix="marram-pg-", dir="/tmp" if owner else None))
    datadir, sockdir, logfile = workdir / "data", workdir / "sock", workdir / "postgres.log"
    sockdir.mkdir()
    if owner is not None:
        shutil.chown(workdir, owner)
        shutil.chown(sockdir, owner)
    port = free_port()
    pg_ctl = postgres_bin("pg_ctl")
    started = False
    try:
        initdb = [
            postgres_bin("initdb"),
            f"--pgdata={datadir}",
            f"--username={DATABASE_USER}",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        ]
        run_quietly(as_owner(owner, initdb), "initdb", workdir)
        # Durability is worthless in a cluster that is deleted in a minute.
        options = (
            f"-c listen_addresses=127.0.0.1 -p {port} -k {sockdir} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            # more settings for one run, e.g. a benchmark's
            # "-c shared_preload_libraries=pg_stat_statements"
            + os.environ.get("TESTSERVICES_POSTGRES_OPTIONS", "")
        )
        start = [
            pg_ctl,
            "start",
            "--wait",
            f"--timeout={STARTUP_TIMEOUT_SECONDS}",
            f"--pgdata={datadir}",
            f"--log={logfile}",
            f"--options={options}",
        ]
        try:
            run_quietly(as_owner(owner, start), "pg_ctl start", workdir)
        except ServiceError as error:
            server_log = logfile.read_text() if logfile.exists() else "(no server log)"
            raise ServiceError(f"{error}\n{server_log}") from None
        started = True
        createdb = [
            postgres_bin("createdb"),
            "--host=127.0.0.1",
            f"--port={port}",
            f"--username={DATABASE_USER}",
            DATABASE_NAME,
        ]
        run_quietly(createdb, "createdb", workdir)
        log(f"PostgreSQL on 127.0.0.1:{port} in {workdir}")
        yield f"postgres://{DATABASE_USER}@127.0.0.1:{port}/{DATABASE_NAME}"
    finally:
        if started:
            stop = [pg_ctl, "stop", f"--pgdata={datadir}", "--mode=immediate", "--wait"]
            subprocess.run(
                as_owner(owner, stop),
                cwd=workdir,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        shutil.rmtree(workdir, ignore_errors=True)


def redis_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def stop(process: subprocess.Popen, timeout: float) -> None:
    """Ask a server to stop; kill it if it has not within ``timeout`` seconds."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.contextmanager
def redis() -> Iterator[str]:
    """Yield the REDIS_URL of a fresh Redis server with no persistence."""
    server = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.path.exists(server):
        raise ServiceError(
            "redis-server was not found; install the redis-server package or set REDIS_URL"
        )
    workdir = Path(tempfile.mkdtemp(prefix="marram-redis-"))
    port = free_port()
    logfile = workdir / "redis.log"
    argv = [server, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(workdir)]
    # Nothing is written to disk: no snapshots, no append-only file.
    argv += ["--save", "", "--appendonly", "no", "--logfile", str(logfile)]
    process = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
        while not redis_ping(port):
            if process.poll() is not None or time.monotonic() > deadline:
                detail = logfile.read_text() if logfile.exists() else "(no log)"
                raise ServiceError(f"redis-server did not start:\n{detail}")
            time.sleep(0.05)
        log(f"Redis on 127.0.0.1:{port}")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process, timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


def raise_on_sigterm() -> None:
    """Turn SIGTERM/SIGHUP into SystemExit so the services are stopped on the way out."""

    def handler(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGHUP, handler)


def names_tests(pytest_args: list[str]) -> bool:
    """Whether the arguments choose tests by path (``tests/x.py``, ``tests/x.py::t``)."""
    return any(
        not argument.startswith("-") and Path(ROOT, argument.split("::")[0]).exists()
        for argument in pytest_args
    )


def workers_for(pytest_args: list[str], environ: dict[str, str]) -> int:
    """How many workers get services of their own: one for chosen tests, for
    services of the caller's own (``DATABASE_URL``, ``REDIS_URL``) or with an xdist
    option already given (passed to pytest as it is, its workers sharing the one
    pair); otherwise ``MARRAM_TEST_WORKERS``, by default a core each."""
    xdist_options = ("-n", "--numprocesses", "--dist")
    if (
        names_tests(pytest_args)
        or any(argument.startswith(xdist_options) for argument in pytest_args)
        or environ.get("DATABASE_URL")
        or environ.get("REDIS_URL")
    ):
        return 1
    wanted = environ.get("MARRAM_TEST_WORKERS") or str(min(len(os.sched_getaffinity(0)),
                                                           DEFAULT_WORKERS_AT_MOST))
    if not wanted.isdigit() or int(wanted) < 1:
        raise ServiceError(f"MARRAM_TEST_WORKERS must be a whole number from 1, not {wanted!r}")
    return int(wanted)


def start_services(services: contextlib.ExitStack, env: dict[str, str], workers: int) -> None:
    """Set ``DATABASE_URL`` and ``REDIS_URL`` in ``env``, starting what is not given;
    for several workers, a pair for each (``DATABASE_URL_gw0``, ...)."""
    if workers == 1:
        if not env.get("DATABASE_URL"):
            env["DATABASE_URL"] = services.enter_context(postgres())
        else:
            log("using DATABASE_URL from the environment")
        if not env.get("REDIS_URL"):
            env["REDIS_URL"] = services.enter_context(redis())
        else:
            log("using REDIS_URL from the environment")
        return
    for number in range(workers):
        worker = f"gw{number}"
        env[f"DATABASE_URL_{worker}"] = services.enter_context(postgres())
        env[f"REDIS_URL_{worker}"] = services.enter_context(redis())
    # The controller reads the settings too (it collects the tests); it uses the
    # first worker's services and runs no test.
    env["DATABASE_URL"], env["REDIS_URL"] = env["DATABASE_URL_gw0"], env["REDIS_URL_gw0"]


def main(pytest_args: list[str]) -> int:
    raise_on_sigterm()
    env = dict(os.environ)
    with contextlib.ExitStack() as services:
        try:
            workers = workers_for(pytest_args, env)
            start_services(services, env, workers)
        except ServiceError as error:
            log(f"error: {error}")
            return 1
        if workers > 1:
            log(f"{workers} workers, each with its own PostgreSQL and Redis")
            pytest_args = ["-p", "tests.parallel", "-n", str(workers), "--dist", "loadfile",
                           *pytest_args]
        # pytest shares our process group, so Ctrl-C reaches it directly; we wait
        # for it to finish and then stop the services.
        pytest = subprocess.Popen([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, env=env)
        while True:
            try:
                return pytest.wait()
            except KeyboardInterrupt:
                continue
            except SystemExit:
                pytest.terminate()
                pytest.wait()
                raise


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
