"""Signed addresses and links in the mail we send.

A reply address is bound to one game, one seat and one seq:
``move+<game>.<seat>.<seq>.<sig>@<REPLY_DOMAIN>``, where ``sig`` is an HMAC of
those three numbers under the site's secret key, cut to 20 hex digits (80 bits:
guessing one is hopeless). Only the player it was mailed to can know it; a
reply to it can make the move due at that seq and nothing else.

Unsubscribe links carry a TimestampSigner token of the user's id, so they work
without signing in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

REPLY_SALT = "marram.notifications.reply"
UNSUBSCRIBE_SALT = "marram.notifications.unsubscribe"
SIGNATURE_LENGTH = 20
# Old mails keep working for a year; a link older than that asks the player to sign in.
UNSUBSCRIBE_MAX_AGE = 60 * 60 * 24 * 366

_LOCAL_PART = re.compile(r"^move\+(\d+)\.(\d+)\.(\d+)\.([0-9a-f]+)$", re.I)


@dataclass(frozen=True)
class ReplyAddress:
    game_id: int
    seat: int
    seq: int


class BadAddress(ValueError):
    """Not one of our reply addresses, or one whose signature does not match."""

    def __init__(self, message: str, *, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _signature(game_id: int, seat: int, seq: int) -> str:
    value = f"{game_id}.{seat}.{seq}"
    return salted_hmac(REPLY_SALT, value, algorithm="sha256").hexdigest()[:SIGNATURE_LENGTH]


def reply_address(game_id: int, seat: int, seq: int) -> str:
    sig = _signature(game_id, seat, seq)
    return f"move+{game_id}.{seat}.{seq}.{sig}@{settings.REPLY_DOMAIN}"


def is_reply_address(address: str) -> bool:
    """Whether the address looks like one of ours (signed or not)."""
    local, _, domain = address.strip().rpartition("@")
    return domain.lower() == settings.REPLY_DOMAIN.lower() and local.lower().startswith("move+")


def reply_address_read(address: str) -> ReplyAddress:
    """The game, seat and seq a reply address is bound to; BadAddress if it is not
    ours or its signature does not match."""
    local, _, domain = address.strip().strip("<>").rpartition("@")
    if domain.lower() != settings.REPLY_DOMAIN.lower():
        raise BadAddress(f"{address} is not a reply address of this server", code="not_ours")
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
