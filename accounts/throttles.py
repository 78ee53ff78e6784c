"""How often one address may sign up or ask for a token, and one player may send
invitations or start games: DRF throttles counted in the default cache (Redis in
production, so that every worker counts the same requests).

The rates are ``settings.MARRAM_THROTTLE_RATES`` ({scope: "20/hour"}, None for no
limit), read at each request so that tests can lower them. A rate's period may
carry a count ("10/15m": ten in fifteen minutes). A refusal is a 429 whose message
says what was refused and when to try again, with a Retry-After.

Addresses are those of ``web.addresses.client_address`` (X-Forwarded-For only
from the trusted proxies), an IPv6 client counted by its /64.
"""

from __future__ import annotations

import math
import re
from typing import Any

from django.conf import settings
from rest_framework import exceptions
from rest_framework.throttling import SimpleRateThrottle

from web.addresses import address_group, client_address

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
RATE = re.compile(r"(\d+)/(\d*)\s*([smhd])[a-z]*")


def parse_rate(rate: str | None) -> tuple[int | None, int | None]:
    """ "20/hour" -> (20, 3600); "10/15m" -> (10, 900); None -> no limit."""
    if rate is None:
        return None, None
    found = RATE.fullmatch(rate.strip())
    if found is None:
        raise ValueError(f"{rate!r} is not a rate: write it as 20/hour or 10/15m")
    count, periods, unit = found.groups()
    return int(count), int(periods or 1) * UNITS[unit]


def in_words(seconds: int) -> str:
    if seconds >= 90:
        return f"{round(seconds / 60)} minutes"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


class Refused(exceptions.Throttled):
    """A request over a limit: DRF's Throttled, with the seconds to wait in ``wait``
    (which DRF's own __init__ sets and its Retry-After header is made from; the
    stubs leave it out)."""

    wait: int | None


class _Throttle(SimpleRateThrottle):
    refusal = "too many requests"

    def get_rate(self) -> str | None:
        return None if self.scope is None else settings.MARRAM_THROTTLE_RATES.get(self.scope)

    def parse_rate(self, rate: str | None) -> tuple[int | None, int | None]:
        return parse_rate(rate)

    def get_ident(self, request: Any) -> str:
        # DRF's own reading trusts X-Forwarded-For from anyone (with NUM_PROXIES unset,
        # the whole header): the site reads it in one place, from its proxies only.
        return address_group(client_address(request))

    def allow_request(self, request: Any, view: Any) -> bool:
        if super().allow_request(request, view):
            return True
        # DRF's own refusal says only "Request was throttled": say what, and when
        # to try again (in words, and in the Retry-After header DRF adds from .wait).
        wait = max(math.ceil(self.wait() or 1), 1)
        refused = Refused(detail=f"{self.refusal}: try again in {in_words(wait)}")
        refused.wait = wait
        raise refused


class _PerAddress(_Throttle):
    """Counted per client address."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SignupThrottle(_PerAddress):
    scope = "signup"
    refusal = "too many accounts have been made from your address lately"


class TokenThrottle(_PerAddress):
    scope = "token"
    refusal = "too many sign-in attempts from your address lately"


class PasswordResetThrottle(_PerAddress):
    scope = "password_reset"
    refusal = "too many password resets have been asked for from your address lately"


class PasswordResetMailThrottle(_Throttle):
    """Counted per address mailed to, so that nobody can flood an inbox with reset
    mails from many client addresses."""

    scope = "password_reset_mail"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        email = str(request.POST.get("email", "")).strip().lower()
        return self.cache_format % {"scope": self.scope, "ident": email} if email else None


class _PerPlayer(_Throttle):
    """Counted per player."""

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        if not request.user.is_authenticated:
            return None  # refused anyway: only players invite or start games
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class InviteThrottle(_PerPlayer):
    scope = "invite"
    refusal = "you have sent too many invitations lately"


class GameCreateThrottle(_PerPlayer):
    scope = "game_create"
    refusal = "you have started too many games lately"


def check(throttle: type[_Throttle], request: Any) -> str | None:
    """For the pages: None if the request may go on, else the message to show."""
    try:
        throttle().allow_request(request, None)
    except exceptions.Throttled as refused:
        return str(refused.detail)
    return None
