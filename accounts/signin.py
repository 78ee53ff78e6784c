"""Limits on guessing passwords: every password check made for a request counts
against the client's address and the account, and while either is over its limit
no password is checked at all (refused before any hashing) and the answer is a
429 that says when to try again, with Retry-After.

Two hooks cover every way in, present or future:

- ``ThrottledModelBackend`` wraps ``authenticate()``: the sign-in page, the
  admin's, the browsable API's and the API token endpoint. It counts against the
  name typed, whether or not such an account exists (so a refusal tells nothing
  about which names exist), and before Django's hashing of a dummy password for
  an unknown name.
- The password hashers (``accounts.passwords``) check any other password check made
  during a request, such as a form's "your current password", against the
  signed-in account. ``SigninMiddleware`` tells them which request that is, and
  turns a refusal into a page.

A check that succeeds gives its count back: only failures use up the limit. The
counts live in the cache, in fixed windows (``MARRAM_THROTTLE_RATES``
``signin_address`` and ``signin_account``); each count is one atomic increment,
taken before the check, so clients guessing at once cannot slip in more tries
between reading and writing a count.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import math
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from accounts.throttles import in_words, parse_rate
from web.addresses import address_group, client_address
from web.errors import TryLater

REFUSALS = {
    "signin_address": "too many failed sign-ins from your address lately",
    "signin_account": "too many failed sign-ins to this account lately",
}

_request: contextvars.ContextVar[HttpRequest | None] = contextvars.ContextVar(
    "marram_signin_request", default=None)
# Set while ThrottledModelBackend has counted the check under way.
_counted: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "marram_signin_counted", default=False)


def _count(key: str, timeout: int) -> int:
    cache.add(key, 0, timeout)
    try:
        return cache.incr(key)
    except ValueError:  # expired (or the cache lost it) between the two calls
        cache.add(key, 0, timeout)
        return cache.incr(key)


class SigninAttempt:
    """One password check on behalf of ``request`` (or of no request: then only the
    account counts), for ``account`` (a username, or None when unknown). Entering
    takes a count from each limit, or raises TryLater; ``succeeded()`` gives them
    back; leaving on an error (the check was never made) gives them back too."""

    def __init__(self, request: Any, account: str | None) -> None:
        self.idents = {
            "signin_address": address_group(client_address(request)) if request else None,
            "signin_account": account,
        }
        self.taken: list[str] = []

    def __enter__(self) -> SigninAttempt:
        now = time.time()
        for scope, ident in self.idents.items():
            limit, period = parse_rate(settings.MARRAM_THROTTLE_RATES.get(scope))
            if ident is None or limit is None or period is None:
                continue
            digest = hashlib.sha256(ident.encode()).hexdigest()[:32]
            key = f"signin:{scope}:{digest}:{int(now // period)}"
            left = math.ceil(period - now % period)
            self.taken.append(key)
            if _count(key, left + 1) > limit:
                raise TryLater(f"{REFUSALS[scope]}: try again in {in_words(left)}",
                               retry_after=left)
        return self

    def succeeded(self) -> None:
        for key in self.taken:
            with contextlib.suppress(ValueError):  # the window is over: nothing to give back
                cache.decr(key)
        self.taken = []

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if error is not None:
            self.succeeded()  # not a wrong password: the check was not made (too busy)


def checked(check: Callable[[], bool]) -> bool:
    """Run a password check (for the hashers), counted unless the backend counts it
    already or no request is under way (a management command, a task)."""
    request = _request.get()
    if _counted.get() or request is None:
        return check()
    user = getattr(request, "user", None)
    account = user.get_username() if user is not None and user.is_authenticated else None
    with SigninAttempt(request, account) as attempt:
        ok = check()
        if ok:
            attempt.succeeded()
        return ok


class ThrottledModelBackend(ModelBackend):
    """Django's ModelBackend, each attempt counted before any password is hashed."""

    def authenticate(self, request: Any, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        with SigninAttempt(request, str(username)) as attempt:
            counted = _counted.set(True)
            try:
                user = super().authenticate(request, username, password, **kwargs)
            finally:
                _counted.reset(counted)
            if user is not None:
                attempt.succeeded()
            return user


def refusal_page(request: HttpRequest, refused: TryLater) -> HttpResponse:
    """A refusal as a page (or as JSON for a client that does not take HTML)."""
    if request.accepts("text/html"):
        message = refused.message[:1].upper() + refused.message[1:] + "."
        answer: HttpResponse = render(request, "games/try_later.html", {
            "message": message, "again": request.get_full_path()}, status=refused.status)
    else:
        answer = JsonResponse(refused.as_dict(), status=refused.status)
    answer["Retry-After"] = str(refused.retry_after)
    return answer


class SigninMiddleware:
    """Lets the password hashers know the request they check passwords for, and
    answers a TryLater that no view caught (a form's password check) with a page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _request.set(request)
        try:
            return self.get_response(request)
        finally:
            _request.reset(token)

    def process_exception(self, request: HttpRequest, exception: Exception
                          ) -> HttpResponse | None:
        if isinstance(exception, TryLater):
            return refusal_page(request, exception)
        return None
