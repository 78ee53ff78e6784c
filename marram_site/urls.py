"""The project's URLs: the admin, the API and its schema, and a health check.

Each app adds its own ``urls.py`` here as it grows views.
"""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games.pages.views import login_view, logout_view
from marram_site.views import healthz

handler404 = "marram_site.views.not_found"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("games.urls")),
    # Sign in and out of the browsable API (session auth): DRF's pages, reading
    # their forms as the site's own do.
    path("api/auth/", include(([
        path("login/", login_view("submit", template_name="rest_framework/login.html"),
             name="login"),
        path("logout/", logout_view(), name="logout"),
    ], "rest_framework"))),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("healthz", healthz, name="healthz"),
    path("", include("notifications.urls")),  # mail in, unsubscribe, mail settings
    path("", include("games.page_urls")),  # the web pages
]
