"""Live updates for open game pages: after a commit that moved a game on, its new
seq is published on Redis; the stream server (marram_site/stream.py) passes it to
every page of that game that holds a connection, by server-sent events or long
polling, instead of each page asking every few seconds.

A player's own page (or API client) listens with a token of its seat, and the
stream server keeps a note in Redis of which seats listen (``listening``). When
a commit leaves a listening seat to move (and it was not that seat's own move,
whose answer carried its view), the commit's message carries that seat's view
too, what its GET would give it: the player's client draws it without asking
(a page's, with its state as the changes since the seat's last view where this
process made that one: games.pages.views.seat_view).
Everyone else hears the seq only, which every viewer of the game may know. A
request's commits are published once its answer is made (``request_finished``;
the web server gets the answer whole just after, marram_site.wsgi), a task's at
once.

A page gets a signed token for its game's stream with the page, so the stream
server checks who may listen without reading the database.

Off unless ``MARRAM_STREAM`` is set (it needs Redis and the stream server); the
pages then poll, as they do when the stream cannot be reached.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, NamedTuple

import redis
from django.conf import settings
from django.core import signing
from django.core.signals import request_finished, request_started
from django.db import transaction
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from games.models import Game

log = logging.getLogger(__name__)

CHANNEL = "marram:games"
"""The Redis channel: each message is ``"<game id> <seq>"``, then a line
``"<seat> <kind> <view>"`` for each listening seat the commit left to move (the
view as JSON, which has no line break in it)."""
LISTENING = "marram:listening:{game}"
"""A sorted set per game: ``"<seat> <kind> <process>"`` for each stream process
that holds a connection of that seat, scored by when the note expires (Unix
seconds) unless the process renews it."""
LISTENING_TTL = 90.0
"""How long a note of listening lasts unrenewed (a stream process renews its own
every ``MARRAM_STREAM_HEARTBEAT`` seconds, and takes them back when the seat's
last connection closes)."""
VIEWS = {"api": "games.api.seat_view", "page": "games.pages.views.seat_view"}
"""What each kind of listener is sent: the encoded answer of its own GET of the
game (the API's ``GET /api/games/{id}/``, the page's ``state.json``), made by the
function at this path from the game and the seat's user."""
TOKEN_SALT = "marram.stream"
TOKEN_MAX_AGE = 14 * 24 * 3600
"""A page's token is good for two weeks: a page left open longer polls instead."""

_client_lock = threading.Lock()
_clients: dict[str, redis.Redis] = {}


def enabled() -> bool:
    return bool(settings.MARRAM_STREAM and settings.REDIS_URL)


class Listening(NamedTuple):
    """Whom a token lets listen: a game, and a seat of it with the kind of view
    its client draws (``VIEWS``), or no seat (the seq only)."""

    game: int
    seat: int | None = None
    kind: str | None = None


def stream_token(game_id: int, seat: int | None = None, kind: str = "page") -> str:
    """What a client shows the stream server to listen to game ``game_id``: as
    the player of ``seat``, whose views it is sent in ``kind``'s form, or (no
    seat) as anyone who may see the game. Only the seat's player may be given
    a seat's token: the views carry the seat's secrets."""
    if kind not in VIEWS:
        raise ValueError(f"no such kind of view: {kind}")
    value = str(game_id) if seat is None else f"{game_id}.{seat}.{kind}"
    return signing.TimestampSigner(salt=TOKEN_SALT).sign(value)


def token_listening(token: str, max_age: int = TOKEN_MAX_AGE) -> Listening | None:
    """Whom a token lets listen, or None (forged, expired)."""
    try:
        value = signing.TimestampSigner(salt=TOKEN_SALT).unsign(token, max_age=max_age)
    except signing.BadSignature:
        return None
    game, _, rest = value.partition(".")
    if not game.isdigit():
        return None
    if not rest:
        return Listening(int(game))
    seat, _, kind = rest.partition(".")
    if not seat.isdigit() or kind not in VIEWS:
        return None
    return Listening(int(game), int(seat), kind)


def stream_url(game_id: int, seat: int | None = None, kind: str = "page") -> str:
    """The event stream of a game's page ("" when live updates are off): the
    seat's, for its player. The same token serves the long poll,
    ``.../wait?t=...&since=N``."""
    if not enabled():
        return ""
    base = f"{settings.MARRAM_STREAM_PATH.rstrip('/')}/games/{game_id}"
    return f"{base}/events?t={stream_token(game_id, seat, kind)}"


def _redis() -> redis.Redis:
    """The process's client of ``REDIS_URL`` (a pool of connections)."""
    with _client_lock:
        client = _clients.get(settings.REDIS_URL)
        if client is None:
            client = _clients[settings.REDIS_URL] = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        return client


def listening_member(seat: int, kind: str, process: str) -> str:
    """A stream process's note that it holds a stream of ``seat`` (``LISTENING``)."""
    return f"{seat} {kind} {process}"


def listening(client: redis.Redis, game_id: int, now: float | None = None
              ) -> set[tuple[int, str]]:
    """The seats of the game that some stream process holds a connection of,
    each with the kind of view it is sent."""
    return _seats_of(client.zrangebyscore(*_listening_range(game_id, now)))


def _listening_range(game_id: int, now: float | None) -> tuple[str, float, str]:
    return LISTENING.format(game=game_id), now if now is not None else time.time(), "+inf"


def _seats_of(members: list[bytes]) -> set[tuple[int, str]]:
    found = set()
    for member in members:
        seat, kind, _ = member.decode().split(" ", 2)
        found.add((int(seat), kind))
    return found


class _Link(threading.local):
    """This thread's own connection to Redis, and the URL it was made for."""

    url: str | None = None
    connection: redis.Connection | None = None


_link = _Link()


def _command(*args: Any) -> Any:
    """One command on this thread's own connection to ``REDIS_URL`` (made at its
    first use, and again after a failure), its answer as Redis gives it: what
    every commit sends. Through the client (``_redis()``), which takes a
    connection from its pool and gives it back, checks that it has nothing left
    to read and wraps the command in its retries, a command cost 50-60 us of the
    web worker's CPU, against 31-33 us so (benchmarks, docs/performance.md)."""
    url = settings.REDIS_URL
    if _link.connection is None or _link.url != url:
        _link.url, _link.connection = url, _redis().connection_pool.make_connection()
    connection = _link.connection
    try:
        connection.send_command(*args)
        return connection.read_response()
    except (redis.RedisError, OSError):
        connection.disconnect()  # connected afresh by the next command
        raise


def seat_view(game: Game, seat: int, kind: str) -> bytes | None:
    """What the player of ``seat`` would GET of the game now, in ``kind``'s form
    (None if the seat has no player, or the view could not be made: the seq
    alone then goes out, and the client asks). Their client has the game in
    front of them: a visit, as the GET would be."""
    from games.mail import game_mail

    user = next((s.user for s in game.seats.all() if s.index == seat and s.user_id), None)
    if user is None:
        return None
    try:
        game_mail().game_viewed(game=game, user=user)
        made: bytes = import_string(VIEWS[kind])(game, user)
    except Exception:  # the move is committed: its answer must not fail for this
        log.exception("could not make seat %s's %s view of game %s", seat, kind, game.pk)
        return None
    return made


def publish(game: Game, seq: int, to_move: Collection[int] = ()) -> None:
    """Tell the stream servers that ``game`` is at ``seq``, with the views of
    those of the seats ``to_move`` that listen. A failure is logged, never
    raised: the move is committed, and pages still poll on reconnecting."""
    try:
        message = [b"%d %d" % (game.pk, seq)]
        heard = _seats_of(_command("ZRANGEBYSCORE", *_listening_range(game.pk, None))
                          ) if to_move else ()
        for seat, kind in sorted(heard):
            if seat in to_move and (view := seat_view(game, seat, kind)) is not None:
                message.append(b"%d %s %s" % (seat, kind.encode(), view))
        _command("PUBLISH", CHANNEL, b"\n".join(message))
    except (redis.RedisError, OSError):  # Redis down: the pages find the move later
        log.warning("could not publish game %s at seq %s", game.pk, seq, exc_info=True)


def publish_after_commit(game: Game, seq: int, to_move: Collection[int] = ()) -> None:
    """After the commit: ``publish``; in a request, once its answer is made
    (``request_finished``), so that the views made for the others never hold up
    the commit or the making of the mover's answer. ``game`` is the game as the
    commit left it, with its seats."""
    if enabled():
        transaction.on_commit(lambda: _publish_soon(game, seq, to_move))


class _Pending(threading.local):
    """What the request this thread serves has to publish once it is answered
    (None outside a request: a task publishes at once)."""

    queue: list[tuple[Game, int, Collection[int]]] | None = None


_pending = _Pending()


def _publish_soon(game: Game, seq: int, to_move: Collection[int]) -> None:
    if _pending.queue is None:
        publish(game, seq, to_move)
    else:
        _pending.queue.append((game, seq, to_move))


def _request_started(**kwargs: Any) -> None:
    _pending.queue = []


def _request_finished(**kwargs: Any) -> None:
    queue, _pending.queue = _pending.queue, None
    for game, seq, to_move in queue or ():
        publish(game, seq, to_move)


request_started.connect(_request_started, dispatch_uid="games.live.request_started")
request_finished.connect(_request_finished, dispatch_uid="games.live.request_finished")
