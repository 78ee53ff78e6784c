"""Reading what clients send, within bounds.

JSON, wherever it comes in (the API's bodies, the mail webhook, JSON in a query
string), is read by ``json_parse``: at most so many bytes, nested at most
``MAX_DEPTH`` deep, and with no NUL character in any string (PostgreSQL stores
none, in text or in jsonb). Each limit crossed is a 4xx ``{"code", "message"}``
that names it: ``too_large`` (413 for a body), ``too_deep``, ``nul_character``,
``malformed_json``.

Page forms are read by views wrapped in ``form_post``: a form (415 otherwise),
holding only the fields the page has, none with a NUL or longer than
``MAX_FORM_VALUE`` characters (400 otherwise, on a page that says why).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

import orjson
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponseBase
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render

from web.errors import Invalid, ServiceError

MAX_DEPTH = 32
"""Arrays and objects inside one another: a game record, the deepest document the
API takes, needs 5."""
MAX_QUERY_JSON = 2048
"""Characters of JSON in a query-string parameter (a move is under 150)."""
MAX_FORM_VALUE = 25_000
"""Characters in one field of a page's form: above each form's own limit (a reply
on the mail page, 20,000, is the longest), which says it first."""


class TooLarge(ServiceError):
    status = 413
    code = "too_large"


def _refused(code: str, message: str, field: str | None) -> Invalid:
    return Invalid(message, code=code, **({"field": field} if field else {}))


def json_parse(raw: bytes | str, *, field: str | None = None, limit: int | None = None) -> Any:
    """The JSON document in ``raw`` (a body, or the query-string parameter ``field``),
    or a ServiceError naming the limit it crosses. A body over ``limit`` bytes is a
    413; a parameter over its limit a 400."""
    what = f"'{field}'" if field else "the body"
    if limit is not None and len(raw) > limit:
        if field:
            raise _refused("too_large", f"{what} is over {limit} characters", field)
        raise TooLarge(f"{what} is over {limit} bytes")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        if "depth" in str(e):  # orjson's own limit, far above ours
            raise _refused("too_deep", _too_deep(what), field) from None
        raise _refused("malformed_json", f"{what} is not valid JSON: {e}", field) from None
    _check(data, what, field)
    return data


def _too_deep(what: str) -> str:
    return f"{what} nests arrays and objects more than {MAX_DEPTH} deep"


def _check(data: Any, what: str, field: str | None) -> None:
    """Depth and NUL characters, walked without recursion."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise _refused("nul_character", f"{what} holds a NUL character (\\u0000): "
                               "no field takes one", field)
        elif isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                raise _refused("too_deep", _too_deep(what), field)
            if isinstance(value, dict):
                stack.extend((key, depth) for key in value)
                stack.extend((item, depth + 1) for item in value.values())
            else:
                stack.extend((item, depth + 1) for item in value)


# ---------------------------------------------------------------- page forms

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _form_problem(request: HttpRequest, fields: frozenset[str]) -> tuple[int, str] | None:
    """Why a page's POST is not a form this page takes, with the status to answer."""
    has_body = request.META.get("CONTENT_LENGTH") not in (None, "", "0")
    if has_body and request.content_type not in FORM_TYPES:
        return 415, (f"this page takes a form ({' or '.join(FORM_TYPES)}), "
                     f"not {request.content_type or 'a body without a type'}")
    try:
        posted, files = request.POST, request.FILES
    except RequestDataTooBig:
        return 413, f"the form is over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes"
    except TooManyFieldsSent:
        return 400, "the form has too many fields"
    except MultiPartParserError as e:
        return 400, f"the form cannot be read: {e}"
    unknown = sorted((set(posted) | set(files)) - fields)
    if unknown:
        names = ", ".join(repr(name[:40]) for name in unknown[:5])
        return 400, f"this form has no field {names}"
    for name, values in posted.lists():
        for value in values:
            if "\x00" in value:
                return 400, f"the field {name!r} holds a NUL character"
            if len(value) > MAX_FORM_VALUE:
                return 400, f"the field {name!r} is over {MAX_FORM_VALUE} characters"
    return None


def form_post(*fields: str, more: Callable[[], Iterable[str]] | None = None
              ) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """A page view whose POST is a form with these fields (and the CSRF token, and
    those ``more()`` names when the request comes: the lobby's depend on the games
    registered) at most; anything else is answered with a page saying what is
    wrong, before the view runs, so nothing changes."""
    fixed = frozenset({"csrfmiddlewaretoken", *fields})

    def decorate(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method == "POST":
                allowed = fixed if more is None else fixed | frozenset(more())
                problem = _form_problem(request, allowed)
                if problem is not None:
                    status, message = problem
                    return render(request, "games/refused.html",
                                  {"message": message[:1].upper() + message[1:] + "."},
                                  status=status)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
