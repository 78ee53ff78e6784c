"""Mail goes to the mail server over STARTTLS, a drain's mails through one
connection (notifications.smtp), and webhook and push calls over HTTPS with one
TLS context a process (notifications.tls), the other side's certificate checked
against the authorities the process trusts. A connection a mail, and a context
made for each call, would load the authorities again every time.

Real servers in this process (aiosmtpd refusing mail before STARTTLS; an HTTPS
server), with certificates made for the test; the client trusts them through
SSL_CERT_FILE, as a worker trusts the system's authorities."""

from __future__ import annotations

import datetime
import http.server
import ipaddress
import smtplib
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from django.core import mail
from django.core.mail.backends import locmem

from notifications import services as notes
from notifications import webhook_http
from notifications.models import Notification
from notifications.tls import client_context
from tests.service.test_celery_worker import free_port
from tests.service.test_outbox_failures import stored


def certificate(directory: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, as files."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = directory / f"{name}.pem", directory / f"{name}.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


class Server:
    """Keeps the recipients of each message it accepts, whether it came over TLS,
    and the connection (session) it came by; answers each message with the next
    of ``answers`` ("" to accept it), then accepts every one."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], bool]] = []
        self.sessions: list[int] = []
        self.answers: list[str] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        answer = self.answers.pop(0) if self.answers else ""
        if answer:
            return answer
        self.received.append((list(envelope.rcpt_tos), session.ssl is not None))
        self.sessions.append(id(session))
        return "250 OK"


@pytest.fixture
def tls_server(tmp_path, settings) -> Iterator[tuple[Server, Path]]:
    """A server that takes mail only after STARTTLS; the mail settings that reach
    it; its certificate's file."""
    cert, key = certificate(tmp_path, "server")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server, port = Server(), free_port()
    controller = Controller(server, hostname="127.0.0.1", port=port, tls_context=context,
                            require_starttls=True)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS, settings.EMAIL_USE_SSL = True, False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    yield server, cert
    controller.stop()


@pytest.fixture
def contexts_made(monkeypatch) -> list[int]:
    """Every TLS context made by ``ssl.create_default_context``, Django's way and
    the backend's alike, counted."""
    made: list[int] = []
    make = ssl.create_default_context

    def counted(*args, **kwargs):
        made.append(1)
        return make(*args, **kwargs)

    monkeypatch.setattr(ssl, "create_default_context", counted)
    return made


@pytest.mark.django_db
def test_a_drain_sends_its_mail_over_one_starttls_connection(
        tls_server, contexts_made, monkeypatch):
    server, cert = tls_server
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the authorities the process trusts
    addresses = [f"p{i}@example.org" for i in range(3)]
    for i, address in enumerate(addresses):
        stored(to_email=address, message_id=f"<tls{i}@test>", subject=f"mail {i}")

    assert notes.outbox_drain() == {"sent": 3}
    stored(to_email="later@example.org", message_id="<tls-later@test>", subject="later")
    assert notes.outbox_drain() == {"sent": 1}  # a later drain: a connection of its own

    assert sorted(server.received) == sorted(([a], True) for a in
                                             [*addresses, "later@example.org"])
    first, second = server.sessions[:3], server.sessions[3:]
    assert len(set(first)) == 1 and len(set(second)) == 1 and first[0] != second[0]
    assert len(contexts_made) == 2  # a TLS context a connection, made by Django


@pytest.mark.django_db
def test_a_mail_that_fails_on_a_drains_connection_leaves_the_rest_to_go_on_a_new_one(
        tls_server, monkeypatch):
    server, cert = tls_server
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    for i in range(3):
        stored(to_email=f"p{i}@example.org", message_id=f"<tls{i}@test>", subject=f"mail {i}")
    server.answers = ["", "451 4.3.0 Try again later"]  # the second refused, for now

    assert notes.outbox_drain() == {"sent": 2, "pending": 1}

    assert [r[0] for r in server.received] == [["p0@example.org"], ["p2@example.org"]]
    assert server.sessions[0] != server.sessions[1]  # the failed one's connection closed
    refused = Notification.objects.get(message_id="<tls1@test>")
    assert refused.status == Notification.Status.PENDING and "451" in refused.note


@pytest.mark.django_db
def test_a_server_whose_certificate_the_process_does_not_trust_gets_no_mail(
        tls_server, tmp_path, monkeypatch):
    server, _ = tls_server
    stranger, _ = certificate(tmp_path, "stranger")  # the only authority trusted
    monkeypatch.setenv("SSL_CERT_FILE", str(stranger))
    row = stored(to_email="p@example.org", message_id="<untrusted@test>", subject="mail")

    assert notes.outbox_drain() == {"failed": 1}  # no retry would change the certificate

    row.refresh_from_db()
    assert server.received == []
    assert row.status == Notification.Status.FAILED and row.attempts == 1
    assert "certificate verify failed" in row.note


class Hook(http.server.BaseHTTPRequestHandler):
    bodies: list[bytes] = []

    def do_POST(self) -> None:
        Hook.bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def https_hook(tmp_path, settings, monkeypatch) -> Iterator[tuple[str, Path]]:
    """An HTTPS server taking webhook calls on 127.0.0.1 (allowed for the test);
    its address and its certificate's file."""
    cert, key = certificate(tmp_path, "hook")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    Hook.bodies = []
    client_context.cache_clear()
    yield f"https://127.0.0.1:{server.server_address[1]}/hook", cert
    client_context.cache_clear()
    server.shutdown()
    server.server_close()


def test_webhook_calls_go_over_https_with_one_tls_context(https_hook, contexts_made,
                                                          monkeypatch):
    url, cert = https_hook
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))

    statuses = [webhook_http.post_json(url, b'{"n": %d}' % i, {"Content-Type": "application/json"})
                for i in range(3)]

    assert statuses == [204, 204, 204]
    assert Hook.bodies == [b'{"n": 0}', b'{"n": 1}', b'{"n": 2}']
    assert len(contexts_made) == 1  # three connections, one context


def test_a_webhook_whose_certificate_the_process_does_not_trust_is_not_called(
        https_hook, tmp_path, monkeypatch):
    url, _ = https_hook
    stranger, _ = certificate(tmp_path, "stranger")
    monkeypatch.setenv("SSL_CERT_FILE", str(stranger))

    with pytest.raises(webhook_http.CallFailed, match="certificate of 127.0.0.1 is not valid"):
        webhook_http.post_json(url, b"{}", {"Content-Type": "application/json"})
    assert Hook.bodies == []


class GoodbyeFails(locmem.EmailBackend):
    """Django's memory backend whose goodbye to the server fails, as a server
    gone between the last mail and QUIT would make it."""

    def close(self) -> None:
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


@pytest.mark.django_db
def test_a_goodbye_that_fails_after_the_mail_went_leaves_the_drain_done(settings):
    settings.EMAIL_BACKEND = f"{__name__}.GoodbyeFails"
    mail.outbox = []
    for i in range(2):
        stored(to_email=f"p{i}@example.org", message_id=f"<bye{i}@test>", subject=f"mail {i}")

    assert notes.outbox_drain() == {"sent": 2}

    assert [m.to for m in mail.outbox] == [["p0@example.org"], ["p1@example.org"]]
    assert set(Notification.objects.values_list("status", flat=True)) == {"sent"}
