"""The benchmarks' API client: one request with a user's token, as it arrives
behind the TLS proxy (``X-Forwarded-Proto: https``), on a connection of its own.
"""

from __future__ import annotations

import http.client
import json
from typing import Any


def call(address: str, port: int, token: str, method: str, path: str,
         body: dict[str, Any] | None = None, timeout: float = 60) -> tuple[int, Any]:
    """The answer's status and its JSON body (None when it has none)."""
    conn = http.client.HTTPConnection(address, port, timeout=timeout)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Authorization": f"Token {token}", "X-Forwarded-Proto": "https",
                              "Content-Type": "application/json"})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        conn.close()
