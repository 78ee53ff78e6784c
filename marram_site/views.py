"""Project-level views that belong to no app."""

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
