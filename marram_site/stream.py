"""The stream server: open game pages hear of moves here instead of polling.

An ASGI application (no Django apps loaded, no database) for uvicorn::

    uvicorn marram_site.stream:app --host 0.0.0.0 --port 8001 --no-access-log

Behind the site's own address at ``MARRAM_STREAM_PATH`` (``/stream``; nginx
routes it, deploy/nginx/), it answers

- ``GET /stream/games/<id>/events?t=<token>``: server-sent events. ``data: <seq>``
  whenever game ``<id>`` reaches a new seq, or, to a seat's token when the move
  left that seat to move, ``event: view`` with ``data: <the seat's view>`` (what
  its GET of the game would answer, seq included); ``event: panels`` with
  ``data: <panels seq>`` when what the game's page shows beside its record (the
  chat, the rematch, the rating changes: games.panels) changed; ``event: resync`` after the
  server lost Redis for a while (the page then reads the game again), a
  comment every ``MARRAM_STREAM_HEARTBEAT`` seconds to keep the connection open,
  and last ``event: end`` with ``data: seat`` (the seat changed hands or its
  player left it) or ``data: expired`` (the token's life is over) before the
  server closes the stream: the client asks for a fresh address;
- ``GET /stream/games/<id>/wait?t=<token>&since=<seq>``: a long poll. The
  answer ``{"seq": N}`` comes as soon as the game is past ``since``, or
  ``{"seq": null}`` after ``MARRAM_STREAM_WAIT`` seconds;
- ``GET /stream/health``: ``{"connections": N}``.

The token is the one the game page (or the API's ``GET /api/games/<id>/stream/``)
was given (live.stream.stream_token), so only those who could open the page may
listen; it names the user it was given to and is good for
``MARRAM_STREAM_TOKEN_AGE`` seconds (403 ``expired`` after that). What is sent
is the game's seq, and a seat's own view only to a token of the user who held
the seat when the view was made. A seat's token of a user who no longer holds
the seat (a computer took it over, or they resigned) is refused (403
``seat_changed``, from the note live.stream.HOLDERS), and the streams of it held
at that moment are ended. While a process holds a seat's connection it keeps a
note of it, and of its user, in Redis (live.stream.LISTENING), renewed at each
heartbeat: only then do the commits make that seat's views. Each process holds
at most ``MARRAM_STREAM_MAX_CONNECTIONS`` connections; beyond that a 503 tells
the page to poll instead.

One Redis subscription per process (live.stream.CHANNEL, where every commit that
moves a game on publishes its new seq) feeds every connection of the process:
a held connection costs a coroutine and a few kilobytes, not a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import parse_qs

import redis.asyncio as aioredis
from redis.exceptions import RedisError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marram_site.settings")

from django.conf import settings  # noqa: E402  (after the settings module is named)

from live.stream import (  # noqa: E402
    CHANNEL,
    HOLDERS,
    LISTENING,
    LISTENING_TTL,
    TokenRefused,
    listening_member,
    token_read,
)

log = logging.getLogger("marram.stream")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

REMEMBERED_GAMES = 100_000
"""How many games' latest seqs a process keeps, for long polls that start late."""


@dataclass(eq=False)
class Listener:
    """One held connection: the newest seq heard for its game (and its seat's
    view at that seq, if one came), and a flag raised when there is something to
    send (a seq, a resync, the end, or the client left)."""

    game: int
    seat: int | None = None
    kind: str | None = None
    user: int | None = None
    """The user the token was given to."""
    expires: float = float("inf")
    """When the token's life is over (Unix seconds): the stream ends then."""
    seq: int = -1
    view: bytes | None = None
    panels: int = -1
    """The newest panels seq heard for its game (games.panels)."""
    resync: bool = False
    beat: bool = False
    """A heartbeat is due (the hub raises it for every listener at once)."""
    gone: bool = False
    ended: str | None = None
    """Why the stream is to end now (``seat``: its seat has another holder)."""
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def noted(self) -> tuple[int, int, str, int] | None:
        """The (game, seat, kind, user) this listener is noted for in Redis, if a
        seat's."""
        if self.seat is None or self.kind is None or self.user is None:
            return None
        return self.game, self.seat, self.kind, self.user


class Hub:
    """The process's connections by game, fed by one Redis subscription."""

    def __init__(self, url: str, limit: int) -> None:
        self.url = url
        self.limit = limit
        self.games: dict[int, set[Listener]] = {}
        self.latest: dict[int, int] = {}
        self.count = 0
        self.seats: dict[tuple[int, int, str, int], int] = {}
        """The connections held of each (game, seat, kind, user)."""
        self.process = uuid.uuid4().hex
        self.notes: aioredis.Redis | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.subscribed = asyncio.Event()

    def start(self) -> None:
        if not self.tasks:
            self.notes = aioredis.Redis.from_url(self.url, socket_timeout=2,
                                                 socket_connect_timeout=2)
            self.tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._beat())]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.tasks = []
        if self.notes is not None:
            await self.notes.aclose()
            self.notes = None

    def join(self, game: int, seat: int | None = None, kind: str | None = None,
             user: int | None = None, expires: float = float("inf")) -> Listener | None:
        """A listener for ``game`` (as ``user``, the player of ``seat``, sent views
        in ``kind``'s form, until ``expires``), or None when the process holds all
        it may."""
        if self.count >= self.limit:
            return None
        self.start()
        listener = Listener(game, seat, kind, user, expires)
        self.games.setdefault(game, set()).add(listener)
        self.count += 1
        if (key := listener.noted) is not None:
            self.seats[key] = self.seats.get(key, 0) + 1
        return listener

    def leave(self, listener: Listener) -> bool:
        """Forget the listener; True when it was the last of its seat here."""
        listeners = self.games.get(listener.game)
        if listeners is None or listener not in listeners:
            return False
        listeners.discard(listener)
        if not listeners:
            del self.games[listener.game]
        self.count -= 1
        key = listener.noted
        if key is None:
            return False
        self.seats[key] -= 1
        if self.seats[key]:
            return False
        del self.seats[key]
        return True

    async def holder(self, game: int, seat: int) -> str | None:
        """Who holds the seat, as noted when it changed hands or was left
        (live.stream.HOLDERS): a user id, ``-`` for nobody, None when nothing is
        noted (or Redis cannot say: the seat's views go to its holder alone)."""
        if self.notes is None:
            return None
        try:
            # redis-py types a command's answer for its blocking and asyncio clients
            # at once; this one's is awaited, to bytes or None
            found = await cast("Awaitable[bytes | None]",
                               self.notes.hget(HOLDERS.format(game=game), str(seat)))
        except (RedisError, OSError) as error:
            log.warning("could not read the holders of game %s (%s)", game, error)
            return None
        return None if found is None else found.decode()

    async def note(self, listener: Listener) -> None:
        """Note in Redis that this process holds the listener's seat (before its
        stream begins: the next commit that awaits the seat makes its view)."""
        if (key := listener.noted) is not None:
            await self._note([key])

    async def _note(self, seats: list[tuple[int, int, str, int]]) -> None:
        """Note (or note again) that this process holds these (game, seat, kind,
        user) for LISTENING_TTL seconds more. A failure is logged: the seq alone
        comes, and the client asks."""
        if not seats or self.notes is None:
            return
        expires = time.time() + LISTENING_TTL
        try:
            async with self.notes.pipeline(transaction=False) as pipe:
                for game, seat, kind, user in seats:
                    key = LISTENING.format(game=game)
                    pipe.zadd(key, {listening_member(seat, kind, user, self.process): expires})
                    pipe.expire(key, int(LISTENING_TTL))
                await pipe.execute()
        except (RedisError, OSError) as error:
            log.warning("could not note %d listening seats (%s)", len(seats), error)

    async def unnote(self, listener: Listener) -> None:
        """The seat's last connection here closed: take the note back."""
        if self.notes is None or (key := listener.noted) is None:
            return
        _, seat, kind, user = key
        member = listening_member(seat, kind, user, self.process)
        try:
            await self.notes.zrem(LISTENING.format(game=listener.game), member)
        except (RedisError, OSError) as error:  # the note expires by itself
            log.warning("could not take back a note of game %s (%s)", listener.game, error)

    async def _beat(self) -> None:
        """Every heartbeat: a comment due on every stream held here (one timer for
        them all, not one a connection), and the notes of every seat renewed."""
        while True:
            await asyncio.sleep(settings.MARRAM_STREAM_HEARTBEAT)
            for listeners in self.games.values():
                for listener in listeners:
                    listener.beat = True
                    listener.wake.set()
            await self._note(list(self.seats))

    def deliver(self, message: bytes) -> None:
        """A published ``"<game> <seq>"`` (or ``"<game> <seq> <panels>"``), then
        lines ``"<seat> held <user>"`` for each seat whose holder it tells and
        ``"<seat> <kind> <user> <view>"`` for each seat sent its view: to every
        listener of that game (a view only to the listeners of that seat with
        that user's token; the end to those of a seat whose holder is now
        another)."""
        head, *lines = message.split(b"\n")
        try:
            game_text, seq_text, *panels_text = head.decode("ascii").split()
            game, seq = int(game_text), int(seq_text)
            if len(panels_text) > 1:
                raise ValueError(head)
            panels = int(panels_text[0]) if panels_text else None
            views: dict[tuple[int | None, str | None, int | None], bytes] = {}
            holders: dict[int, int | None] = {}
            for line in lines:
                seat, kind, rest = line.split(b" ", 2)
                if kind == b"held":
                    holders[int(seat)] = None if rest == b"-" else int(rest)
                    continue
                user, view = rest.split(b" ", 1)
                views[int(seat), kind.decode("ascii"), int(user)] = view
        except (UnicodeDecodeError, ValueError):
            log.warning("ignored a message that is not '<game> <seq>': %r", message[:80])
            return
        if holders:  # whatever the seq: a seat's stream ends as its player leaves
            for listener in self.games.get(game, ()):
                if listener.seat in holders and listener.user != holders[listener.seat]:
                    listener.ended = "seat"
                    listener.wake.set()
        if panels is not None:
            for listener in self.games.get(game, ()):
                if panels > listener.panels:
                    listener.panels = panels
                    listener.wake.set()
        if seq <= self.latest.get(game, -1):
            return
        self.latest.pop(game, None)
        self.latest[game] = seq
        if len(self.latest) > REMEMBERED_GAMES:
            del self.latest[next(iter(self.latest))]
        for listener in self.games.get(game, ()):
            if seq > listener.seq:
                listener.seq = seq
                listener.view = views.get((listener.seat, listener.kind, listener.user))
            listener.wake.set()

    def resync_all(self) -> None:
        """Messages may have been lost: every page reads its game again."""
        self.latest.clear()
        for listeners in self.games.values():
            for listener in listeners:
                listener.resync = True
                listener.wake.set()

    async def _read(self) -> None:
        pause, lost = 0.5, False
        while True:
            client = aioredis.Redis.from_url(self.url)
            try:
                pubsub = client.pubsub()
                await pubsub.subscribe(CHANNEL)
                if lost:
                    self.resync_all()
                self.subscribed.set()
                pause = 0.5
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        self.deliver(message["data"])
            except (RedisError, OSError) as error:
                self.subscribed.clear()
                lost = True
                log.warning("lost Redis (%s); again in %.1f s", error, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 10.0)
            finally:
                await client.aclose()


hub = Hub(settings.REDIS_URL or "redis://127.0.0.1:6379/0",
          settings.MARRAM_STREAM_MAX_CONNECTIONS)

_BASE = settings.MARRAM_STREAM_PATH.rstrip("/")
_HEALTH = _BASE + "/health"
_PATH = re.compile(re.escape(_BASE) + r"/games/([0-9]{1,18})/(events|wait)")


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
    elif scope["type"] == "http":
        await _http(scope, receive, send)


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            hub.start()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await hub.stop()
            await send({"type": "lifespan.shutdown.complete"})
            return


async def _http(scope: Scope, receive: Receive, send: Send) -> None:
    path = scope["path"]
    if path == _HEALTH:
        await _json(send, 200, {"connections": hub.count,
                                "subscribed": hub.subscribed.is_set()})
        return
    found = _PATH.fullmatch(path)
    if found is None:
        await _refuse(send, 404, "not_found", "no such stream")
        return
    if scope["method"] not in ("GET", "HEAD"):
        await _refuse(send, 405, "method_not_allowed", "only GET", [(b"allow", b"GET")])
        return
    game, kind = int(found.group(1)), found.group(2)
    query = parse_qs(scope["query_string"].decode("latin-1"))
    try:
        listening = token_read(query.get("t", [""])[0])
    except TokenRefused as refused:
        if refused.code == "expired":
            await _refuse(send, 403, "expired",
                          "this stream's token is too old: ask for the stream's address again")
        else:
            await _refuse(send, 403, "forbidden",
                          "this stream's token is missing, forged or for another game")
        return
    if listening.game != game:
        await _refuse(send, 403, "forbidden",
                      "this stream's token is missing, forged or for another game")
        return
    since = query.get("since", ["0"])[0]
    if kind == "wait" and not (since.isdigit() and len(since) <= 18):
        await _refuse(send, 400, "invalid", "since must be a seq: a whole number, 0 or more")
        return
    if listening.seat is not None:
        hub.start()
        holder = await hub.holder(game, listening.seat)
        if holder is not None and holder != str(listening.user):
            await _refuse(send, 403, "seat_changed",
                          "this seat is no longer yours (it changed hands or you left "
                          "the game): ask for the stream's address again")
            return
    # a long poll answers the seq alone: only a stream is sent its seat's views
    listener = (hub.join(game, listening.seat, listening.kind, listening.user,
                         listening.expires) if kind == "events"
                else hub.join(game, user=listening.user))
    if listener is None:
        await _refuse(send, 503, "busy", "this stream server holds all it may: poll instead",
                      [(b"retry-after", b"30")])
        return
    watcher = asyncio.create_task(_watch(receive, listener))
    try:
        await hub.note(listener)
        if kind == "events":
            await _events(send, listener)
        else:
            await _wait(send, listener, int(since))
    except OSError:
        pass  # the client went away while we wrote
    finally:
        if hub.leave(listener):
            await hub.unnote(listener)
        watcher.cancel()


async def _watch(receive: Receive, listener: Listener) -> None:
    """Until the client goes away."""
    while (await receive())["type"] != "http.disconnect":
        pass
    listener.gone = True
    listener.wake.set()


async def _events(send: Send, listener: Listener) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"text/event-stream"), (b"cache-control", b"no-store"),
        (b"x-accel-buffering", b"no")]})
    # a dropped connection is tried again by the browser after 3 s
    await send({"type": "http.response.body", "body": b"retry: 3000\n\n", "more_body": True})
    sent = sent_panels = -1
    while True:
        await listener.wake.wait()
        listener.wake.clear()
        if listener.gone:
            return
        if listener.ended is None and time.time() >= listener.expires:
            listener.ended = "expired"
        if listener.ended is not None:  # nothing more, not even what came with it
            await send({"type": "http.response.body",
                        "body": b"event: end\ndata: %s\n\n" % listener.ended.encode(),
                        "more_body": False})
            return
        chunks = []
        if listener.resync:
            listener.resync = False
            chunks.append(b"event: resync\ndata: \n\n")
        if listener.seq > sent:
            sent = listener.seq
            if listener.view is not None:
                chunks.append(b"event: view\ndata: %s\n\n" % listener.view)
            else:
                chunks.append(b"data: %d\n\n" % sent)
        if listener.panels > sent_panels:
            sent_panels = listener.panels
            chunks.append(b"event: panels\ndata: %d\n\n" % sent_panels)
        if listener.beat:
            listener.beat = False
            if not chunks:
                chunks.append(b": still here\n\n")
        if chunks:
            await send({"type": "http.response.body", "body": b"".join(chunks),
                        "more_body": True})


async def _wait(send: Send, listener: Listener, since: int) -> None:
    listener.seq = hub.latest.get(listener.game, -1)
    if listener.seq <= since:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(settings.MARRAM_STREAM_WAIT):
                while True:
                    await listener.wake.wait()
                    listener.wake.clear()
                    if listener.gone:
                        return
                    if listener.seq > since or listener.resync:
                        break
    await _json(send, 200, {"seq": listener.seq if listener.seq > since else None})


async def _json(send: Send, status: int, payload: dict[str, Any],
                headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps(payload).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"cache-control", b"no-store"),
        (b"content-length", str(len(body)).encode()), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


async def _refuse(send: Send, status: int, code: str, message: str,
                  headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await _json(send, status, {"code": code, "message": message}, headers)
