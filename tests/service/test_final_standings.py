"""The final standings every game ends on (games.pages.standings): the rules'
winners first (engine.protocol.standings, which ratings read too), the others
by score in the game's order, seats that left last, ties sharing a place; each
game's measure in its own words; and the fair-chance line only on the page of a
game whose rules leave something to chance."""

from __future__ import annotations

import pytest

from engine import registry
from engine.protocol import Projection, standings
from tests.service.conftest import signed_in, start_game_of
from tests.service.endgame_kit import play_to_the_end

SEED = "f1" * 32


def ranked(p: Projection) -> list[tuple[int, int]]:
    return [(s.seat, s.rank) for s in standings(p)]


def test_the_winners_the_rules_name_come_first_whatever_their_score():
    # Pond after an elimination: ann wins with the smaller pile
    p = Projection(finished=True, scores=(2, 5), winners=(0,), to_act=())
    assert ranked(p) == [(0, 1), (1, 2)]


def test_a_draw_shares_the_first_place_and_equal_scores_share_a_place():
    draw = Projection(finished=True, scores=(4, 6), winners=(0, 1), to_act=())
    assert ranked(draw) == [(0, 1), (1, 1)]
    three = Projection(finished=True, scores=(9, 5, 5, 7), winners=(0,), to_act=())
    assert ranked(three) == [(0, 1), (3, 2), (1, 3), (2, 3)]


def test_lower_scores_rank_first_where_they_win_and_seats_that_left_come_last():
    # Make-a-snake: distances; bob resigned with none measured
    p = Projection(finished=True, scores=(8.6, None, 7.2, 9.9), winners=(2,), to_act=(),
                   out=(1,), better="lower")
    assert ranked(p) == [(2, 1), (0, 2), (3, 3), (1, 4)]


def test_a_cooperative_game_shares_one_place():
    p = Projection(finished=True, scores=(3, 3), winners=(), to_act=(), cooperative=True)
    assert ranked(p) == [(0, 1), (1, 1)]


@pytest.mark.parametrize("key", [g.key for g in registry.games()])
def test_the_fair_chance_line_shows_only_where_the_rules_leave_something_to_chance(
        users, key):
    ann, bob = users[:2]
    game = start_game_of(key, [ann, bob], seed=SEED)
    html = signed_in(ann).get(f"/games/{game.pk}/").content.decode()
    assert ('id="fairness"' in html) == registry.get(key).has_chance
    assert registry.get("pond").has_chance is False  # no deck, no die
    assert all(registry.get(k).has_chance for k in ("marram", "make_a_snake",
                                                     "animals_on_board"))


def test_a_finished_game_is_drawn_with_its_standings_without_script(users):
    ann, bob = users[:2]
    game = play_to_the_end(start_game_of("make_a_snake", [ann, bob], seed=SEED))
    html = signed_in(ann).get(f"/games/{game.pk}/").content.decode()
    section = html[html.index('id="final-standings"'):html.index('id="game"')]
    assert " hidden" not in section[:section.index(">")]
    assert "<th scope=\"col\" class=\"measure\">Tongue to tail</th>" in section
    assert section.count('class="tag tag-win"') == len(game.projection["winners"])
