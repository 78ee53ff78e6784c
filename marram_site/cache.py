"""Django's Redis cache, made to degrade instead of fail.

The cache holds only the throttles' counts, so losing Redis should not refuse
sign-ins, sign-ups or invitations (a 500) while moves, which never touch the
cache, go on. While Redis cannot be reached each process keeps its entries in its
own memory instead: the throttles keep counting, per process rather than for the
whole site (as without ``CACHE_URL``), and Redis is tried again every
``RETRY_SECONDS``, so that an outage costs a request at most one failed attempt
to connect. The counts kept meanwhile are not carried over when Redis is back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


class FallbackRedisCache(RedisCache):
    # Django makes one cache object a thread; whether Redis is down is known to the
    # whole process, per server.
    _down_until: dict[str, float] = {}
    _down_lock = threading.Lock()

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._where = str(server)
        # LocMemCache keeps its entries per name, for the whole process; room for the
        # counts of many clients (its default, 300 entries, would forget them).
        memory = {**params, "OPTIONS": {"max_entries": 10_000}}
        self._memory = LocMemCache(f"redis-fallback:{self._where}", memory)

    def _either(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() < self._down_until.get(self._where, 0.0):
            return getattr(self._memory, name)(*args, **kwargs)
        try:
            answer = getattr(super(), name)(*args, **kwargs)
        except UNREACHABLE as error:
            with self._down_lock:
                was_down = self._where in self._down_until
                self._down_until[self._where] = time.monotonic() + RETRY_SECONDS
            if not was_down:
                log.warning("the cache's Redis at %s cannot be reached (%s): counting in "
                            "this process's memory until it can", self._where, error)
            return getattr(self._memory, name)(*args, **kwargs)
        if self._where in self._down_until:
            with self._down_lock:
                if self._down_until.pop(self._where, None) is not None:
                    log.warning("the cache's Redis at %s is back", self._where)
        return answer


def redis_cache(url: str) -> dict[str, Any]:
    """The CACHES entry for the Redis at ``url``: short timeouts, so that a Redis that
    does not answer costs a request half a second at most, every RETRY_SECONDS."""
    return {
        "BACKEND": "marram_site.cache.FallbackRedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
    }


def _falling_back(name: str) -> Callable[..., Any]:
    def method(self: FallbackRedisCache, *args: Any, **kwargs: Any) -> Any:
        return self._either(name, *args, **kwargs)

    method.__name__ = name
    return method


# BaseCache builds the rest (decr, get_or_set, the async methods...) on these.
for _name in ("add", "get", "set", "touch", "delete", "get_many", "has_key", "incr",
              "set_many", "delete_many", "clear"):
    setattr(FallbackRedisCache, _name, _falling_back(_name))
