"""The Content-Security-Policy every answer carries: the pages may load scripts,
styles, images, fonts and data from the site itself and nowhere else, and run no
inline script or style (a script may still set an element's style through the
CSSOM, as the board's does). Django 5.2 has no CSP of its own.

The policy is ``settings.CONTENT_SECURITY_POLICY`` ({directive: sources}); a view
that needs a looser one says so with ``csp_update`` and only it gets it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"


def policy_text(directives: dict[str, str]) -> str:
    return "; ".join(f"{name} {sources}".strip() for name, sources in directives.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = policy_text(settings.CONTENT_SECURITY_POLICY)
        return response


def csp_update(**directives: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The site's policy with these directives replaced (``img_src="'self' data:"``
    for img-src), for the answers of one view."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            response = view(request, *args, **kwargs)
            changed = {name.replace("_", "-"): sources for name, sources in directives.items()}
            response[HEADER] = policy_text({**settings.CONTENT_SECURITY_POLICY, **changed})
            return response

        return wrapped

    return decorate
