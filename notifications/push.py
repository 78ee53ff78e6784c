"""Web Push: a player's phone or computer told of their games on its lock screen.

Standard Web Push: the browser subscribes at its vendor's push service (RFC
8030), and the site posts each message there, encrypted for that subscription
(RFC 8291, aes128gcm: pywebpush with http-ece) and signed with the site's VAPID
key (RFC 8292: py-vapid). The site runs no push service of its own. The request
goes through notifications.webhook_http's guarded connection, as a webhook call
does: an endpoint that resolves to the server's own networks is refused, unless
it lies in ``MARRAM_WEBHOOK_ALLOWED_NETWORKS``. Push is on where the site has a
VAPID key (settings: ``MARRAM_VAPID_PRIVATE_KEY`` or ``MARRAM_VAPID_KEY_FILE``).

What is pushed follows the outbox: every row written for a player of a kind in
``SOURCES`` (your turn, time running down, game over, a chat line, an invitation
or a rematch offer: the events that call for a mail) is written with a push row
beside it (``siblings``), in the same write, so a committed move always has its
push waiting, whatever the mail's policy makes of the mail. As a push row is
delivered it becomes one row per device of the player's (``fan_out``), each then
delivered as a webhook call is: at least once, retried after 2, 4, 8 ... minutes,
failures kept on the row, a task each on the ``push`` queue (settings), so a slow
push service holds a push worker and never a mail worker. A device's push is not
sent when the player switched its kind off, when the turn it tells of is over
(the mail's own test), or while the game's page is open and in view on that
device (``PAGE_OPEN_FOR``: the page says so every ``PAGE_OPEN_EVERY`` seconds,
and at once when it is hidden or closed). A 404 or 410 from the push service
removes the device: its subscription is gone.

Each message carries a delivery id (the row's Message-ID, the same on every
attempt), which the service worker uses to drop a message delivered twice, and
only what a mail of the same event would show: the game's title and number, the
other players' names, the time left, a chat line to its players; never a hand, a
secret choice or the game's seed.
"""

from __future__ import annotations

import base64
import functools
import ipaddress
import json
import logging
import os
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from email.utils import parseaddr
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from py_vapid import Vapid02
from pywebpush import WebPusher

from games import clocks
from games.enqueue import Task, run_inline
from games.models import Clock, Game, Invitation, Seat
from games.selectors import rules_of
from notifications import jobs, webhook_http
from notifications.emails import duration_words
from notifications.models import (
    PUSH_DEVICES_PER_PLAYER,
    Notification,
    PushPageOpen,
    PushSettings,
    PushSubscription,
)
from notifications.outbox import OutboxWaker, delivery_failed, turn_over
from notifications.webhook_http import CallFailed, CallRefused
from web.errors import Conflict, Invalid, NotFound

logger = logging.getLogger(__name__)

Kind, Status = Notification.Kind, Notification.Status

LABELS = {
    Kind.PUSH_TURN: "It is my turn",
    Kind.PUSH_CLOCK: "My time is running down (a day left)",
    Kind.PUSH_GAME_OVER: "A game of mine is over",
    Kind.PUSH_CHAT: "Someone writes in a game's chat",
    Kind.PUSH_INVITATION: "Someone invites me to a game",
    Kind.PUSH_REMATCH: "Someone offers a rematch",
    Kind.PUSH_TOURNAMENT: "A round of my tournament starts, or the tournament is over",
}
"""Each kind of push as the settings page names it, in its order."""
SOURCES = {
    Kind.YOUR_TURN: Kind.PUSH_TURN,
    Kind.REMINDER: Kind.PUSH_CLOCK,
    Kind.GAME_OVER: Kind.PUSH_GAME_OVER,
    "chat": Kind.PUSH_CHAT,  # chat.services.KIND
    Kind.INVITATION: Kind.PUSH_INVITATION,  # or a rematch: source_kind
    Kind.TOURNAMENT: Kind.PUSH_TOURNAMENT,
}
"""The outbox rows a push goes with: the kind of each's push."""
TTL: dict[str, int] = {Kind.PUSH_TURN: 3 * 86400, Kind.PUSH_CLOCK: 86400,
                       Kind.PUSH_GAME_OVER: 7 * 86400, Kind.PUSH_CHAT: 86400,
                       Kind.PUSH_INVITATION: 7 * 86400, Kind.PUSH_REMATCH: 7 * 86400,
                       Kind.PUSH_TOURNAMENT: 3 * 86400}
"""Seconds a push service keeps a message for a device that is off (RFC 8030's TTL):
no longer than the message is of use."""
URGENT = (Kind.PUSH_TURN, Kind.PUSH_CLOCK)
"""Kinds sent with Urgency: high (RFC 8030 5.3); the others are normal."""
PAGE_OPEN_FOR = timedelta(seconds=45)
"""A game's page that said it was open and in view this recently holds back the
pushes about that game to its device."""
PAGE_OPEN_EVERY = 20
"""Seconds between two of an open page's reports (a page hidden reports at once)."""
VAPID_FOR = timedelta(hours=12)
"""How long a VAPID token is good (its exp); RFC 8292 allows at most a day."""
WAKE_EVERY = 0.1
"""Seconds: a web process asks the push queue for a drain at once, then for one
more at the end of this window for all it commits within it."""
DRAIN_BATCH = 200
NAME_MAX = PushSubscription._meta.get_field("name").max_length or 60


# ---------------------------------------------------------------- the site's key


def vapid() -> Vapid02 | None:
    """The site's VAPID key, None where push is off."""
    if settings.MARRAM_VAPID_PRIVATE_KEY:
        return _vapid_from_string(settings.MARRAM_VAPID_PRIVATE_KEY)
    if settings.MARRAM_VAPID_KEY_FILE:
        return _vapid_from_file(settings.MARRAM_VAPID_KEY_FILE)
    return None


def push_on() -> bool:
    return bool(settings.MARRAM_VAPID_PRIVATE_KEY or settings.MARRAM_VAPID_KEY_FILE)


@functools.lru_cache(maxsize=4)
def _vapid_from_string(key: str) -> Vapid02:
    return Vapid02.from_string(key)


@functools.lru_cache(maxsize=4)
def _vapid_from_file(path: str) -> Vapid02:
    """The key kept in ``path`` (PEM); made and kept there first if there is none
    (one process makes it: the file is created exclusively)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return Vapid02.from_pem(Path(path).read_bytes())
    key = Vapid02()
    key.generate_keys()
    with os.fdopen(fd, "wb") as out:
        out.write(key.private_pem())
    logger.info("made a VAPID key for push in %s", path)
    return key


def key_new() -> tuple[str, str]:
    """A new VAPID key pair: the private key as ``MARRAM_VAPID_PRIVATE_KEY`` takes
    it (the 32-byte number, base64url) and the public key as browsers take it."""
    key = Vapid02()
    key.generate_keys()
    number = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    return _b64(number), public_key_of(key)


def public_key_of(key: Vapid02) -> str:
    """The public key as PushManager.subscribe's applicationServerKey takes it: the
    uncompressed point, base64url without padding."""
    return _b64(key.public_key.public_bytes(serialization.Encoding.X962,
                                            serialization.PublicFormat.UncompressedPoint))


def public_key() -> str:
    """The site's public key for the browsers; '' where push is off."""
    key = vapid()
    return public_key_of(key) if key is not None else ""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def subject() -> str:
    """Whom a push service writes to about the site's pushes (the JWT's sub)."""
    return settings.MARRAM_VAPID_SUBJECT or f"mailto:{parseaddr(settings.DEFAULT_FROM_EMAIL)[1]}"


def vapid_headers(endpoint: str) -> dict[str, str]:
    """The Authorization header of a push to ``endpoint``: a JWT for its push
    service's origin (aud), good for VAPID_FOR by this machine's clock (which the
    push service's is to agree with), with the site's public key."""
    key = vapid()
    if key is None:
        raise CallFailed("push is off on this site: it has no VAPID key")
    parts = urlsplit(endpoint)
    claims = {"aud": f"{parts.scheme}://{parts.netloc}", "sub": subject(),
              "exp": int(time.time() + VAPID_FOR.total_seconds())}
    signed: dict[str, str] = key.sign(claims)
    return {"Authorization": signed["Authorization"]}


# ---------------------------------------------------------------- a player's devices


def endpoint_problem(endpoint: str) -> str:
    """Why ``endpoint`` cannot be a push subscription's, in words; '' if it can: an
    https address a webhook could call (webhook_http.url_problem), or an http one
    in the operator's allowed networks (a push service of their own network)."""
    problem = webhook_http.url_problem(endpoint)
    if problem:
        return problem
    parts = urlsplit(endpoint)
    if parts.scheme == "https":
        return ""
    allowed = webhook_http.allowed_networks()
    numeric = webhook_http._numeric_addresses(parts.hostname or "")
    if numeric and all(any(ipaddress.ip_address(a) in n for n in allowed) for a in numeric):
        return ""
    return "a push service's address starts with https://"


def _key_problem(p256dh: str, auth: str) -> str:
    """Why these keys cannot be a subscription's (RFC 8291: a P-256 point and a
    16-byte secret, base64url); '' if they can."""
    try:
        point = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
        secret = base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4))
    except (ValueError, TypeError):
        return "the keys are not base64url"
    if len(point) != 65 or point[0] != 4:
        return "p256dh is not an uncompressed P-256 point"
    if len(secret) != 16:
        return "auth is not a 16-byte secret"
    return ""


def device_add(*, user: User, subscription: Any, name: str) -> PushSubscription:
    """Keep a browser's push subscription (PushSubscription.toJSON()'s shape:
    ``endpoint`` and ``keys`` with ``p256dh`` and ``auth``) as a device of the
    player's; the same endpoint again is the same device (its keys renewed, and
    the player's now if it was someone else's on that browser). Invalid for a
    subscription that cannot be one, Conflict past PUSH_DEVICES_PER_PLAYER."""
    if not push_on():
        raise Conflict("this site sends no push notifications", code="push_off")
    if not isinstance(subscription, dict) or not isinstance(subscription.get("keys"), dict):
        raise Invalid("a subscription has an endpoint and keys", field="subscription")
    endpoint, keys = subscription.get("endpoint"), subscription["keys"]
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not (isinstance(endpoint, str) and isinstance(p256dh, str) and isinstance(auth, str)):
        raise Invalid("a subscription has an endpoint and keys p256dh and auth",
                      field="subscription")
    problem = endpoint_problem(endpoint) or _key_problem(p256dh, auth)
    if problem:
        raise Invalid(problem, code="bad_subscription", field="subscription")
    name = " ".join(str(name or "").split())[:NAME_MAX] or "A device"
    with transaction.atomic():  # one player's additions one at a time
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        found = PushSubscription.objects.filter(endpoint=endpoint).first()
        if found is None and PushSubscription.objects.filter(user=user).count() \
                >= PUSH_DEVICES_PER_PLAYER:
            raise Conflict(f"you have {PUSH_DEVICES_PER_PLAYER} devices, the most a player "
                           "may have: remove one first", code="too_many_devices")
        if found is None:
            return PushSubscription.objects.create(user=user, name=name, endpoint=endpoint,
                                                   p256dh=p256dh, auth=auth)
        found.user, found.p256dh, found.auth = user, p256dh, auth
        found.save(update_fields=["user", "p256dh", "auth"])
        return found


def device_get(*, user: User, device_id: Any) -> PushSubscription:
    """The player's own device of that id; NotFound for anyone else's."""
    try:
        found = PushSubscription.objects.filter(user=user, pk=int(device_id)).first()
    except (TypeError, ValueError, OverflowError):
        found = None
    if found is None:
        raise NotFound("you have no device of that number", code="no_such_device")
    return found


def device_rename(*, user: User, device_id: Any, name: str) -> PushSubscription:
    device = device_get(user=user, device_id=device_id)
    name = " ".join(str(name or "").split())[:NAME_MAX]
    if not name:
        raise Invalid("give the device a name", code="empty", field="name")
    device.name = name
    device.save(update_fields=["name"])
    return device


def device_remove(*, user: User, device_id: Any) -> None:
    """Remove a device of the player's; its pushes still to send are not sent."""
    device_get(user=user, device_id=device_id).delete()


def kinds_off(user_id: Any) -> set[str]:
    """The kinds of push the player has switched off."""
    found = PushSettings.objects.filter(user_id=user_id).values_list("off", flat=True).first()
    return set(found or [])


def kinds_set(*, user: User, on: Sequence[str]) -> set[str]:
    """Switch on the kinds ``on`` and off every other; the kinds off."""
    off = sorted(set(LABELS) - set(on))
    PushSettings.objects.update_or_create(user=user, defaults={"off": off})
    return set(off)


def page_open(*, user: User, device_id: Any, game_id: Any, open: bool,
              now: datetime | None = None) -> bool:
    """A game's page on a device of the player's says it is open and in view
    (``open``), or no longer: while it is, no push about that game goes to that
    device. False (nothing kept) for a device or game that is not the player's."""
    try:
        device_id, game_id = int(device_id), int(game_id)
    except (TypeError, ValueError, OverflowError):
        return False
    if not PushSubscription.objects.filter(pk=device_id, user=user).exists():
        return False
    if not open:
        PushPageOpen.objects.filter(device_id=device_id, game_id=game_id).delete()
        return True
    if not Seat.objects.filter(game_id=game_id, user=user).exists():
        return False
    PushPageOpen.objects.bulk_create(
        [PushPageOpen(device_id=device_id, game_id=game_id, seen_at=now or timezone.now())],
        update_conflicts=True, unique_fields=["device", "game"], update_fields=["seen_at"])
    return True


# ---------------------------------------------------------------- writing the outbox


def source_kind(row: Notification) -> str | None:
    """The kind of push that goes with an outbox row; None for a row that has none
    (a row to an address, a digest, an answer to a reply, a push or a webhook call)."""
    if row.user_id is None or row.webhook_id is not None:
        return None
    kind = SOURCES.get(row.kind)
    if kind == Kind.PUSH_INVITATION and row.dedup_key.startswith("rematch:"):
        return Kind.PUSH_REMATCH  # ratings.services._rematch_mail
    return kind


def words(row: Notification, title: str, body: str, url: str = "") -> Notification:
    """Give an outbox row the words of its push (a chat line's), which its writer
    knows and the row does not keep, and the page its tap opens when that is no
    game's (a tournament's); the row."""
    said = {"title": title, "body": body, **({"url": url} if url else {})}
    # carried to ``siblings`` on the unsaved row: Notification has no such field
    row.push_words = said  # type: ignore[attr-defined]
    return row


def siblings(rows: Sequence[Notification]) -> list[Notification]:
    """The push rows to write with these outbox rows: one to each player's devices
    for each row that has a kind of push (``source_kind``); none where push is off."""
    if not push_on():
        return []
    found = []
    for row in rows:
        kind = source_kind(row)
        if kind is None:
            continue
        said = getattr(row, "push_words", None)
        found.append(Notification(
            user_id=row.user_id, game_id=row.game_id, seat=row.seat, seq=row.seq, kind=kind,
            subject=row.subject if kind in (Kind.PUSH_INVITATION, Kind.PUSH_REMATCH) else "",
            body_text=json.dumps(said, ensure_ascii=False) if said else "",
            dedup_key=f"push:{row.dedup_key}"[:200]))
    return found


@functools.cache
def _waker() -> OutboxWaker:
    return OutboxWaker(every=WAKE_EVERY)


def delivery_tasks(rows: Sequence[Notification]) -> list[Task]:
    """The tasks that deliver the push rows just committed: a row to one device by
    a task of its own on the push queue; the rows to each of a player's devices
    by a drain on that queue, at most two asked for a WAKE_EVERY by this process.
    Where tasks run in this process (``./dev run``) a row to a player's devices
    is made one per device at once, as the mail is sent, and each device's push,
    which waits on a push service, runs on the process's background thread once
    the request is answered, as a worker would run it."""
    devices = [row.pk for row in rows if row.push_device_id is not None]
    players = [row.pk for row in rows if row.push_device_id is None]
    tasks = [Task(jobs.push_deliver, (pk,), background=True) for pk in devices]
    if run_inline():
        tasks += [Task(jobs.push_deliver, (pk,)) for pk in players]
    elif players:
        countdown = _waker().countdown()
        if countdown is not None:
            tasks.append(Task(jobs.push_drain, countdown=countdown, refused=_waker().failed))
    return tasks


# ---------------------------------------------------------------- delivering


def deliver(n: Notification, now: datetime,
            queue: Callable[[list[Notification]], object]) -> str:
    """Deliver a push row locked by notifications.services.notification_deliver
    (pending and due): to a player's devices, fan it out (the rows to each
    device written by ``queue``, the outbox's writer); to a device, send it,
    unless it should not go after all. Its status after ("gone" for a row to a
    player with no device or none for this kind: it is deleted)."""
    if n.push_device_id is None:
        return fan_out(n, now, queue)
    reason = skip_reason(n, now)
    if not reason and n.kind in (Kind.PUSH_TURN, Kind.PUSH_CLOCK) and turn_over(n):
        reason = "that turn is over"  # the mail's own test
    if reason:
        n.status, n.note = Status.SKIPPED, reason
        n.save(update_fields=["status", "note"])
        return n.status
    n.attempts += 1
    gone = False
    try:
        with transaction.atomic():  # a savepoint: a failure leaves the row to update
            send(n, now)
    except Exception as error:  # whatever it is, it ends in the row
        status = error.status if isinstance(error, CallRefused) else None
        gone = status in (404, 410)
        delivery_failed(n, error, now)
        if gone:
            n.note = f"the device's subscription is gone ({status}): device removed"
    else:
        n.status, n.sent_at, n.note = Status.SENT, now, ""
        PushSubscription.objects.filter(pk=n.push_device_id).update(last_push_at=now)
    n.save(update_fields=["body_text", "attempts", "status", "note", "sent_at",
                          "next_attempt_at"])
    if gone:  # after the row's update: the row keeps its record, its device is None
        PushSubscription.objects.filter(pk=n.push_device_id).delete()
    return n.status


def fan_out(n: Notification, now: datetime,
            queue: Callable[[list[Notification]], object]) -> str:
    """Make a push row to a player's devices into one row to each of them (written
    now by ``queue``, delivered after the commit), with the words they all say,
    and mark it sent; delete it where the player has no device or has switched
    its kind off."""
    devices = list(PushSubscription.objects.filter(user_id=n.user_id).values_list(
        "pk", flat=True)) if n.user_id is not None else []
    if not devices or n.kind in kinds_off(n.user_id):
        n.delete()
        return "gone"
    said = message_words(n, now)
    queue([Notification(
        user_id=n.user_id, game_id=n.game_id, seat=n.seat, seq=n.seq, kind=n.kind,
        push_device_id=device, body_text=json.dumps(said, ensure_ascii=False),
        dedup_key=f"push:{device}:{n.pk}") for device in devices])
    n.status, n.sent_at, n.note = Status.SENT, now, f"to {len(devices)} device(s)"
    n.save(update_fields=["status", "sent_at", "note"])
    return n.status


def skip_reason(n: Notification, now: datetime) -> str:
    """Why a push to a device should not go after all, in words for the admin; ''
    to send it."""
    if n.push_device_id is None:
        return "the device was removed"
    if n.kind in kinds_off(n.user_id):
        return "the player has switched this kind of push off"
    if n.game_id is not None and PushPageOpen.objects.filter(
            device_id=n.push_device_id, game_id=n.game_id,
            seen_at__gt=now - PAGE_OPEN_FOR).exists():
        return "the game's page is open on that device"
    return ""


def send(n: Notification, now: datetime) -> None:
    """Post a push row's message to its device's push service: its words (written
    on the first attempt: a retry sends the same) with the row's delivery id,
    encrypted for the device. Raises as webhook_http.post_json does."""
    device = n.push_device
    assert device is not None
    if not n.body_text:
        n.body_text = json.dumps(message_words(n, now), ensure_ascii=False)
    data = json.dumps(payload(n), ensure_ascii=False, separators=(",", ":")).encode()
    encrypted = WebPusher({"endpoint": device.endpoint,
                           "keys": {"p256dh": device.p256dh, "auth": device.auth}}
                          ).encode(data, "aes128gcm")["body"]
    webhook_http.post_json(device.endpoint, encrypted, {
        "Content-Type": "application/octet-stream",
        "Content-Encoding": "aes128gcm",
        "TTL": str(TTL[n.kind]),
        "Urgency": "high" if n.kind in URGENT else "normal",
        **vapid_headers(device.endpoint),
    })


def delivery_id(n: Notification) -> str:
    """The id the service worker drops a repeated message by: the row's own, the
    same on every attempt."""
    return n.message_id.strip("<>")


def payload(n: Notification) -> dict[str, Any]:
    """What a push row's message says, as the service worker reads it."""
    said = json.loads(n.body_text)
    return {"id": delivery_id(n), "kind": n.kind, **said}


# ---------------------------------------------------------------- what each says


def message_words(n: Notification, now: datetime) -> dict[str, Any]:
    """A push row's title, body, the page its tap opens and its tag (a game's
    pushes replace each other on the device): what a mail of the same event shows,
    no more."""
    said = json.loads(n.body_text) if n.body_text else {}
    game = n.game
    found: dict[str, Any] = {"url": reverse("pages:my-games"), "tag": n.kind}
    if game is not None:
        found.update(url=f"/games/{game.pk}/", tag=f"game-{game.pk}", game=game.pk)
    if n.kind in (Kind.PUSH_TURN, Kind.PUSH_CLOCK, Kind.PUSH_GAME_OVER) and game is not None:
        found.update(_game_words(n, game, now))
    elif n.kind == Kind.PUSH_INVITATION:
        found.update(title="An invitation", body=n.subject, tag=f"invitation-{game.pk}"
                     if game is not None else n.kind, url=_invitation_url(n) or found["url"])
    elif n.kind == Kind.PUSH_REMATCH:
        found.update(title="A rematch", body=n.subject)
    found.update({k: v for k, v in said.items() if k in ("title", "body")})
    if n.kind == Kind.PUSH_TOURNAMENT and str(said.get("url", "")).startswith("/tournaments/"):
        found.update(url=said["url"], tag=said["url"])  # the tournament's page
    return found


def _game_words(n: Notification, game: Game, now: datetime) -> dict[str, str]:
    title = f"{rules_of(game).title} game {game.pk}"
    seats = list(Seat.objects.filter(game=game).order_by("index").values_list("index", "name"))
    others = [name for index, name in seats if index != n.seat]
    against = f"against {_and(others)}" if others else "on your own"
    if n.kind == Kind.PUSH_GAME_OVER:
        winners = [name for index, name in seats
                   if index in (game.projection or {}).get("winners", [])]
        said = f"{_and(winners)} won." if winners else "Nobody won."
        return {"title": f"{title} is over", "body": f"{said} The final standings are on "
                "the game's page."}
    clock = Clock.objects.filter(game=game, seat=n.seat).first() if n.seat is not None else None
    left = clocks.clock_remaining(clock, now) if clock is not None else None
    time_left = f"{duration_words(left)} left" if left is not None else "no time limit"
    if n.kind == Kind.PUSH_CLOCK:
        return {"title": f"{title}: {time_left}", "body": f"Your move {against}: your clock "
                "runs out after that."}
    return {"title": f"Your turn: {title}", "body": f"Your move {against}; {time_left}."}


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _invitation_url(n: Notification) -> str:
    """The invitation's own page, which only its player can take (the mail gives
    the same link); '' if it is gone."""
    _, _, number = n.dedup_key.rpartition(":")  # push:invitation:<pk>
    token = Invitation.objects.filter(pk=int(number) if number.isdigit() else 0,
                                      invitee_id=n.user_id).values_list("token",
                                                                        flat=True).first()
    return reverse("pages:invitation", args=[token]) if token else ""
