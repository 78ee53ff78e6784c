"""Signed addresses and links in the mail we send.

A reply address is bound to one game, one seat and one seq:
``move+<game>.<seat>.<seq>.<sig>@<REPLY_DOMAIN>``, where ``sig`` is an HMAC of
those three numbers under the site's secret key, cut to 20 hex digits (80 bits:
guessing one is hopeless). Only the player it was mailed to can know it; a
reply to it can make the move due at that seq and nothing else.

A mail that asks for no move (the game has begun, the game is over) has a
reply address for one command of ``MARRAM_MAIL_COMMANDS`` instead:
``say+<game>.<seat>.<sig>@<REPLY_DOMAIN>``, whose reply's first line is taken
as that command's (``say``: posted to the game's chat) whatever it starts with.

Two more kinds of address at REPLY_DOMAIN are ours, neither a reply address:

- the return path (envelope sender) of each mail, ``bounce+<id>.<sig>@``: the
  outbox row's id, signed together with the address the mail was sent to, so a
  bounce names the mail and the address that bounced (notifications.bounces);
- the ``mailto:`` of List-Unsubscribe, ``unsubscribe+<user>.<sig>@``: any mail
  to it turns the user's mail off (RFC 2369, beside RFC 8058's one-click URL).

Signatures are lower-case hex, as a mail server may change the case of a local
part. Unsubscribe links carry a TimestampSigner token of the user's id, so they
work without signing in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

REPLY_SALT = "marram.notifications.reply"
BOUNCE_SALT = "marram.notifications.bounce"
UNSUBSCRIBE_SALT = "marram.notifications.unsubscribe"
SIGNATURE_LENGTH = 20
# Old mails keep working for a year; a link older than that asks the player to sign in.
UNSUBSCRIBE_MAX_AGE = 60 * 60 * 24 * 366

_LOCAL_PART = re.compile(r"^move\+(\d+)\.(\d+)\.(\d+)\.([0-9a-f]+)$", re.I)
_COMMAND_PART = re.compile(r"^([a-z]+)\+(\d+)\.(\d+)\.([0-9a-f]+)$", re.I)
_BOUNCE_PART = re.compile(r"^bounce\+(\d+)\.([0-9a-f]+)$", re.I)
_UNSUBSCRIBE_PART = re.compile(r"^unsubscribe\+(\d+)\.([0-9a-f]+)$", re.I)


@dataclass(frozen=True)
class ReplyAddress:
    game_id: int
    seat: int
    seq: int
    command: str = ""
    """The one command a reply to it is taken as ('say'); '' for a move address."""


class BadAddress(ValueError):
    """Not one of our reply addresses, or one whose signature does not match."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _signature(game_id: int, seat: int, seq: int) -> str:
    value = f"{game_id}.{seat}.{seq}"
    return salted_hmac(REPLY_SALT, value, algorithm="sha256").hexdigest()[:SIGNATURE_LENGTH]


def _hex(salt: str, value: str) -> str:
    return salted_hmac(salt, value, algorithm="sha256").hexdigest()[:SIGNATURE_LENGTH]


def reply_address(game_id: int, seat: int, seq: int) -> str:
    sig = _signature(game_id, seat, seq)
    return f"move+{game_id}.{seat}.{seq}.{sig}@{settings.REPLY_DOMAIN}"


def command_address(game_id: int, seat: int, command: str = "say") -> str:
    """The address of a mail that asks for no move: a reply to it is the command
    ``command`` of MARRAM_MAIL_COMMANDS ("say": the game's chat)."""
    if command not in settings.MARRAM_MAIL_COMMANDS or not command.isalpha():
        raise ValueError(f"{command!r} is not a mail command")
    sig = _hex(REPLY_SALT, f"{command.lower()}:{game_id}.{seat}")
    return f"{command.lower()}+{game_id}.{seat}.{sig}@{settings.REPLY_DOMAIN}"


def _local_part_at_reply_domain(address: str) -> str | None:
    local, _, domain = address.strip().strip("<>").rpartition("@")
    return local.lower() if domain.lower() == settings.REPLY_DOMAIN.lower() else None


def is_reply_address(address: str) -> bool:
    """Whether the address looks like one of ours (signed or not): a move's, or
    a command's (``say+``)."""
    local = _local_part_at_reply_domain(address)
    if local is None:
        return False
    prefix = local.partition("+")[0]
    return local.startswith("move+") or ("+" in local and prefix in
                                         settings.MARRAM_MAIL_COMMANDS)


def bounce_address(notification_id: int, recipient: str) -> str:
    """The return path of one mail of the outbox to ``recipient``."""
    sig = _hex(BOUNCE_SALT, f"{notification_id}:{recipient.strip().lower()}")
    return f"bounce+{notification_id}.{sig}@{settings.REPLY_DOMAIN}"


def bounce_id(address: str) -> int | None:
    """The outbox row a return path names, its signature not checked yet (see
    ``bounce_address_read``); None if it is not a return path's form."""
    match = _BOUNCE_PART.match(_local_part_at_reply_domain(address) or "")
    return int(match.group(1)) if match is not None else None


def bounce_address_read(address: str, candidates: list[str]) -> tuple[int, str] | None:
    """The outbox row a return path names and which of ``candidates`` (the
    addresses it may have been sent to) it was signed for; None if it is not a
    return path of ours or none of them matches its signature."""
    local = _local_part_at_reply_domain(address)
    match = _BOUNCE_PART.match(local or "")
    if match is None:
        return None
    notification_id = int(match.group(1))
    for candidate in candidates:
        if candidate and constant_time_compare(match.group(2), _hex(
                BOUNCE_SALT, f"{notification_id}:{candidate.strip().lower()}")):
            return notification_id, candidate.strip().lower()
    return None


def unsubscribe_address(user_id: int) -> str:
    """List-Unsubscribe's ``mailto:`` address for the user."""
    sig = _hex(UNSUBSCRIBE_SALT, str(user_id))
    return f"unsubscribe+{user_id}.{sig}@{settings.REPLY_DOMAIN}"


def unsubscribe_address_read(address: str) -> int | None:
    """The user id of a valid unsubscribe address, or None."""
    match = _UNSUBSCRIBE_PART.match(_local_part_at_reply_domain(address) or "")
    if match is None or not constant_time_compare(
            match.group(2), _hex(UNSUBSCRIBE_SALT, match.group(1))):
        return None
    return int(match.group(1))


def is_return_address(address: str) -> bool:
    """Whether the address is one of our own that is not a reply address: a
    return path (bounces) or an unsubscribe address (signed or not)."""
    local = _local_part_at_reply_domain(address) or ""
    return local.startswith(("bounce+", "unsubscribe+"))


def reply_address_read(address: str) -> ReplyAddress:
    """The game, seat and seq a reply address is bound to; BadAddress if it is not
    ours or its signature does not match."""
    local, _, domain = address.strip().strip("<>").rpartition("@")
    if domain.lower() != settings.REPLY_DOMAIN.lower():
        raise BadAddress(f"{address} is not a reply address of this server", code="not_ours")
    command = _COMMAND_PART.match(local)
    if command is not None and command.group(1).lower() in settings.MARRAM_MAIL_COMMANDS:
        word, game_id, seat = command.group(1).lower(), int(command.group(2)), \
            int(command.group(3))
        if not constant_time_compare(command.group(4).lower(),
                                     _hex(REPLY_SALT, f"{word}:{game_id}.{seat}")):
            raise BadAddress(
                "the reply address has been altered (its signature does not match), so it "
                "cannot be used", code="bad_signature")
        return ReplyAddress(game_id, seat, 0, command=word)
    match = _LOCAL_PART.match(local)
    if match is None:
        raise BadAddress(
            f"{address} is not a reply address this server writes", code="bad_address"
        )
    game_id, seat, seq = (int(match.group(i)) for i in (1, 2, 3))
    if not constant_time_compare(match.group(4).lower(), _signature(game_id, seat, seq)):
        raise BadAddress(
            "the reply address has been altered (its signature does not match), so it "
            "cannot be used to play",
            code="bad_signature",
        )
    return ReplyAddress(game_id, seat, seq)


def unsubscribe_token(user_id: int) -> str:
    return signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).sign(str(user_id))


def unsubscribe_token_read(token: str) -> int | None:
    """The user id in a valid token, or None."""
    try:
        value = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).unsign(
            token, max_age=UNSUBSCRIBE_MAX_AGE
        )
    except signing.BadSignature:  # SignatureExpired is a BadSignature too
        return None
    return int(value) if value.isdigit() else None
