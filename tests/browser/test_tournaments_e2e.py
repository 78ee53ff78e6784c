"""A tournament as people meet it: created from the form, joined from the list,
and followed from its page to a game of its first round."""

from __future__ import annotations

from typing import Any

import pytest

from tests.service.conftest import make_user
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def test_a_tournament_is_created_joined_and_followed(visitors, live_server):
    make_user("ann"), make_user("bob")
    a = visitors()
    a.sign_in("ann")
    page: Any = a.page
    page.goto(f"{live_server.url}/tournaments/")
    page.get_by_role("link", name="Create a tournament").click()
    page.get_by_label("Name").fill("Evening Pond")
    page.get_by_label("Game", exact=True).select_option("pond")
    page.get_by_label("Format").select_option("swiss")
    page.get_by_label("Rounds").fill("1")
    page.get_by_label("Max players").fill("2")
    page.get_by_role("button", name="Create").click()
    t = Tournament.objects.get(name="Evening Pond")
    page.wait_for_url(f"{live_server.url}/tournaments/{t.pk}/")
    assert "starts when 2 have joined" in page.locator("#status").inner_text()
    assert page.locator("#entrants [data-player]").all_inner_texts() == ["ann\tunrated"]

    b = visitors()
    b.sign_in("bob")
    other: Any = b.page
    other.goto(f"{live_server.url}/tournaments/")
    other.get_by_role("link", name="Evening Pond").click()
    other.get_by_role("button", name="Join").click()  # the second: it starts
    other.wait_for_url(f"{live_server.url}/tournaments/{t.pk}/")
    assert other.locator("#status").inner_text().startswith("Running")
    table = other.locator("#rounds tr[data-table='1']")
    assert table.locator("td").nth(1).inner_text() in ("ann – bob", "bob – ann")
    game = t.games.get().game
    table.get_by_role("link", name=f"game {game.pk}").click()
    other.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    page.reload()  # ann's page shows the same round, and the standings so far
    assert page.locator("#standings-table [data-player]").count() == 2
