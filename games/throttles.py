"""How often one address may sign up or ask for a token, and one player may send
invitations or start games: DRF throttles counted in the default cache (Redis in
production, so that every worker counts the same requests).

The rates are ``settings.MARRAM_THROTTLE_RATES`` ({scope: "20/hour"}, None for no
limit), read at each request so that tests can lower them. A refusal is a 429
whose message says what was refused and when to try again, with a Retry-After.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from rest_framework import exceptions
from rest_framework.throttling import SimpleRateThrottle


def _in_words(seconds: int) -> str:
    if seconds >= 90:
        return f"{round(seconds / 60)} minutes"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


class _Throttle(SimpleRateThrottle):
    refusal = "too many requests"

    def get_rate(self) -> str | None:
        return settings.MARRAM_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        if super().allow_request(request, view):
            return True
        # DRF's own refusal says only "Request was throttled": say what, and when
        # to try again (in words, and in the Retry-After header DRF adds from .wait).
        wait = max(math.ceil(self.wait() or 1), 1)
        refused = exceptions.Throttled(detail=f"{self.refusal}: try again in {_in_words(wait)}")
        refused.wait = wait
        raise refused


class _PerAddress(_Throttle):
    """Counted per client address (behind proxies: see REST_FRAMEWORK NUM_PROXIES)."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SignupThrottle(_PerAddress):
    scope = "signup"
    refusal = "too many accounts have been made from your address lately"


class TokenThrottle(_PerAddress):
    scope = "token"
    refusal = "too many sign-in attempts from your address lately"


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
