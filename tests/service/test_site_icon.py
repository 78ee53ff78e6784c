"""The site's icon at /favicon.ico, where browsers look for it on every page
(the admin's and the API docs' included), and linked from the pages."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from marram_site.favicon import GRASS, SAND


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def near(pixel: tuple[int, ...], colour: str) -> bool:
    return pixel[3] == 255 and all(abs(a - b) <= 8 for a, b in zip(pixel, rgb(colour),
                                                                    strict=False))


def test_favicon_is_an_icon_of_the_grass_tile_and_its_sand_band(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    assert "max-age" in response["Cache-Control"]
    icon = Image.open(io.BytesIO(response.content))
    assert icon.format == "ICO"
    assert {(16, 16), (32, 32), (48, 48)} <= icon.info["sizes"]
    icon.size = (32, 32)
    picture = icon.convert("RGBA")
    # the band covers x + y from 9 to 19 sixteenths: the middle is sand, the
    # corners grass, and the rounded corner itself is see-through
    assert near(picture.getpixel((16, 16)), SAND)
    assert near(picture.getpixel((5, 5)), GRASS)
    assert near(picture.getpixel((26, 26)), GRASS)
    assert picture.getpixel((0, 0))[3] < 16


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_favicon_only_answers_reads(client, method):
    assert getattr(client, method)("/favicon.ico").status_code == 405


@pytest.mark.django_db
def test_the_pages_and_the_api_docs_link_it(client):
    for path in ("/", "/accounts/login/", "/api/docs/"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert b'<link rel="icon" href="/favicon.ico">' in page.content, path
