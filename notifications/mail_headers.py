"""The headers that keep a game's mail together in one conversation, name the
site's mail as a list and name the reply address.

A game's mails share a ``References`` root, ``<game-<id>@REPLY_DOMAIN>``, and a
subject stem ("Marram game 12", ``emails.subject_stem``): Thunderbird, Apple
Mail and the others that thread by References put them in one conversation.
Outlook and Exchange group by ``Thread-Topic`` (the stem alone) and
``Thread-Index`` (MS-OXOMSG 2.2.1.3): a header block made from the game, the
same in each of its mails, then one child block for the mail's own time, so
every mail of the game is a reply in the game's conversation there too. Gmail
groups mails whose subject is the same up to a "Re:", and which reference
one another: a game's turn mails ("...: your move") and the answers to the
replies to them are one conversation there.

An answer to a reply references the mail the player replied to (its own
Message-ID, found by the reply address it came to) as well as the reply.
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from email.header import Header
from email.utils import formataddr

from django.conf import settings

from games.models import Game
from notifications import emails, signing
from notifications.models import InboundMail, Notification

_FILETIME_EPOCH = datetime(1601, 1, 1, tzinfo=UTC)
_LABEL = re.compile(r"[^a-z0-9-]+")


def game_root(game_id: int) -> str:
    """The Message-ID every mail of the game references."""
    return f"<game-{game_id}@{settings.REPLY_DOMAIN}>"


def _filetime(moment: datetime) -> int:
    """Windows' FILETIME: 100 ns since 1601."""
    delta = moment.astimezone(UTC) - _FILETIME_EPOCH
    return (delta.days * 86_400 + delta.seconds) * 10_000_000 + delta.microseconds * 10


def thread_index(game: Game, now: datetime) -> str:
    """Outlook's Thread-Index for a mail of the game sent at ``now``: the game's
    header block (its creation time, a GUID made from the game and the site),
    then a child block of the time since (MS-OXOMSG 2.2.1.3)."""
    import base64

    started = _filetime(game.created_at) >> 16 << 16  # what the header block keeps
    guid = hashlib.sha256(f"{settings.REPLY_DOMAIN}:game:{game.pk}".encode()).digest()[:16]
    header = (started >> 16).to_bytes(6, "big") + guid
    delta = max(_filetime(now) - started, 0)
    if delta < 1 << 49:
        code, bits = 0, (delta >> 18) & 0x7FFFFFFF
    else:
        code, bits = 1, (delta >> 23) & 0x7FFFFFFF
    child = ((code << 31) | bits).to_bytes(4, "big") + bytes([hashlib.sha256(
        f"{game.pk}:{delta}".encode()).digest()[0] & 0xF0])
    return base64.b64encode(header + child).decode("ascii")


def thread_headers(game: Game, now: datetime) -> dict[str, str]:
    """The headers that keep the game's mail in one conversation."""
    return {"References": game_root(game.pk), "Thread-Topic": emails.subject_stem(game),
            "Thread-Index": thread_index(game, now)}


def list_id() -> str:
    """List-Id (RFC 2919): the site's name, and an id of the site's own,
    ``<label.REPLY_DOMAIN>``, by which a player can filter its mail."""
    name = settings.MARRAM_SITE_NAME
    label = _LABEL.sub("-", name.lower()).strip("-")[:40] or "games"
    phrase = name if name.isascii() else Header(name, "utf-8").encode()
    if phrase.isascii() and re.search(r'[()<>\[\]:;@\\,."]', phrase):
        phrase = '"' + phrase.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{phrase} <{label}.{settings.REPLY_DOMAIN}>"


def reply_to_header(n: Notification) -> str:
    """Reply-To with a name a player can tell apart in their address book:
    "Marram game 12" for a move, "Marram game 12 chat" for the game's chat."""
    try:
        bound = signing.reply_address_read(n.reply_to)
    except signing.BadAddress:
        return n.reply_to
    name = emails.subject_stem(n.game) if n.game is not None else settings.MARRAM_SITE_NAME
    if bound.command == "say":
        name += " chat"
    return formataddr((name, n.reply_to))


def answered_message_id(n: Notification) -> str:
    """The Message-ID of our mail whose reply ``n`` answers: the latest mail to
    the player whose reply address the reply came to; '' if none is known."""
    if not (n.in_reply_to and n.game_id and n.user_id):
        return ""
    reply = InboundMail.objects.filter(message_id=n.in_reply_to).only("recipient").first()
    if reply is None or not reply.recipient:
        return ""
    found = (Notification.objects.filter(user_id=n.user_id, game_id=n.game_id,
                                         reply_to__iexact=reply.recipient)
             .exclude(pk=n.pk).order_by("-pk").values_list("message_id", flat=True).first())
    return found or ""
