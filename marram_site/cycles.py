"""Answers let go as soon as they are sent, not at the next garbage collection.

DRF's ``Response`` keeps itself in its ``renderer_context`` (``"response"``),
beside its view, which keeps the response too (``view.response``): every answer
of the API, with the whole tree of its data (a game's view is thousands of
dicts and lists), is a cycle that reference counting cannot free. It waited for
Python's cycle collector, which walked all of it. Once the answer is rendered
the context has served its purpose; this drops it and the view's hold on the
response, so the data goes when the server closes the answer.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase


class ResponseCycleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        context = getattr(response, "renderer_context", None)
        if context is not None and getattr(response, "is_rendered", False):
            view = context.get("view")
            if getattr(view, "response", None) is response:
                view.response = None
            response.renderer_context = None  # type: ignore[attr-defined]
        return response
