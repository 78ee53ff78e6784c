"""A real HTTP receiver for the webhook tests: a ThreadingHTTPServer on 127.0.0.1,
in a thread, keeping every request it gets and answering as the test says
(the ``receiver`` fixture of conftest)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Call:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Receiver:
    """What arrived (``calls``), and how to answer: ``status`` (204 by default),
    with ``location`` as the Location header when it is set, after ``delay``
    seconds."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.status = 204
        self.location = ""
        self.delay = 0.0
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        # a caller that hung up (cut off at its deadline) is no error of the test's
        self.server.handle_error = lambda request, address: None  # type: ignore[method-assign]
        self.port = self.server.server_address[1]

    def url(self, path: str = "/hook", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def to(self, path: str) -> list[Call]:
        return [call for call in self.calls if call.path == path]


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            receiver.calls.append(Call("POST", self.path, dict(self.headers.items()),
                                       self.rfile.read(length)))
            answer = b"the receiver is broken" if receiver.status >= 400 else b""
            time.sleep(receiver.delay)
            self.send_response(receiver.status)
            if receiver.location:
                self.send_header("Location", receiver.location)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        do_GET = do_POST  # a redirect followed would arrive as a GET

        def log_message(self, *args: Any) -> None:
            pass

    return Handler



@contextlib.contextmanager
def receiving() -> Iterator[Receiver]:
    """A receiver serving in a thread until the block ends."""
    found = Receiver()
    thread = threading.Thread(target=found.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield found
    finally:
        found.server.shutdown()
        found.server.server_close()
