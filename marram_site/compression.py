"""JSON answers compressed for clients that accept gzip.

A Marram game's state, each tile on its board carrying its drawing, is about 26
KB of JSON and 3.6 KB compressed; Pond's, Animals on Board's and Make-a-snake's
shrink two to three times. Only JSON is compressed, never HTML: a page carries
its CSRF token, and compressing a secret beside text a visitor can choose lets
the length tell the secret (BREACH). The API's JSON carries no token.

Level 1 (about a tenth of a millisecond for a Marram state): most of the gain,
little of the CPU. It runs outside ConditionalGetMiddleware, so the 304 is
decided on the answer itself; the ETag becomes weak, since the bytes differ by
encoding while the answer is the same.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import patch_vary_headers

MIN_LENGTH = 1024
"""Smaller answers go as they are: a header and a frame cost more than they save."""

_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


class JSONCompressionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (not isinstance(response, HttpResponse)  # streamed
                or response.status_code not in (200, 201)
                or response.has_header("Content-Encoding")
                or not response.get("Content-Type", "").startswith("application/json")
                or len(response.content) < MIN_LENGTH):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        if not _ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            return response
        packed = gzip.compress(response.content, compresslevel=1, mtime=0)
        response.content = packed
        response["Content-Length"] = str(len(packed))
        response["Content-Encoding"] = "gzip"
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response["ETag"] = "W/" + etag
        return response
