"""The site as an app a phone installs: its web app manifest, its icons, its
service worker and the page the worker shows when the network is out.

The service worker keeps the site's static files in a cache named by their
version (``static_version``), so that a deploy, which changes the version,
replaces the cache. It never stores a page or an answer of the API: those hold
what one player may see, and are asked of the network every time.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_safe
from PIL import Image

from marram_site import favicon

THEME_COLOUR = "#21432a"  # the header's green (games/static/games/site.css)
BACKGROUND_COLOUR = "#f5f2e9"  # the pages' paper
ICON_SIZES = (192, 512)
MASKABLE_SAFE_ZONE = 0.8
"""A maskable icon's picture keeps inside the middle 80%, which every mask shape
leaves whole; the rest is background that a phone may cut away."""

SHELL = ("games/site.css", "games/panels.css", "games/account.css", "games/account_menu.js",
         "games/nav_menu.js", "games/nav_noscript.css", "games/install.js",
         "games/page_left.js", "games/open_page.js")
"""The static files every page loads, fetched into the cache when the worker
installs; the others are kept there once a page has asked for them."""

WORKER_SOURCE = "games/service_worker.js"
CACHE_PREFIX = "static-"


@functools.cache
def icon_png(size: int, maskable: bool = False) -> bytes:
    """The site's icon (marram_site.favicon's tile) as a PNG of ``size`` pixels;
    maskable: on a full square of grass-green, the tile within the safe zone."""
    if maskable:
        picture = Image.new("RGBA", (size, size), THEME_COLOUR)
        inner = round(size * MASKABLE_SAFE_ZONE * 0.7)  # the tile's corners inside the circle
        offset = (size - inner) // 2
        tile = favicon.draw(favicon.DRAWN_PX * 2).resize((inner, inner), Image.Resampling.LANCZOS)
        picture.alpha_composite(tile, (offset, offset))
    else:
        picture = favicon.draw(favicon.DRAWN_PX * 2).resize((size, size), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=True)
    return out.getvalue()


def static_version() -> str:
    """The version of the site's static files: a hash of collectstatic's manifest
    where the storage keeps one (production), else of every static file's path,
    size and time (development, where files change under a running server)."""
    manifest_name = getattr(staticfiles_storage, "manifest_name", None)
    kept_in = getattr(staticfiles_storage, "manifest_storage", staticfiles_storage)
    if manifest_name and kept_in.exists(manifest_name):
        return _manifest_version(Path(kept_in.path(manifest_name)))
    digest = hashlib.sha256()
    for finder in finders.get_finders():
        for path, storage in finder.list(ignore_patterns=[]):
            stat = Path(storage.path(path)).stat()
            digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


@functools.cache
def _manifest_version(manifest: Path) -> str:
    return hashlib.sha256(manifest.read_bytes()).hexdigest()[:16]


def icon_urls() -> list[dict[str, str]]:
    icons = [{"src": reverse("app-icon", args=[size]), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": "any"} for size in ICON_SIZES]
    icons.append({"src": reverse("app-icon-maskable", args=[512]), "sizes": "512x512",
                  "type": "image/png", "purpose": "maskable"})
    return icons


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the site by its name (MARRAM_SITE_NAME), opening on
    My games, standalone, in the header's colours."""
    name = settings.MARRAM_SITE_NAME
    response = JsonResponse({
        "id": reverse("pages:my-games"),
        "name": name,
        "short_name": name if len(name) <= 12 else name[:12].rstrip(),
        "description": "Board games by correspondence, moves over days.",
        "start_url": reverse("pages:my-games"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icon_urls(),
    }, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_safe
def app_icon(request: HttpRequest, size: int, maskable: bool = False) -> HttpResponse:
    if size not in ICON_SIZES:
        return HttpResponse(status=404)
    response = HttpResponse(icon_png(size, maskable), content_type="image/png")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def worker_config() -> dict[str, object]:
    version = static_version()
    offline_url = reverse("offline")
    return {
        "cacheName": f"{CACHE_PREFIX}{version}",
        "cachePrefix": CACHE_PREFIX,
        "staticPrefix": static(""),
        "offline": offline_url,
        "icon": reverse("app-icon", args=[ICON_SIZES[0]]),  # a push's notification's
        "precache": [offline_url, *(static(name) for name in SHELL),
                     *(icon["src"] for icon in icon_urls())],
    }


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that its scope is the whole
    site: its source (games/static/games/service_worker.js) after a line that
    gives it this deploy's cache name and the files to fetch into it."""
    source = Path(str(finders.find(WORKER_SOURCE))).read_text()
    config = json.dumps(worker_config(), separators=(",", ":"))
    response = HttpResponse(f"self.workerConfig = {config};\n{source}",
                            content_type="text/javascript; charset=utf-8")
    # asked again on every check for an update, so that a deploy is seen at once
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the installed app shows with no network. Kept in the worker's cache
    and shown to whoever opens the app next, so it carries nobody's data: no
    name, no count of games, no form."""
    response = render(request, "games/offline.html")
    response["Cache-Control"] = "no-cache"
    return response
