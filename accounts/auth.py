"""Who asks, cheaply. Token authentication with a short in-process memory of the
tokens it has checked, so that a client making one move after another does not
cost a database query per request just to say who it is: a token deleted (or a
user deactivated) is refused by every process within ``TOKEN_CACHE_SECONDS``.
And a permission for polls that checks a session without reading its user.

A token not remembered is read with its user in one statement written out here
(``token_with_user``), DRF's own query (``select_related('user').get(key=...)``)
without the ORM's building of it, which cost 620 us of CPU against 107: a
player coming back to a game after half a minute, as most players of a
correspondence game do, is such a request (benchmarks/move_bench.py --cold;
docs/performance.md). Its SQL is made from the models' ``_meta`` and its rows
become instances as the ORM makes them (``Model.from_db``, after the backend's
and the fields' converters), so a field added to either model is read with no
change here.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.core.exceptions import PermissionDenied
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
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


@functools.cache
def _token_read_text(alias: str) -> str:
    """The token of a key with its user: every column of both tables."""
    connection = connections[alias]
    tokens, users = TokenAuthentication().get_model(), get_user_model()

    def q(name: str) -> str:
        return str(connection.ops.quote_name(name))

    def columns(model: type[Model], alias: str) -> list[str]:
        return [f"{alias}.{q(f.column)}" for f in model._meta.concrete_fields]

    key, user = tokens._meta.pk, tokens._meta.get_field("user")
    assert key is not None and user.concrete
    return (f"SELECT {', '.join(columns(tokens, 't') + columns(users, 'u'))} "
            f"FROM {q(tokens._meta.db_table)} t JOIN {q(users._meta.db_table)} u "
            f"ON u.{q(str(users._meta.pk.column))} = t.{q(str(user.column))} "
            f"WHERE t.{q(key.column)} = %s")


class _Converters(threading.local):
    """Each thread's converters by model and database, bound (as Django's
    connections are) to the thread's own connection."""

    def __init__(self) -> None:
        self.made: dict[tuple[type[Model], str], list[tuple[int, Any, Any]]] = {}


_converters = _Converters()


def _loaded(model: type[Model], row: Sequence[Any], connection: Any) -> Model:
    """The model's instance from its columns in ``row``, as the ORM loads one
    (the backend's converters, then the field's own ``from_db_value``)."""
    fields = model._meta.concrete_fields
    convert = _converters.made.get((model, connection.alias))
    if convert is None:
        convert = []
        for i, f in enumerate(fields):
            expression = f.get_col(model._meta.db_table)
            # Field.get_db_converters: the field's from_db_value, as the compiler
            # applies it (django-stubs leaves it out)
            own = f.get_db_converters(connection)  # type: ignore[attr-defined]
            convert += [(i, expression, c)
                        for c in connection.ops.get_db_converters(expression) + own]
        _converters.made[model, connection.alias] = convert
    values = list(row)
    for i, expression, converter in convert:
        values[i] = converter(values[i], expression, connection)
    return model.from_db(connection.alias, [f.attname for f in fields], values)


def token_with_user(key: str) -> tuple[User, Token] | None:
    """The token of that key and its user (``token.user``), or None: DRF's
    TokenAuthentication's read in one statement written out."""
    connection = connections[DEFAULT_DB_ALIAS]
    tokens, users = TokenAuthentication().get_model(), get_user_model()
    with connection.cursor() as cursor:
        cursor.execute(_token_read_text(connection.alias), [key])
        row = cursor.fetchone()
    if row is None:
        return None
    width = len(tokens._meta.concrete_fields)
    token = _loaded(tokens, row[:width], connection)
    user = _loaded(users, row[width:], connection)
    token.user = user  # type: ignore[attr-defined]
    return cast("User", user), cast("Token", token)


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
        answer = token_with_user(key)
        if answer is None:  # DRF's words for each refusal
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not answer[0].is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
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
