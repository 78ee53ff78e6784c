"""A push service stand-in for the push tests: a ThreadingHTTPServer on 127.0.0.1,
in a thread, that takes Web Push requests as a browser vendor's push service
does (RFC 8030), checks each one's VAPID token (RFC 8292: the ES256 signature by
the key it names, which must be the site's; its audience, this service's origin;
its expiry, within a day; its subject) and decrypts its message (RFC 8291,
aes128gcm) with the private key of the subscription it is posted to, which the
test made and holds (``Subscriber``): a browser's part, played by the test.

It answers 201 Created, or as the test says for a path (``status``, ``delay``),
and keeps every request (``pushes``) with what it found."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Subscriber:
    """A browser's side of a push subscription: its P-256 key pair and 16-byte
    authentication secret, made by the test (RFC 8291 section 3)."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def p256dh(self) -> str:
        return b64(self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        """What PushSubscription.toJSON() gives for this subscription."""
        return {"endpoint": endpoint, "expirationTime": None,
                "keys": {"p256dh": self.p256dh(), "auth": b64(self.auth)}}

    def decrypt(self, body: bytes) -> bytes:
        return http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                version="aes128gcm")


@dataclass
class Push:
    """One request as it arrived, and what the stand-in made of it."""

    path: str
    headers: dict[str, str]
    body: bytes
    arrived: float  # time.time()
    claims: dict[str, Any] = field(default_factory=dict)
    message: dict[str, Any] | None = None
    plain: bytes = b""  # the message as the site wrote it, decrypted
    problems: list[str] = field(default_factory=list)


class PushService:
    """The stand-in: ``subscribe(path)`` makes a subscription at ``/push/<path>``;
    ``vapid_key`` is the public key every token must be signed by (the site's)."""

    def __init__(self, vapid_key: str) -> None:
        self.vapid_key = vapid_key
        self.subscribers: dict[str, Subscriber] = {}
        self.pushes: list[Push] = []
        self.status: dict[str, int] = {}
        self.delay: dict[str, float] = {}
        self.arrived = threading.Condition()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.server.handle_error = lambda request, address: None  # type: ignore[method-assign]
        self.port = self.server.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"

    def subscribe(self, path: str) -> dict[str, Any]:
        """A new subscription's JSON, as the browser hands it to the page."""
        self.subscribers[path] = Subscriber()
        return self.subscribers[path].subscription(f"{self.origin}/push/{path}")

    def to(self, path: str) -> list[Push]:
        return [p for p in self.pushes if p.path == f"/push/{path}"]

    def wait(self, count: int, timeout: float = 10.0) -> list[Push]:
        """Wait until ``count`` pushes have arrived; all of them."""
        end = time.monotonic() + timeout
        with self.arrived:
            while len(self.pushes) < count:
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.pushes)} pushes of {count} arrived")
                self.arrived.wait(left)
            return list(self.pushes)

    def take(self, push: Push) -> int:
        """Check and decrypt a request; the status to answer."""
        push.claims, problem = self.check_vapid(push.headers.get("Authorization", ""))
        if problem:
            push.problems.append(problem)
            return 403
        for name, wanted in (("Content-Encoding", "aes128gcm"),
                             ("Content-Type", "application/octet-stream")):
            if push.headers.get(name) != wanted:
                push.problems.append(f"{name}: {push.headers.get(name)!r}")
        if not push.headers.get("TTL", "").isdigit():
            push.problems.append("no TTL")
        subscriber = self.subscribers.get(push.path.removeprefix("/push/"))
        if subscriber is None:
            return 404
        try:
            push.plain = subscriber.decrypt(push.body)
            push.message = json.loads(push.plain)
        except Exception as error:  # noqa: BLE001  (any failure to decrypt is the finding)
            push.problems.append(f"not decrypted: {type(error).__name__}: {error}")
            return 400
        return 201

    def check_vapid(self, header: str) -> tuple[dict[str, Any], str]:
        """The token's claims, and what is wrong with it ('' for nothing)."""
        scheme, _, rest = header.partition(" ")
        params = dict(p.split("=", 1) for p in rest.split(",") if "=" in p)
        if scheme != "vapid" or set(params) != {"t", "k"}:
            return {}, f"not a vapid Authorization: {header[:40]!r}"
        if params["k"] != self.vapid_key:
            return {}, "signed by another key than the site's"
        head, claims_part, signature = params["t"].split(".")
        header_json = json.loads(unb64(head))
        claims = json.loads(unb64(claims_part))
        if header_json.get("alg") != "ES256":
            return claims, f"alg {header_json.get('alg')}"
        raw = unb64(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(params["k"]))
        try:
            public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                               int.from_bytes(raw[32:], "big")),
                          f"{head}.{claims_part}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return claims, "the signature does not verify"
        if claims.get("aud") != self.origin:
            return claims, f"aud {claims.get('aud')!r} is not {self.origin}"
        if not time.time() < claims.get("exp", 0) <= time.time() + 86400:
            return claims, f"exp {claims.get('exp')} is not within a day"
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            return claims, f"sub {claims.get('sub')!r}"
        return claims, ""


def _handler(service: PushService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            push = Push(self.path, dict(self.headers.items()), self.rfile.read(length),
                        time.time())
            status = service.take(push)
            status = service.status.get(push.path.removeprefix("/push/"), status)
            with service.arrived:
                service.pushes.append(push)
                service.arrived.notify_all()
            time.sleep(service.delay.get(push.path.removeprefix("/push/"), 0.0))
            self.send_response(status)
            self.send_header("Content-Length", "0")
            if status == 201:
                self.send_header("Location", f"{service.origin}/message/{len(service.pushes)}")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


@contextlib.contextmanager
def push_service(vapid_key: str) -> Iterator[PushService]:
    """A stand-in serving in a thread until the block ends."""
    found = PushService(vapid_key)
    thread = threading.Thread(target=found.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield found
    finally:
        found.server.shutdown()
        found.server.server_close()
