"""The SMTP sink the benchmarks send mail to, standing for the mail provider: a
process of its own that takes every message (over STARTTLS when it has a
certificate) and counts them, and the settings that send the application's mail
to it as to a provider.

The provider's certificate is checked as in production: against the system's
certificate authorities, to which the sink's self-signed certificate is added
(``trust_store``, given to the application as SSL_CERT_FILE). A trust store of
the sink's certificate alone would make each TLS context cost a fraction of what
it costs against the system's bundle of authorities.
"""

from __future__ import annotations

import os
import shutil
import signal
import ssl
import subprocess
import sys
from pathlib import Path
from typing import Any


def certificate(workdir: Path) -> tuple[Path, Path] | None:
    """A self-signed certificate for 127.0.0.1 and its key, made by openssl in
    ``workdir``; None where openssl is missing or fails."""
    cert, key = workdir / "sink.pem", workdir / "sink.key"
    made = shutil.which("openssl") and subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"], capture_output=True).returncode == 0
    return (cert, key) if made else None


def trust_store(workdir: Path, cert: Path) -> Path:
    """The system's certificate authorities and ``cert``, in one file: what the
    application trusts (SSL_CERT_FILE), as it trusts the system's in production."""
    paths = ssl.get_default_verify_paths()
    system = next((Path(p) for p in (paths.cafile, paths.openssl_cafile)
                   if p and Path(p).is_file()), None)
    if system is None:
        raise RuntimeError("the system's certificate authorities are not found: the sink's "
                           "certificate alone would flatter each TLS connection's cost")
    store = workdir / "trust.pem"
    store.write_text(system.read_text() + "\n" + cert.read_text())
    return store


def serve(port: int, count_file: str, cert: str, key: str) -> None:
    """The sink's process: takes every message (STARTTLS first when given a
    certificate) and keeps the count of messages in ``count_file``, until SIGTERM."""
    from aiosmtpd.controller import Controller

    class Count:
        messages = 0

        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            self.messages += 1
            tmp = f"{count_file}.tmp"
            Path(tmp).write_text(str(self.messages))
            os.replace(tmp, count_file)
            return "250 OK"

    stops = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)  # the server's thread too: sigwait below
    context = None
    if cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
    controller = Controller(Count(), hostname="127.0.0.1", port=port, tls_context=context,
                            require_starttls=context is not None)
    controller.start()
    print("listening", flush=True)
    signal.sigwait(stops)
    controller.stop()


class Sink:
    """The sink, started in a process of its own (``popen`` starts it: a
    benchmark places it where its CPU is counted apart) in ``workdir``."""

    def __init__(self, workdir: Path, port: int, tls: bool = True) -> None:
        self.port = port
        self.count_file = workdir / "mails"
        made = certificate(workdir) if tls else None
        if tls and made is None:
            print("openssl could not make the sink's certificate: mail goes without TLS",
                  file=sys.stderr)
        self.tls = made is not None
        self.cert, self.key = made or (None, None)
        self.trust = trust_store(workdir, self.cert) if self.cert else None
        self.process: subprocess.Popen[str] | None = None

    def start(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, __file__, str(self.port), str(self.count_file),
             str(self.cert or ""), str(self.key or "")], stdout=subprocess.PIPE, text=True,
            cwd=cwd)
        if self.process.stdout is None or self.process.stdout.readline().strip() != "listening":
            raise RuntimeError("the SMTP sink did not start")

    def env(self) -> dict[str, str]:
        """The mail settings that send to the sink, as to a provider."""
        env = {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(self.port),
               "EMAIL_USE_TLS": "true" if self.tls else "false"}
        if self.trust:
            env["SSL_CERT_FILE"] = str(self.trust)
        return env

    def count(self) -> int:
        try:
            return int(self.count_file.read_text())
        except (OSError, ValueError):
            return 0

    def close(self, timeout: float = 10) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4])
