"""Password hashing that cannot be turned against the server.

A password hash costs a third of a second of CPU by design, so unlimited checks
are a way to keep the server busy. The site's hashers are Django's own (the same
algorithm names, so stored hashes are unchanged) with three guards:

- every check made for a request is counted and refused once over the limits,
  before hashing (``accounts.signin``);
- at most ``MARRAM_PASSWORD_HASHING_SLOTS`` hashes run at once in a process; a
  request that cannot get a slot within ``MARRAM_PASSWORD_HASHING_WAIT`` seconds
  (none by default: a thread kept waiting is a thread that serves nobody else)
  is answered 503 with Retry-After;
- passwords longer than ``MAX_PASSWORD_LENGTH`` are never hashed: a check fails,
  and ``MaximumLengthValidator`` refuses to set one.

``PASSWORD_HASHERS`` must list only these classes; a system check says so.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.contrib.auth import hashers
from django.core import checks
from django.core.exceptions import ValidationError
from django.utils.module_loading import import_string

from accounts import signin
from web.errors import TryLater

MAX_PASSWORD_LENGTH = 1024

_slots_lock = threading.Lock()
_slots: tuple[int, threading.BoundedSemaphore] | None = None
_held = threading.local()  # how deep this thread is in hashing (verify calls encode)


def _semaphore() -> threading.BoundedSemaphore:
    global _slots
    size = settings.MARRAM_PASSWORD_HASHING_SLOTS
    with _slots_lock:
        if _slots is None or _slots[0] != size:
            _slots = (size, threading.BoundedSemaphore(size))
        return _slots[1]


@contextmanager
def hashing_slot() -> Iterator[None]:
    """Hold one of the process's hashing slots, or raise a 503 TryLater."""
    if getattr(_held, "depth", 0):
        _held.depth += 1
        try:
            yield
        finally:
            _held.depth -= 1
        return
    slots = _semaphore()
    if not slots.acquire(timeout=settings.MARRAM_PASSWORD_HASHING_WAIT):
        raise TryLater("the server is busy checking other passwords: try again in a moment",
                       retry_after=1, status=503, code="busy")
    _held.depth = 1
    try:
        yield
    finally:
        _held.depth = 0
        slots.release()


class _Guarded(hashers.BasePasswordHasher):
    """Mixed into a Django hasher (before it: ``class X(_Guarded, hashers.X)``):
    checks counted and bounded, hashing bounded."""

    def verify(self, password: str, encoded: str) -> bool:
        def check() -> bool:
            if len(password) > MAX_PASSWORD_LENGTH:
                return False
            with hashing_slot():
                return bool(super(_Guarded, self).verify(password, encoded))

        return signin.checked(check)

    def encode(self, password: str, salt: str, *args: Any, **kwargs: Any) -> str:
        with hashing_slot():
            return str(super().encode(password, salt, *args, **kwargs))


class PBKDF2PasswordHasher(_Guarded, hashers.PBKDF2PasswordHasher):
    pass


class PBKDF2SHA1PasswordHasher(_Guarded, hashers.PBKDF2SHA1PasswordHasher):
    pass


class Argon2PasswordHasher(_Guarded, hashers.Argon2PasswordHasher):
    pass


class BCryptSHA256PasswordHasher(_Guarded, hashers.BCryptSHA256PasswordHasher):
    pass


# django-stubs 5.2.9 has no ScryptPasswordHasher, which Django has had since 4.0
class ScryptPasswordHasher(_Guarded, hashers.ScryptPasswordHasher):  # type: ignore[name-defined,misc]
    pass


class MD5PasswordHasher(_Guarded, hashers.MD5PasswordHasher):
    """Fast and weak: for the tests, which make many users."""


class MaximumLengthValidator:
    """Refuses a password too long ever to be checked."""

    def validate(self, password: str, user: Any = None) -> None:
        if len(password) > MAX_PASSWORD_LENGTH:
            raise ValidationError(
                f"This password is too long: use at most {MAX_PASSWORD_LENGTH} characters.",
                code="password_too_long")

    def get_help_text(self) -> str:
        return f"Your password must contain at most {MAX_PASSWORD_LENGTH} characters."


@checks.register(checks.Tags.security)
def hashers_guarded(**kwargs: Any) -> list[checks.CheckMessage]:
    unguarded = [path for path in settings.PASSWORD_HASHERS
                 if not issubclass(import_string(path), _Guarded)]
    return [checks.Error(
        f"{path} hashes passwords without the site's limits",
        hint="list the hashers of accounts.passwords in PASSWORD_HASHERS", id="games.E001")
        for path in unguarded]
