"""Who asks, cheaply. Token authentication with a short in-process memory of the
tokens it has checked, so that a client making one move after another does not
cost a database query per request just to say who it is: a token deleted (or a
user deactivated) is refused by every process within ``TOKEN_CACHE_SECONDS``.
And a permission for polls that checks a session without reading its user.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import BasePermission, OperandHolder, SingleOperandHolder
from rest_framework.request import Request

if TYPE_CHECKING:  # rest_framework.views reads the settings, which name this module
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token
    from rest_framework.views import APIView

TOKEN_CACHE_SECONDS = getattr(settings, "TOKEN_CACHE_SECONDS", 30)
TOKEN_CACHE_SIZE = 4096
# What DRF's tokens look like (40 hex digits), loosely: anything else is refused
# without a query (PostgreSQL refuses a NUL character in one).
TOKEN_SHAPE = re.compile(r"[0-9A-Za-z]{1,40}")


class CachedTokenAuthentication(TokenAuthentication):
    _seen: OrderedDict[str, tuple[float, tuple[User, Token]]] = OrderedDict()
    _lock = threading.Lock()

    def authenticate_credentials(self, key: str) -> tuple[User, Token]:
        if not TOKEN_SHAPE.fullmatch(key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        now = time.monotonic()
        with self._lock:
            hit = self._seen.get(key)
        if hit is not None and now - hit[0] < TOKEN_CACHE_SECONDS:
            return hit[1]
        answer = super().authenticate_credentials(key)  # AuthenticationFailed if bad
        with self._lock:
            self._seen[key] = (now, answer)
            self._seen.move_to_end(key)
            while len(self._seen) > TOKEN_CACHE_SIZE:
                self._seen.popitem(last=False)
        return answer

    @classmethod
    def forget_all(cls) -> None:
        with cls._lock:
            cls._seen.clear()


class SignedIn(BasePermission):
    """Signed in, as DRF's IsAuthenticated, but a session is asked only whether it
    holds a user, not for the user's row: a view that takes this permission (and
    authenticates lazily, see ``LazyAuthentication``) can answer what any player
    may read without two more queries. Whatever depends on who asks must get the
    user from ``signed_in_user``, which makes the full check (a session whose
    user changed their password or was deactivated fails it there)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        # DRF's Request answers for its HttpRequest's attributes (session, META)
        session = getattr(request, "session", None)
        if session is None or request.META.get("HTTP_AUTHORIZATION"):
            return bool(request.user and request.user.is_authenticated)
        return SESSION_KEY in session


class LazyAuthentication:
    """A view mixin: authenticate when ``request.user`` is first read, not
    before the view runs (DRF's documented way: a ``perform_authentication``
    that does nothing)."""

    # as APIView declares it (DRF's stubs): classes, or classes joined by & | ~
    permission_classes: Sequence[
        type[BasePermission] | OperandHolder | SingleOperandHolder] = [SignedIn]

    def perform_authentication(self, request: Request) -> None:
        pass


def signed_in_user(request: Request) -> User:
    """The user who asks, fully checked; NotAuthenticated if nobody is signed in."""
    user = request.user
    if not user or not user.is_authenticated:
        raise exceptions.NotAuthenticated()
    return user


def page_user(request: HttpRequest) -> User:
    """The user of a page's request that ``login_required`` let through;
    PermissionDenied (a 403) for a request that nobody signed in made."""
    user = request.user
    if not user.is_authenticated:
        raise PermissionDenied("sign in first")
    return user
