"""The project's URLs: the admin, the API and its schema, a health check, the
site's icon, and what makes it an installable app (marram_site.webapp).

Each app adds its own ``urls.py`` here as it grows views.
"""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.views import login_view, logout_view
from chat import urls as chat_urls
from games import urls as games_urls
from marram_site import webapp
from marram_site.csp import csp_update
from marram_site.views import favicon, healthz
from notes import urls as notes_urls
from reviews import urls as reviews_urls
from web.database_out import needs_no_database

# Swagger UI with its start-up script as a file of its own (no inline script) and
# no inline style; its stylesheet draws its icons as data: images, allowed here only.
api_docs = csp_update(img_src="'self' data:")(SpectacularSwaggerSplitView.as_view(
    url_name="api-schema", template_name="games/api_docs.html"))

handler400 = "marram_site.views.bad_request"
handler404 = "marram_site.views.not_found"
# the database out: a 503 (JSON for the API), not Django's 500 page
handler500 = "marram_site.views.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include(games_urls.urlpatterns)),  # first: a move's and a game's addresses
    path("api/", include("accounts.api_urls")),  # sign-up and tokens
    path("api/", include("ratings.api_urls")),
    path("api/", include(notes_urls.api_urlpatterns)),
    path("api/", include(chat_urls.api_urlpatterns)),
    path("api/", include("tournaments.api_urls")),
    path("api/", include(reviews_urls.api_urlpatterns)),
    # after every app's: /api/games/{id}/{name}/ takes any name for a game's query
    path("api/", include(games_urls.named_query_urlpatterns)),
    # Sign in and out of the browsable API (session auth): DRF's pages, reading
    # their forms as the site's own do.
    path("api/auth/", include(([
        path("login/", login_view("submit", template_name="rest_framework/login.html"),
             name="login"),
        path("logout/", logout_view(), name="logout"),
    ], "rest_framework"))),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", needs_no_database(favicon), name="favicon"),
    path("manifest.webmanifest", needs_no_database(webapp.manifest), name="web-manifest"),
    path("icons/<int:size>.png", needs_no_database(webapp.app_icon), name="app-icon"),
    path("icons/maskable-<int:size>.png", needs_no_database(webapp.app_icon), {"maskable": True},
         name="app-icon-maskable"),
    # the root: its scope is the site
    path("sw.js", needs_no_database(webapp.service_worker), name="service-worker"),
    path("offline/", needs_no_database(webapp.offline), name="offline"),
    path("", include("notifications.urls")),  # mail in, unsubscribe, mail settings
    path("", include("bots.urls")),  # a game against the computer
    path("", include("accounts.urls")),  # sign-up, sign-in, the account pages
    path("", include("games.page_urls")),  # the web pages
    path("", include("ratings.urls")),  # leaderboards, profiles, rematches
    path("", include("notes.urls")),  # a player's private note on a game
    path("", include("chat.urls")),  # a game's chat
    path("", include("tournaments.urls")),  # tournaments' pages
    path("", include("reviews.urls")),  # the review of a finished game
]
