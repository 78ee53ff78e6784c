"""Live updates for open game pages: after a commit that moved a game on, its new
seq is published on Redis; the stream server (marram_site/stream.py) passes it to
every page of that game that holds a connection, by server-sent events or long
polling, instead of each page asking every few seconds.

What is published is only a game's id and seq, which every viewer of the game
may know. A page gets a signed token for its game's stream with the page, so the
stream server checks who may listen without reading the database.

Off unless ``MARRAM_STREAM`` is set (it needs Redis and the stream server); the
pages then poll, as they do when the stream cannot be reached.
"""

from __future__ import annotations

import logging
import threading

import redis
from django.conf import settings
from django.core import signing
from django.db import transaction

log = logging.getLogger(__name__)

CHANNEL = "marram:games"
"""The Redis channel: each message is ``"<game id> <seq>"``."""
TOKEN_SALT = "marram.stream"
TOKEN_MAX_AGE = 14 * 24 * 3600
"""A page's token is good for two weeks: a page left open longer polls instead."""

_client_lock = threading.Lock()
_clients: dict[str, redis.Redis] = {}


def enabled() -> bool:
    return bool(settings.MARRAM_STREAM and settings.REDIS_URL)


def stream_token(game_id: int) -> str:
    """What a page shows the stream server to listen to game ``game_id``."""
    return signing.TimestampSigner(salt=TOKEN_SALT).sign(str(game_id))


def token_game(token: str, max_age: int = TOKEN_MAX_AGE) -> int | None:
    """The game a token lets its bearer listen to, or None (forged, expired)."""
    try:
        value = signing.TimestampSigner(salt=TOKEN_SALT).unsign(token, max_age=max_age)
    except signing.BadSignature:
        return None
    return int(value) if value.isdigit() else None


def stream_url(game_id: int) -> str:
    """The page's event stream for its game ("" when live updates are off). The
    same token serves the long poll, ``.../wait?t=...&since=N``."""
    if not enabled():
        return ""
    base = f"{settings.MARRAM_STREAM_PATH.rstrip('/')}/games/{game_id}"
    return f"{base}/events?t={stream_token(game_id)}"


def _redis() -> redis.Redis:
    """The process's client of ``REDIS_URL`` (a pool of connections)."""
    with _client_lock:
        client = _clients.get(settings.REDIS_URL)
        if client is None:
            client = _clients[settings.REDIS_URL] = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        return client


def publish(game_id: int, seq: int) -> None:
    """Tell the stream servers that game ``game_id`` is at ``seq``. A failure is
    logged, never raised: the move is committed, and pages still poll on
    reconnecting."""
    try:
        _redis().publish(CHANNEL, f"{game_id} {seq}")
    except (redis.RedisError, OSError):  # Redis down: the pages find the move later
        log.warning("could not publish game %s at seq %s", game_id, seq, exc_info=True)


def publish_after_commit(game_id: int, seq: int) -> None:
    if enabled():
        transaction.on_commit(lambda: publish(game_id, seq))
