"""The four games end on one screen: the same table of final standings (place,
player, the game's own measure, a winner's badge, best first), drawn by the
platform and filled by each game with its measure; what happened since a
player's last move and the last move are told in words in every game; and the
fair-chance line shows only where the rules leave something to chance."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import registry
from games.models import Event, Game
from tests.browser.conftest import DESKTOP
from tests.service.conftest import make_user, start_game_of
from tests.service.endgame_kit import play_to_the_end
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "e7" * 32
SHORT = {"marram": {"length": "short"}, "pond": {"options": "small"}}
MEASURE = {"marram": "Points", "pond": "Pile", "make_a_snake": "Tongue to tail",
           "animals_on_board": "Points"}
NOTATION = re.compile(r"\b(place [A-Z]+\d* (front|back)|flip -?\d|take \d|take (red|blue|green|"
                      r"yellow)\b|egg -?\d|keep [A-Z]\d|split \d)")
"""What a move looks like in each game's notation: never what the pages tell."""


@pytest.fixture
def eager(settings):
    with eager_tasks(settings):  # the die, the ratings at the end: in-process
        yield


def table(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
      const t = document.querySelector('#final-standings #standings');
      return {
        heads: [...t.querySelectorAll('thead th')].map((th) => th.textContent.trim()),
        rows: [...t.querySelectorAll('tbody tr')].map((tr) => ({
          place: tr.querySelector('[data-col=place]').textContent.trim(),
          name: tr.querySelector('.standings-name').textContent.trim(),
          measure: tr.querySelector('[data-col=measure]').textContent.trim(),
          badge: tr.querySelector('.tag-win')?.textContent.trim() ?? '',
          winner: tr.classList.contains('winner'),
        })),
        tables: document.querySelectorAll('#standings-body table').length,
      };
    }""")


@pytest.mark.parametrize("key", ["marram", "pond", "make_a_snake", "animals_on_board"])
def test_every_game_ends_on_the_same_standings_table(eager, visitors, live_server, key,
                                                    artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    game = play_to_the_end(start_game_of(key, [ann, bob], seed=SEED, options=SHORT.get(key)))
    winners = {("ann", "bob")[s] for s in game.projection["winners"]}
    visitor = visitors(DESKTOP)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    page.wait_for_selector("#final-standings:not([hidden])")
    page.screenshot(path=str(artifacts_dir / f"end-{key}.png"))
    seen = table(page)
    assert seen["tables"] == 1  # no game's own second table
    assert seen["heads"] == ["Place", "Player", MEASURE[key]]
    rows = seen["rows"]
    assert sorted(r["name"] for r in rows) == ["ann", "bob"]
    # best first: places never go down, the winners lead with the badge
    places = [int(r["place"].lstrip("=")) for r in rows if r["place"][-1].isdigit()]
    assert places == sorted(places) and places[0] == 1
    assert {r["name"] for r in rows if r["badge"] == "winner"} == winners
    assert all(r["winner"] == (r["name"] in winners) for r in rows)
    assert all(r["measure"] for r in rows)

    # the story in words, in every game
    since = page.locator("#since-list").inner_text()
    assert since.strip() and not NOTATION.search(since), since
    last = page.locator("#last-move").inner_text()
    assert not NOTATION.search(last), last

    # fair chance is told only of a game that leaves something to chance
    assert page.locator("#fairness").count() == (1 if registry.get(key).has_chance else 0)


def test_the_last_move_of_animals_on_board_is_told_in_words(visitors, live_server):
    ann, bob = make_user("ann"), make_user("bob")

    def bob_took(game: Game) -> bool:
        last = Event.objects.filter(game=game, actor__isnull=False).order_by("-seq").first()
        return last is not None and last.type == "take" and last.payload["player"] == 1

    game = play_to_the_end(start_game_of("animals_on_board", [ann, bob], seed=SEED),
                           until=bob_took)
    assert game.status == Game.Status.RUNNING
    visitor = visitors(DESKTOP)
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    last = page.locator("#last-move").inner_text()
    assert re.fullmatch(r"Last move: bob takes group \d+ onto their ark and leaves the round\.",
                        last), last
