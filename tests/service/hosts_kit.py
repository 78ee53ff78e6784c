"""Hosts for the production shape of more than one machine, made of Linux network
namespaces (we are root, as CI is): each host a namespace of its own with its own
addresses, joined by two bridges in the test's namespace, as two networks of a
data centre are.

- the front network: the proxy host, the two application hosts and the cache
  host (Redis); the test's own namespace is on it too (the clients, the SMTP
  server that collects the mail);
- the database network: the two application hosts, the database host and the
  standby host; the test's namespace too (it reads the database directly to
  check what was written).

An application host has a leg on each, so cutting its database leg (the link
down at the bridge) cuts it from the database hosts alone: the proxy still sends
it requests, Redis still answers it (``Host.cut``).

Every process a host runs is started under ``ip netns exec``; ``Network``'s exit
kills whatever runs in each namespace and deletes the namespaces and bridges,
however the test ended. Used by test_hosts.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scripts import testservices

IP = "ip"
PGBOUNCER = Path("/usr/sbin/pgbouncer")
PG_PORT = 5432
POOLER_PORT = 6432
DATABASE = "marram"
USER = testservices.DATABASE_USER
"""The clusters' superuser: it makes the roles, the standby and the test's checks."""
OWNER, APP = "marram_owner", "marram_app"
"""The deployment's two roles (deploy/postgres/roles.sql, as docker-compose makes
them): the tables' owner, which migrates, and the role the application hosts
connect as, which owns nothing."""
ROLES_SQL = Path(__file__).resolve().parents[2] / "deploy" / "postgres" / "roles.sql"
STARTUP_SECONDS = 60.0


def ip(*args: str) -> str:
    result = subprocess.run([IP, *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {result.stderr.strip()}")
    return result.stdout


@dataclass
class Host:
    """A namespace with an address on the front network, the database network, or
    both; ``legs`` are the bridge ends of its links, by network."""

    name: str
    front: str | None = None
    back: str | None = None
    legs: dict[str, str] = field(default_factory=dict)

    @property
    def address(self) -> str:
        found = self.front or self.back
        assert found is not None
        return found

    def argv(self, argv: Sequence[str]) -> list[str]:
        """``argv`` run inside this host."""
        return [IP, "netns", "exec", self.name, *argv]

    def pids(self) -> list[int]:
        return [int(pid) for pid in ip("netns", "pids", self.name).split()]

    def kill(self) -> None:
        """The host lost: every process it runs killed at once, as by a power cut
        (what a stopped machine's peers see, but for the refused connections: its
        kernel, which the namespace shares, still answers)."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def cut(self, network: str) -> None:
        """This host's link to ``network`` down at the bridge: what it sends there
        is dropped, and nothing reaches it."""
        ip("link", "set", "dev", self.legs[network], "down")

    def mend(self, network: str) -> None:
        ip("link", "set", "dev", self.legs[network], "up")


@dataclass
class Network:
    """The bridges and the hosts on them; the test's own addresses on each."""

    tag: str
    front_prefix: str
    back_prefix: str
    hosts: dict[str, Host] = field(default_factory=dict)

    @property
    def front_bridge(self) -> str:
        return f"mf{self.tag}"

    @property
    def back_bridge(self) -> str:
        return f"mb{self.tag}"

    @property
    def own_front(self) -> str:
        return f"{self.front_prefix}.1"

    @property
    def own_back(self) -> str:
        return f"{self.back_prefix}.1"

    def add(self, role: str, number: int, *, front: bool, back: bool) -> Host:
        host = Host(f"marram-{self.tag}-{role}")
        ip("netns", "add", host.name)
        self.hosts[role] = host
        ip("-n", host.name, "link", "set", "lo", "up")
        for network, wanted, bridge, prefix in (("front", front, self.front_bridge,
                                                 self.front_prefix),
                                                ("back", back, self.back_bridge,
                                                 self.back_prefix)):
            if not wanted:
                continue
            outer, inner = f"v{self.tag}{number}{network[0]}", f"{network}0"
            ip("link", "add", outer, "type", "veth", "peer", "name", inner, "netns", host.name)
            ip("link", "set", outer, "master", bridge, "up")
            address = f"{prefix}.{number}"
            ip("-n", host.name, "addr", "add", f"{address}/24", "dev", inner)
            ip("-n", host.name, "link", "set", inner, "up")
            host.legs[network] = outer
            setattr(host, network, address)
        return host

    def teardown(self) -> None:
        for host in self.hosts.values():
            with contextlib.suppress(RuntimeError):
                host.kill()
        deadline = time.monotonic() + 10
        for host in self.hosts.values():
            with contextlib.suppress(RuntimeError):
                while host.pids() and time.monotonic() < deadline:
                    time.sleep(0.05)
            with contextlib.suppress(RuntimeError):
                ip("netns", "delete", host.name)
        for bridge in (self.front_bridge, self.back_bridge):
            with contextlib.suppress(RuntimeError):
                ip("link", "delete", bridge)


def _free_prefixes() -> tuple[str, str]:
    """Two /24s of 10.0.0.0/8 that no interface of this machine is on."""
    taken = ip("-4", "-o", "addr", "show")
    while True:
        second = random.randrange(64, 250)
        third = random.randrange(1, 250)
        front, back = f"10.{second}.{third}", f"10.{second}.{third + 1}"
        if f" {front}." not in taken and f" {back}." not in taken:
            return front, back


@contextlib.contextmanager
def network() -> Iterator[Network]:
    """The two bridges, up, with the test's address on each; the hosts are added
    with ``Network.add``. Everything is removed on the way out."""
    if os.geteuid() != 0:
        raise RuntimeError("hosts in network namespaces need root (CI runs as root)")
    front, back = _free_prefixes()
    net = Network(f"{os.getpid() % 0xFFFF:04x}", front, back)
    try:
        for bridge, own in ((net.front_bridge, net.own_front), (net.back_bridge, net.own_back)):
            ip("link", "add", bridge, "type", "bridge")
            ip("addr", "add", f"{own}/24", "dev", bridge)
            ip("link", "set", bridge, "up")
        yield net
    finally:
        net.teardown()


def wait_for_port(address: str, port: int, what: str, log: Path | None = None,
                  process: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            with socket.create_connection((address, port), timeout=1):
                return
        except OSError:
            pass
        if time.monotonic() > deadline or (process is not None and process.poll() is not None):
            detail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
            raise RuntimeError(f"{what} did not start on {address}:{port}\n{detail}")
        time.sleep(0.1)


# ---------------------------------------------------------------- PostgreSQL


class Cluster:
    """A PostgreSQL cluster on a host, owned by the cluster owner of ./dev test
    (PostgreSQL refuses root), listening on the host's database address and on its
    loopback (where its pooler reaches it)."""

    def __init__(self, host: Host, workdir: Path, name: str) -> None:
        self.host, self.name = host, name
        self.owner = testservices.cluster_owner()
        self.workdir = workdir / name
        self.workdir.mkdir()
        self.datadir, self.sockdir = self.workdir / "data", self.workdir / "sock"
        self.sockdir.mkdir()
        self.log = self.workdir / "postgres.log"
        if self.owner is not None:
            shutil.chown(self.workdir, self.owner)
            shutil.chown(self.sockdir, self.owner)

    @property
    def address(self) -> str:
        assert self.host.back is not None
        return self.host.back

    def run(self, argv: list[str], what: str) -> None:
        testservices.run_quietly(self.host.argv(testservices.as_owner(self.owner, argv)), what,
                                 self.workdir)

    def initdb(self) -> None:
        self.run([testservices.postgres_bin("initdb"), f"--pgdata={self.datadir}",
                  f"--username={USER}", "--auth=trust", "--encoding=UTF8", "--locale=C",
                  "--no-sync"], "initdb")
        with (self.datadir / "pg_hba.conf").open("a") as hba:
            # the hosts' networks; trust, as the test clusters of ./dev test
            hba.write("host all all 10.0.0.0/8 trust\n"
                      "host replication all 10.0.0.0/8 trust\n")

    def basebackup(self, primary: Cluster) -> None:
        """A copy of ``primary`` that follows it: a streaming replica, named
        ``self.name`` to the primary (its synchronous_standby_names)."""
        self.run([testservices.postgres_bin("pg_basebackup"), f"--host={primary.address}",
                  f"--port={PG_PORT}", f"--username={USER}", f"--pgdata={self.datadir}",
                  "--wal-method=stream", "--write-recovery-conf", "--no-sync",
                  "--checkpoint=fast"], "pg_basebackup")
        with (self.datadir / "postgresql.auto.conf").open("a") as conf:
            conf.write(f"primary_conninfo = 'host={primary.address} port={PG_PORT} "
                       f"user={USER} application_name={self.name}'\n")

    def start(self, *settings: str) -> None:
        options = " ".join([f"-c listen_addresses=127.0.0.1,{self.address}", f"-p {PG_PORT}",
                            f"-k {self.sockdir}", "-c max_connections=200",
                            *(f"-c {setting}" for setting in settings)])
        try:
            self.run([testservices.postgres_bin("pg_ctl"), "start", "--wait", "--timeout=60",
                      f"--pgdata={self.datadir}", f"--log={self.log}", f"--options={options}"],
                     f"pg_ctl start ({self.name})")
        except testservices.ServiceError as error:
            raise RuntimeError(f"{error}\n{self.log.read_text(errors='replace')}") from None

    def sql(self, statement: str, database: str = DATABASE) -> str:
        """``statement`` run by psql on the host itself (the cluster's own socket)."""
        result = subprocess.run(self.host.argv(testservices.as_owner(self.owner, [
            testservices.postgres_bin("psql"), f"--host={self.sockdir}", f"--port={PG_PORT}",
            f"--username={USER}", "--no-psqlrc", "--tuples-only", "--no-align",
            "--set=ON_ERROR_STOP=1", f"--command={statement}", database])),
            capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"{statement}: {result.stderr}")
        return result.stdout.strip()

    def make_roles(self) -> None:
        """deploy/postgres/roles.sql run by the superuser, as docker-compose's
        initdb.sh runs it (the clusters trust the hosts' networks: the passwords
        are the script's to set, not checked)."""
        result = subprocess.run(self.host.argv(testservices.as_owner(self.owner, [
            testservices.postgres_bin("psql"), f"--host={self.sockdir}", f"--port={PG_PORT}",
            f"--username={USER}", "--no-psqlrc", "--quiet", f"--dbname={DATABASE}",
            "-v", f"db={DATABASE}", "-v", f"owner={OWNER}", "-v", f"app={APP}",
            "-v", "owner_password=unused", "-v", "app_password=unused",
            "--file=-"])), input=ROLES_SQL.read_text(), capture_output=True, text=True,
            timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"roles.sql: {result.stderr}")

    def promote(self) -> None:
        self.run([testservices.postgres_bin("pg_ctl"), "promote", "--wait", "--timeout=60",
                  f"--pgdata={self.datadir}"], f"pg_ctl promote ({self.name})")

    def url(self, address: str | None = None, user: str = USER) -> str:
        return f"postgres://{user}@{address or self.address}:{PG_PORT}/{DATABASE}"


class Pooler:
    """Debian's PgBouncer on a database host, in front of its own PostgreSQL, in
    transaction mode, with the settings docs/operations.md gives for it."""

    def __init__(self, host: Host, workdir: Path, cluster: Cluster) -> None:
        self.host, self.cluster = host, cluster
        self.workdir = cluster.workdir
        self.log = self.workdir / "pgbouncer.log"
        self.process: subprocess.Popen[bytes] | None = None
        (self.workdir / "userlist.txt").write_text(f'"{APP}" ""\n')
        (self.workdir / "pgbouncer.ini").write_text("\n".join([
            "[databases]",
            f"{DATABASE} = host=127.0.0.1 port={PG_PORT} dbname={DATABASE}",
            "[pgbouncer]",
            f"listen_addr = {host.back}",
            f"listen_port = {POOLER_PORT}",
            "unix_socket_dir =",
            "auth_type = trust",
            f"auth_file = {self.workdir / 'userlist.txt'}",
            # a server connection only for the length of a transaction
            "pool_mode = transaction",
            "max_client_conn = 400",
            "default_pool_size = 20",
            # nothing to reset between transactions in this mode
            "server_reset_query =",
            # a client cut off mid-transaction (its host's link down) is dropped
            # after 5 s and its transaction rolled back, not left holding its row
            # locks until TCP notices (hours)
            "idle_transaction_timeout = 5",
            "ignore_startup_parameters = extra_float_digits",
            f"logfile = {self.log}",
            f"pidfile = {self.workdir / 'pgbouncer.pid'}",
            "",
        ]))
        if cluster.owner is not None:
            for name in ("userlist.txt", "pgbouncer.ini"):
                shutil.chown(self.workdir / name, cluster.owner)

    def start(self) -> None:
        if not PGBOUNCER.exists():
            raise RuntimeError(f"{PGBOUNCER} is missing: apt-get install pgbouncer "
                               "(dev-packages.txt; ./dev test installs it)")
        argv = testservices.as_owner(self.cluster.owner,
                                     [str(PGBOUNCER), str(self.workdir / "pgbouncer.ini")])
        self.process = subprocess.Popen(self.host.argv(argv), stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        assert self.host.back is not None
        wait_for_port(self.host.back, POOLER_PORT, "pgbouncer", self.log, self.process)

    def restart(self) -> None:
        """Stopped at once (SIGTERM: its clients' connections closed) and started
        again, empty."""
        assert self.process is not None
        pid = int((self.workdir / "pgbouncer.pid").read_text())
        os.kill(pid, signal.SIGTERM)
        self.process.wait(timeout=30)
        self.start()


# ---------------------------------------------------------------- Redis


class Redis:
    """Redis on the cache host, as docker-compose runs it (no persistence)."""

    def __init__(self, host: Host, workdir: Path) -> None:
        self.host = host
        self.workdir = workdir / "redis"
        self.workdir.mkdir()
        self.log = self.workdir / "redis.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def port(self) -> int:
        return 6379

    def start(self) -> None:
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(self.host.argv([
            server, "--bind", self.host.address, "--port", str(self.port), "--dir",
            str(self.workdir), "--save", "", "--appendonly", "no", "--logfile", str(self.log),
            "--protected-mode", "no"]), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        wait_for_port(self.host.address, self.port, "redis", self.log, self.process)

    def stop(self) -> None:
        """Killed: whatever it held (the queue, the cache) is gone."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def url(self, db: int) -> str:
        return f"redis://{self.host.address}:{self.port}/{db}"


class Process:
    """A long-running process on a host, its output in a log file."""

    def __init__(self, host: Host, argv: list[str], env: dict[str, str], log: Path,
                 cwd: Path) -> None:
        self.host, self.argv, self.env, self.log, self.cwd = host, argv, env, log, cwd
        self.popen: subprocess.Popen[bytes] | None = None

    def start(self, ready: str) -> Process:
        started = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(self.host.argv(self.argv), cwd=self.cwd, env=self.env,
                                          stdout=out, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + STARTUP_SECONDS
        while ready not in self.log.read_text(errors="replace")[started:]:
            if self.popen.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{' '.join(self.argv[:6])} did not start:\n"
                                   f"{self.log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.1)
        return self

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
