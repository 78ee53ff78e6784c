"""The site as an installable app (marram_site.webapp): the web app manifest,
named by the site and opening on My games; its icons, drawn by the project; the
service worker at the site's root, with this deploy's cache name; and the
offline page, which carries nobody's data since the worker keeps it."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from marram_site import webapp
from marram_site.favicon import GRASS, SAND
from tests.service.conftest import make_user
from tests.service.test_site_icon import near

pytestmark = pytest.mark.django_db


def worker_config(body: bytes) -> dict:
    first, _, _ = body.decode().partition("\n")
    assert first.startswith("self.workerConfig = ") and first.endswith(";")
    return json.loads(first.removeprefix("self.workerConfig = ").removesuffix(";"))


def test_the_manifest_names_the_site_and_opens_on_my_games(client, settings):
    settings.MARRAM_SITE_NAME = "The Riverside Games Club"
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "The Riverside Games Club"
    assert manifest["short_name"] == "The Riversid"  # at most 12 letters, for a home screen
    assert manifest["start_url"] == "/games/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == webapp.THEME_COLOUR
    assert [(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]] == [
        ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")]


def test_a_short_name_stays_whole(client):
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["name"] == manifest["short_name"] == "marram"


def test_the_icons_are_the_sites_tile_at_the_sizes_phones_ask_for(client):
    manifest = client.get("/manifest.webmanifest").json()
    for icon in manifest["icons"]:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon
        assert response["Content-Type"] == "image/png"
        picture = Image.open(io.BytesIO(response.content)).convert("RGBA")
        size = int(icon["sizes"].split("x")[0])
        assert picture.size == (size, size)
        middle = picture.getpixel((size // 2, size // 2))
        assert near(middle, SAND), icon
        if icon["purpose"] == "maskable":
            # every pixel painted, the edges the header's green: a mask cuts only those
            assert near(picture.getpixel((0, 0)), webapp.THEME_COLOUR)
            assert near(picture.getpixel((size * 3 // 10, size * 3 // 10)), GRASS)
        else:
            assert near(picture.getpixel((size // 6, size // 6)), GRASS)
            assert picture.getpixel((0, 0))[3] < 16  # the rounded corner, see-through
    assert client.get("/icons/100.png").status_code == 404


def test_the_service_worker_serves_the_site_with_this_deploys_cache(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"  # a deploy is seen at the next check
    assert "Service-Worker-Allowed" not in response  # at the root, its scope is the site already
    config = worker_config(response.content)
    assert config["cacheName"] == f"static-{webapp.static_version()}"
    assert config["offline"] == "/offline/"
    assert {"/offline/", "/static/games/site.css", "/icons/192.png"} <= set(config["precache"])
    assert b'addEventListener("fetch"' in response.content


def test_the_static_version_follows_the_files(tmp_path, settings):
    before = webapp.static_version()
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "new.css").write_text("p { color: red; }")
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, extra]
    from django.contrib.staticfiles import finders
    finders.get_finder.cache_clear()
    try:
        assert webapp.static_version() != before
    finally:
        settings.STATICFILES_DIRS = settings.STATICFILES_DIRS[:-1]
        finders.get_finder.cache_clear()
    assert webapp.static_version() == before


def test_a_deploys_manifest_is_the_version(tmp_path, monkeypatch):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_text('{"paths": {"games/site.css": "games/site.3f2a.css"}}')
    two.write_text('{"paths": {"games/site.css": "games/site.9c0d.css"}}')
    assert webapp._manifest_version(one) != webapp._manifest_version(two)


def test_the_offline_page_carries_nobodys_data(client):
    ann = make_user("ann")
    client.force_login(ann)
    response = client.get("/offline/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "You are offline" in text
    assert "your games will be here when you are back" in text.lower()
    assert "ann" not in text
    assert "csrf" not in text


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/rules/"])
def test_every_page_links_the_manifest_and_the_worker(client, path):
    page = client.get(path).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="service-worker" content="/sw.js">' in page
    assert "games/install.js" in page


@pytest.mark.parametrize("path", ["/sw.js", "/manifest.webmanifest", "/offline/"])
def test_they_only_answer_reads(client, path):
    assert client.post(path).status_code == 405
