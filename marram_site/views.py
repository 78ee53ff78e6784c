"""Project-level views that belong to no app."""

import sys
from html import escape

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.http import require_GET, require_safe

from games import store
from marram_site.favicon import favicon_ico


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Answer 200 when the service can reach its database, for load balancers."""
    return JsonResponse({"status": "ok", "database": store.database_reached()})


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """The site's icon (marram_site.favicon), for every page that browsers ask it of."""
    response = HttpResponse(favicon_ico(), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A URL that matches nothing: under /api/ the API's own {"code", "message"}."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "not_found", "message": "there is no such endpoint or "
                             "object here: see /api/docs/"}, status=404)
    return defaults.page_not_found(request, exception)


RETRY_AFTER = 5
"""Seconds a client is asked to wait (Retry-After) while the database is out."""

JSON_PREFIXES = ("/api/", "/mail/inbound/")
"""Where machines ask (the API, the mail webhook): their errors are JSON."""

UNAVAILABLE_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Back in a moment · {site}</title></head>
<body>
<h1>Back in a moment</h1>
<p>{site} cannot reach its database just now: try again in a minute.</p>
</body>
</html>
"""

TOO_LARGE_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Too much at once · {site}</title></head>
<body>
<h1>Too much at once</h1>
<p>{message}: send less, or a file by another way.</p>
</body>
</html>
"""


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be used for now (Django's wrap of
    the driver's OperationalError or InterfaceError: refused, closed, shut down,
    timed out), not that a statement is wrong."""
    return isinstance(exc, (OperationalError, InterfaceError))


def wants_json(request: HttpRequest) -> bool:
    """The API, the mail webhook, the health check and the pages' JSON (a game
    page's ``state.json``) answer errors in JSON; the pages in HTML."""
    path = request.path
    return path.startswith(JSON_PREFIXES) or path == "/healthz" or path.endswith(".json")


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: ``{"code": "database_unavailable", "message"}`` for the
    API, a plain page (no template, no static files, nothing that asks the
    database) for the pages."""
    response: HttpResponse
    if wants_json(request):
        response = JsonResponse(
            {"code": "database_unavailable",
             "message": "the database cannot be reached just now: try again in "
                        f"{RETRY_AFTER} seconds"}, status=503)
    else:
        response = HttpResponse(UNAVAILABLE_PAGE.format(site=escape(settings.MARRAM_SITE_NAME)),
                                status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """Every exception no view or middleware answered (urls.handler500, called
    while it is being handled, so ``sys.exc_info`` holds it): the database out is
    a 503 (``unavailable``); anything else a 500, in JSON for the API."""
    if database_unavailable(sys.exc_info()[1]):
        return unavailable(request)
    if wants_json(request):
        return JsonResponse({"code": "server_error",
                             "message": "the server failed to answer; this is a fault of "
                                        "the server's, and it has been logged"}, status=500)
    return defaults.server_error(request)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django refused before any view (urls.handler400): a form's body
    over DATA_UPLOAD_MAX_MEMORY_SIZE is a 413, in JSON where machines ask (a
    provider's post to the mail webhook), as the API's own ``too_large``; any
    other such request a 400, in JSON there too."""
    from web.http import body_too_large

    if isinstance(exception, RequestDataTooBig):
        if wants_json(request):
            return JsonResponse({"code": "too_large", "message": body_too_large()}, status=413)
        return HttpResponse(TOO_LARGE_PAGE.format(site=escape(settings.MARRAM_SITE_NAME),
                                                  message=body_too_large()),
                            status=413, content_type="text/html; charset=utf-8")
    if wants_json(request):
        return JsonResponse({"code": "bad_request",
                             "message": "the request could not be read"}, status=400)
    return defaults.bad_request(request, exception)
