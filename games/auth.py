"""Token authentication with a short in-process memory of the tokens it has
checked, so that a client making one move after another does not cost a
database query per request just to say who it is.

A token deleted (or a user deactivated) is refused by every process within
``TOKEN_CACHE_SECONDS``.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict

from django.conf import settings
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

TOKEN_CACHE_SECONDS = getattr(settings, "TOKEN_CACHE_SECONDS", 30)
TOKEN_CACHE_SIZE = 4096
# What DRF's tokens look like (40 hex digits), loosely: anything else is refused
# without a query (PostgreSQL refuses a NUL character in one).
TOKEN_SHAPE = re.compile(r"[0-9A-Za-z]{1,40}")


class CachedTokenAuthentication(TokenAuthentication):
    _seen: OrderedDict[str, tuple[float, object]] = OrderedDict()
    _lock = threading.Lock()

    def authenticate_credentials(self, key: str):
        if not TOKEN_SHAPE.fullmatch(key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        now = time.monotonic()
        with self._lock:
            hit = self._seen.get(key)
        if hit is not None and now - hit[0] < TOKEN_CACHE_SECONDS:
            return hit[1]
        answer = super().authenticate_credentials(key)  # AuthenticationFailed if bad
        with self._lock:
            self._seen[key] = (now, answer)
            self._seen.move_to_end(key)
            while len(self._seen) > TOKEN_CACHE_SIZE:
                self._seen.popitem(last=False)
        return answer

    @classmethod
    def forget_all(cls) -> None:
        with cls._lock:
            cls._seen.clear()
