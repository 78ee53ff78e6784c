"""How the API reads bodies and answers errors, wired in by REST_FRAMEWORK settings.

Kept apart from the views: DRF imports these while its own views module loads.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import IO, Any

import orjson
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, renderers, status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import JSONParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils import encoders

from engine.errors import IllegalAction
from live.changes import CHANGES_FROM, state_changes
from web.bodies import json_parse
from web.errors import ServiceError, TryLater


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    default_detail = "the request body is too large"


def body_too_large() -> str:
    """The 413's message, as nginx words its own (deploy/nginx/)."""
    return f"the request body is over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024} KiB"


class BoundedJSONParser(JSONParser):
    """JSON read by web.bodies.json_parse, refused with a 413 beyond
    DATA_UPLOAD_MAX_MEMORY_SIZE (which Django applies to forms but not to a body
    read as a stream)."""

    def parse(self, stream: IO[Any], media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:  # any JSON document
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        too_large = RequestTooLarge(body_too_large())
        try:
            if declared and int(declared) > limit:
                raise too_large
        except ValueError:
            pass
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise too_large
        return json_parse(raw)  # depth and NUL characters bounded too


_fallback = encoders.JSONEncoder()


def json_bytes(data: Any) -> bytes:
    """``data`` encoded as the API's answers are (``FastJSONRenderer``). A part
    encoded already goes in as ``orjson.Fragment(encoded)``."""
    return orjson.dumps(data, default=_fallback.default, option=orjson.OPT_NON_STR_KEYS)


def state_or_changes(view: dict[str, Any], before: Any) -> bool:
    """Put in ``view`` the changes from the state ``before`` (``state_changes``,
    live.changes) in place of its ``state``, unless the state is under
    ``CHANGES_FROM`` bytes or the changes would take more room; either encoded
    once, for ``json_bytes``. Whether the changes went in."""
    state = view.pop("state")
    whole = json_bytes(state)
    changes = json_bytes(state_changes(before, state)) if len(whole) >= CHANGES_FROM else whole
    if len(changes) < len(whole):
        view["state_changes"] = orjson.Fragment(changes)
        return True
    view["state"] = orjson.Fragment(whole)
    return False


class FastJSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer on orjson: a game's state is tens of kilobytes, and
    encoding it with the standard library was a large part of a GET."""

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Mapping[str, Any] | None = None) -> bytes:
        if data is None:
            return b""
        return json_bytes(data)


class JSONFirstNegotiation(DefaultContentNegotiation):
    """DRF's content negotiation, with the usual request decided at once: no
    ``?format=``, and an Accept header that is absent, ``*/*`` or
    ``application/json``, when the view's first renderer is JSON, gets that
    renderer, as DRF's parse of the header would give it. Every other request is
    negotiated in full."""

    _PLAIN_ACCEPT = frozenset({"*/*", "application/json"})

    def select_renderer(self, request: Request, renderers: Iterable[BaseRenderer],
                        format_suffix: str | None = None) -> tuple[BaseRenderer, str]:
        first = next(iter(renderers), None)
        if (first is not None and first.media_type == "application/json"
                and not format_suffix
                and request.META.get("HTTP_ACCEPT", "*/*").strip() in self._PLAIN_ACCEPT
                and self.settings.URL_FORMAT_OVERRIDE not in request.query_params):
            return first, first.media_type
        chosen: tuple[BaseRenderer, str] = super().select_renderer(request, renderers,
                                                                   format_suffix)
        return chosen


def _first_problem(detail: Any, path: str = "") -> tuple[str, str]:
    """The first (field, message) in a DRF validation error's detail."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = path if key in ("non_field_errors", "detail") else (
                f"{path}.{key}" if path else str(key))
            return _first_problem(value, name)
    if isinstance(detail, list) and detail:
        return _first_problem(detail[0], path)
    return path, str(detail)


MAX_MESSAGE = 200


def _cut(detail: Any) -> Any:
    """A validation error's detail with each message cut short: DRF quotes the
    value refused, which may be huge."""
    if isinstance(detail, dict):
        return {key: _cut(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_cut(item) for item in detail]
    text = str(detail)
    if len(text) <= MAX_MESSAGE:
        return detail
    return exceptions.ErrorDetail(text[:MAX_MESSAGE - 3] + "...",
                                  code=getattr(detail, "code", None))


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every error answer is {"code", "message", ...} with the right status."""
    if isinstance(exc, ServiceError):
        retry = {"Retry-After": str(exc.retry_after)} if isinstance(exc, TryLater) else None
        return Response(exc.as_dict(), status=exc.status, headers=retry)
    if isinstance(exc, IllegalAction):
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):  # Django's own check, as DRF reads request.body
        exc = RequestTooLarge(body_too_large())
    from rest_framework.views import exception_handler as drf_exception_handler

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        exc.detail = _cut(exc.detail)
        field, message = _first_problem(exc.detail)
        codes = exc.get_codes()
        unknown = "unknown_field" in json.dumps(codes)
        response.data = {
            "code": "unknown_field" if unknown else "invalid",
            "message": f"{field}: {message}" if field else message,
            "field": field or None,
            "fields": exc.detail,
        }
    elif isinstance(exc, exceptions.APIException):
        code = exc.get_codes()
        response.data = {
            "code": code if isinstance(code, str) else "error",
            "message": str(exc.detail),
        }
        if isinstance(exc, exceptions.ParseError):
            response.data["code"] = "malformed_json"
    return response
