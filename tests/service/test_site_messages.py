"""The pages' one-time notices (Django's messages): shown once on the next page."""

from __future__ import annotations

import pytest

from tests.service.conftest import signed_in, start_game

pytestmark = pytest.mark.django_db


def test_a_notice_shows_on_the_next_page_once(users):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    page = signed_in(bob)
    kept = page.post(f"/games/{game.pk}/note/", {"text": "try the frog"}, follow=True)
    assert "Note kept: only you can see it." in kept.content.decode()
    assert "Note kept" not in page.get(f"/games/{game.pk}/").content.decode()
