"""Live updates for open game pages: after a commit that moved a game on, its new
seq is published on Redis; the stream server (marram_site/stream.py) passes it to
every page of that game that holds a connection, by server-sent events or long
polling, instead of each page asking every few seconds.

A player's own page (or API client) listens with a token of its seat and of its
user, and the stream server keeps a note in Redis of which seats listen, and as
whom (``listening``; the mail reads it too: a player watching the game gets no
turn mail, ``watching``). When a commit leaves a listening seat to move (and it was
not that seat's own move, whose answer carried its view), the commit's message
carries that seat's view too, what its GET would give it, made for the user who
holds the seat at that commit and sent only to streams of that user's token: the
player's client draws it without asking (a page's, with its state as the changes
since the seat's last view where this process made that one:
games.pages.views.seat_view). Everyone else hears the seq only, which every
viewer of the game may know. A request's commits are published once its answer
is made (``request_finished``; the web server gets the answer whole just after,
marram_site.wsgi), a task's at once.

A seat's stream lasts no longer than its player holds the seat: when a seat
changes hands (a computer takes it over: ``seat_changed``) or a listening seat's
player is found to have left it (``publish``), the seat's new holder is noted in
Redis (``HOLDERS``) and published, and the stream server ends every stream of
that seat held by anyone else and refuses their tokens from then on.

A page gets a signed token for its game's stream with the page, so the stream
server checks who may listen without reading the database. A token names the
game, the user and (for a player) their seat, and is good for
``MARRAM_STREAM_TOKEN_AGE`` seconds (an hour): the stream server ends a stream
whose token has grown older, and the page (or API client) asks for a fresh
address, which names the seat only while its user still holds it.

Off unless ``MARRAM_STREAM`` is set (it needs Redis and the stream server); the
pages then poll, as they do when the stream cannot be reached.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

import redis
from django.conf import settings
from django.core import signing
from django.core.signals import request_finished, request_started
from django.db import transaction
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from django.contrib.auth.models import User

log = logging.getLogger(__name__)

CHANNEL = "marram:games"
"""The Redis channel: each message is ``"<game id> <seq>"`` (``"<game id> <seq>
<panels seq>"`` when what the game's pages show beside its record changed:
games.panels), then a line for each
seat whose holder it tells (``"<seat> held <user id>"``, ``-`` for nobody: the
player left), and a line ``"<seat> <kind> <user id> <view>"`` for each listening
seat the commit left to move, its view made for that user (as JSON, which has no
line break in it)."""
LISTENING = "marram:listening:{game}"
"""A sorted set per game: ``"<seat> <kind> <user id> <process>"`` for each stream
process that holds a connection of that seat with that user's token, scored by
when the note expires (Unix seconds) unless the process renews it."""
LISTENING_TTL = 90.0
"""How long a note of listening lasts unrenewed (a stream process renews its own
every ``MARRAM_STREAM_HEARTBEAT`` seconds, and takes them back when the seat's
last connection closes)."""
HOLDERS = "marram:holders:{game}"
"""A hash per game: seat index -> the id of the user who holds the seat now, or
``-`` when its player left, for the seats that changed hands or were left while
tokens of them may still be good. The stream server refuses a seat's token of
any other user. It expires once every token issued before the change has."""
VIEWS = ("api", "page")
"""The kinds of listener a seat's view is sent to: each is sent the encoded
answer of its own GET of the game (the API's ``GET /api/games/{id}/``, the
page's ``state.json``), made by the function ``settings.MARRAM_STREAM_SEAT_VIEW``
names (games.streaming.seat_view): the settings put the games app's side here,
as they do for the mail."""
TOKEN_SALT = "marram.stream"

class Game(Protocol):
    """What this module reads of a game (games.models.Game, its seats loaded):
    its id, where its record is, who has left, and its seats' holders."""

    @property
    def pk(self) -> Any: ...

    @property
    def seq(self) -> int: ...

    @property
    def projection(self) -> Any: ...

    def seat_list(self) -> Sequence[Any]:
        """Its seats, in seat order."""
        ...


_client_lock = threading.Lock()
_clients: dict[str, redis.Redis] = {}


def enabled() -> bool:
    return bool(settings.MARRAM_STREAM and settings.REDIS_URL)


def token_max_age() -> int:
    """How long a token is good, in seconds (``MARRAM_STREAM_TOKEN_AGE``)."""
    return int(settings.MARRAM_STREAM_TOKEN_AGE)


@dataclass(frozen=True)
class Listening:
    """Whom a token lets listen: a game, the user it was given to, and a seat of
    the game with the kind of view its client draws (``VIEWS``), or no seat (the
    seq only); ``issued``: when it was signed (Unix seconds)."""

    game: int
    seat: int | None = None
    kind: str | None = None
    user: int | None = None
    issued: float = field(default=0.0, compare=False)

    @property
    def expires(self) -> float:
        return self.issued + token_max_age()


class TokenRefused(Exception):
    """A token that lets nobody listen: ``code`` is ``expired`` for one signed
    more than ``MARRAM_STREAM_TOKEN_AGE`` seconds ago, ``forbidden`` otherwise."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def stream_token(game_id: int, seat: int | None = None, kind: str = "page", *,
                 user: int | None = None) -> str:
    """What a client shows the stream server to listen to game ``game_id``: as
    ``user``, the player of ``seat``, whose views it is sent in ``kind``'s form, or
    (no seat) as anyone who may see the game. Only the seat's player may be given
    a seat's token, and it names them: the views carry the seat's secrets, and
    are sent to a token of the user who holds the seat when they are made."""
    if kind not in VIEWS:
        raise ValueError(f"no such kind of view: {kind}")
    if seat is not None and user is None:
        raise ValueError("a seat's token names the seat's player")
    value = ".".join(["" if part is None else str(part) for part in
                      (game_id, seat, None if seat is None else kind, user)])
    return signing.TimestampSigner(salt=TOKEN_SALT).sign(value)


def token_read(token: str, max_age: float | None = None) -> Listening:
    """Whom a token lets listen; TokenRefused if it is forged, of another form or
    older than ``max_age`` seconds (by default ``MARRAM_STREAM_TOKEN_AGE``)."""
    signer = signing.TimestampSigner(salt=TOKEN_SALT)
    try:
        value = signer.unsign(token, max_age=timedelta(
            seconds=token_max_age() if max_age is None else max_age))
    except signing.SignatureExpired:
        raise TokenRefused("expired") from None
    except signing.BadSignature:
        raise TokenRefused("forbidden") from None
    parts = value.split(".")
    if len(parts) != 4:
        raise TokenRefused("forbidden")
    game, seat, kind, user = parts
    if not game.isdigit() or not (user == "" or user.isdigit()):
        raise TokenRefused("forbidden")
    issued = float(signing.b62_decode(token.rsplit(signer.sep, 2)[1]))
    owner = int(user) if user else None
    if not seat and not kind:
        return Listening(int(game), user=owner, issued=issued)
    if not seat.isdigit() or kind not in VIEWS or owner is None:
        raise TokenRefused("forbidden")
    return Listening(int(game), int(seat), kind, owner, issued)


def token_listening(token: str, max_age: float | None = None) -> Listening | None:
    """Whom a token lets listen, or None (forged, expired)."""
    try:
        return token_read(token, max_age)
    except TokenRefused:
        return None


def listening_seat(game: Game, user: User | None) -> int | None:
    """The seat whose views the user's stream may be sent: theirs, unless they
    have none (a spectator) or left the game (resigned)."""
    if user is None:
        return None
    gone = set((game.projection or {}).get("resigned") or ())
    return next((s.index for s in game.seat_list()
                 if s.user_id == user.pk and s.index is not None and s.index not in gone),
                None)


def stream_url(game: Game, user: User | None, kind: str = "page") -> str:
    """The event stream of a game's page for ``user`` ("" when live updates are
    off): the seat's, for the player who holds it and has not left. The same
    token serves the long poll, ``.../wait?t=...&since=N``."""
    if not enabled():
        return ""
    seat = listening_seat(game, user)
    base = f"{settings.MARRAM_STREAM_PATH.rstrip('/')}/games/{game.pk}"
    owner = user.pk if user is not None else None
    return f"{base}/events?t={stream_token(game.pk, seat, kind, user=owner)}"


def _redis() -> redis.Redis:
    """The process's client of ``REDIS_URL`` (a pool of connections)."""
    with _client_lock:
        client = _clients.get(settings.REDIS_URL)
        if client is None:
            client = _clients[settings.REDIS_URL] = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        return client


def listening_member(seat: int, kind: str, user: int, process: str) -> str:
    """A stream process's note that it holds a stream of ``seat`` with ``user``'s
    token (``LISTENING``)."""
    return f"{seat} {kind} {user} {process}"


def listening(client: redis.Redis, game_id: int, now: float | None = None
              ) -> set[tuple[int, str, int]]:
    """The seats of the game that some stream process holds a connection of,
    each with the kind of view it is sent and the user whose token it holds."""
    members = client.zrangebyscore(*_listening_range(game_id, now))
    assert isinstance(members, list)  # a client of redis.Redis answers at once
    return _seats_of(members)


def watching(pairs: Collection[tuple[int, int]]) -> set[tuple[int, int]]:
    """Of these (user id, game id) pairs, those whose user holds a stream of their
    seat of the game open now (a note of listening not yet expired): their
    client is shown each move as it is made (the mail holds back their turn
    mail: notifications). A read per game, in one round trip. Empty when live
    updates are off, or Redis cannot be read (logged): no one is then taken to
    be watching."""
    games = sorted({game for _, game in pairs})
    if not games or not enabled():
        return set()
    try:
        with _redis().pipeline(transaction=False) as pipe:
            for game in games:
                pipe.zrangebyscore(*_listening_range(game, None))
            answers = pipe.execute()
    except (redis.RedisError, OSError):
        log.warning("could not read who watches %d games", len(games), exc_info=True)
        return set()
    users = {game: {user for _, _, user in _seats_of(members)}
             for game, members in zip(games, answers, strict=True)}
    return {(user, game) for user, game in pairs if user in users[game]}


def _listening_range(game_id: int, now: float | None) -> tuple[str, float, str]:
    return LISTENING.format(game=game_id), now if now is not None else time.time(), "+inf"


def _seats_of(members: list[bytes]) -> set[tuple[int, str, int]]:
    found = set()
    for member in members:
        seat, kind, user, _ = member.decode().split(" ", 3)
        found.add((int(seat), kind, int(user)))
    return found


def seat_holders(game: Game) -> dict[int, int | None]:
    """Who holds each seat of the game now: its user's id, None when its player
    left (resigned) or it has none."""
    gone = set((game.projection or {}).get("resigned") or ())
    return {s.index: None if s.index in gone else s.user_id
            for s in game.seat_list() if s.index is not None}


def holder_line(seat: int, holder: int | None) -> bytes:
    """A message's line naming the seat's holder (``CHANNEL``)."""
    return b"%d held %s" % (seat, b"-" if holder is None else b"%d" % holder)


def _command(*args: Any) -> Any:
    """One command on the process's client of ``REDIS_URL`` (``_redis()``), its
    answer as Redis gives it. The client's pool hands each thread a connection
    of its own and makes new ones in a process forked from this one, so no two
    processes ever share a socket and read each other's replies."""
    return _redis().execute_command(*args)  # type: ignore[no-untyped-call]  # redis-py's, unannotated


def seat_view(game: Game, seat: int, kind: str, user_id: int) -> bytes | None:
    """What the player of ``seat`` would GET of the game now, in ``kind``'s form,
    if that is the user ``user_id`` (None if it is not, or the view could not be
    made: the seq alone then goes out, and the client asks)."""
    user = next((s.user for s in game.seat_list()
                 if s.index == seat and s.user_id == user_id), None)
    if user is None:
        return None
    try:
        made: bytes = import_string(settings.MARRAM_STREAM_SEAT_VIEW)(game, user, kind)
    except Exception:  # the move is committed: its answer must not fail for this
        log.exception("could not make seat %s's %s view of game %s", seat, kind, game.pk)
        return None
    return made


def publish(game: Game, seq: int, to_move: Collection[int] = ()) -> None:
    """Tell the stream servers that ``game`` is at ``seq``, with the views of
    those of the seats ``to_move`` that listen, each made for the seat's holder
    and only for a stream of theirs. A listening stream of a seat its user no
    longer holds (they left it, or it changed hands) is told to end, and the
    seat's holder noted (``HOLDERS``). A failure is logged, never raised: the
    move is committed, and pages still poll on reconnecting."""
    try:
        message = [b"%d %d" % (game.pk, seq)]
        heard = _seats_of(_command("ZRANGEBYSCORE", *_listening_range(game.pk, None))
                          ) if to_move else set()
        holders = seat_holders(game) if heard else {}
        moved = {seat: holders.get(seat) for seat, _, user in heard
                 if holders.get(seat) != user}
        for seat, holder in sorted(moved.items()):
            message.append(holder_line(seat, holder))
        for seat, kind, user in sorted(heard):
            if seat in to_move and holders.get(seat) == user and \
                    (view := seat_view(game, seat, kind, user)) is not None:
                message.append(b"%d %s %d %s" % (seat, kind.encode(), user, view))
        if moved:
            _note_holders(game.pk, moved)
        _command("PUBLISH", CHANNEL, b"\n".join(message))
    except (redis.RedisError, OSError):  # Redis down: the pages find the move later
        log.warning("could not publish game %s at seq %s", game.pk, seq, exc_info=True)
    except Exception:  # the move is committed: nothing here may reach its caller
        log.exception("could not publish game %s at seq %s", game.pk, seq)


def _note_holders(game_id: int, holders: dict[int, int | None]) -> None:
    """Note in Redis who holds these seats now (``HOLDERS``), for as long as a
    token issued before may still be good."""
    key = HOLDERS.format(game=game_id)
    pairs = [part for seat, holder in holders.items()
             for part in (seat, "-" if holder is None else holder)]
    _command("HSET", key, *pairs)
    _command("EXPIRE", key, token_max_age() + 60)


def seat_changed(game: Game, seat: int, user_id: int | None) -> None:
    """Once the transaction commits, tell the stream servers that ``seat`` of the
    game now belongs to ``user_id`` (None: to nobody): they end the streams of
    that seat held with anyone else's token, and refuse those tokens from then on
    (``HOLDERS``). Whatever gives a running game's seat to someone else calls
    this (bots.hooks.seat_take_over)."""
    if not enabled():
        return
    game_id, seq = game.pk, game.seq

    def tell() -> None:
        try:
            _note_holders(game_id, {seat: user_id})
            _command("PUBLISH", CHANNEL, b"%d %d\n%s" % (game_id, seq,
                                                         holder_line(seat, user_id)))
        except (redis.RedisError, OSError):  # the seat's views still go to its holder alone
            log.warning("could not tell that seat %s of game %s changed hands", seat, game_id,
                        exc_info=True)

    transaction.on_commit(tell, robust=True)


def panels_published(game_id: int, seq: int, panels: int) -> None:
    """Once the transaction commits, tell the stream servers that what the pages
    of the game (at ``seq``) show beside its record is at ``panels``
    (games.panels): they send every stream of the game ``event: panels``. A
    failure is logged: the pages' next poll finds it."""
    if not enabled():
        return

    def tell() -> None:
        try:
            _command("PUBLISH", CHANNEL, b"%d %d %d" % (game_id, seq, panels))
        except (redis.RedisError, OSError):
            log.warning("could not publish the panels of game %s", game_id, exc_info=True)

    transaction.on_commit(tell, robust=True)


def publish_after_commit(game: Game, seq: int, to_move: Collection[int] = ()) -> None:
    """After the commit: ``publish``; in a request, once its answer is made
    (``request_finished``), so that the views made for the others never hold up
    the commit or the making of the mover's answer. ``game`` is the game as the
    commit left it, with its seats."""
    if enabled():
        transaction.on_commit(lambda: _publish_soon(game, seq, to_move), robust=True)


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


request_started.connect(_request_started, dispatch_uid="live.stream.request_started")
request_finished.connect(_request_finished, dispatch_uid="live.stream.request_finished")
