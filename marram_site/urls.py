"""The project's URLs: the admin, the API and its schema, a health check and the
site's icon.

Each app adds its own ``urls.py`` here as it grows views.
"""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from marram_site.csp import csp_update
from marram_site.views import favicon, healthz

# Swagger UI with its start-up script as a file of its own (no inline script) and
# no inline style; its stylesheet draws its icons as data: images, allowed here only.
api_docs = csp_update(img_src="'self' data:")(SpectacularSwaggerSplitView.as_view(
    url_name="api-schema", template_name="games/api_docs.html"))

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("games.urls")),
    # Sign in and out of the browsable API (session auth).
    path("api/auth/", include("rest_framework.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    path("", include("notifications.urls")),  # mail in, unsubscribe, mail settings
    path("", include("games.page_urls")),  # the web pages
]
