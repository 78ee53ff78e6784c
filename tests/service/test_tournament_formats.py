"""The tournament formats' pairings and points, worked out by hand (pure
functions: no database)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import log, pairing, scoring
from tournaments.pairing import History


def test_points_by_place_with_ties_shared():
    # two players: a win is 1, a draw 1/2 each
    assert scoring.place_points({1: 1, 2: 2}) == {1: 1, 2: 0}
    assert scoring.place_points({1: 1, 2: 1}) == {1: Fraction(1, 2), 2: Fraction(1, 2)}
    # four players: places are worth 1, 2/3, 1/3, 0; two tied second share (2/3 + 1/3) / 2
    assert scoring.place_points({1: 1, 2: 2, 3: 2, 4: 4}) == {
        1: 1, 2: Fraction(1, 2), 3: Fraction(1, 2), 4: 0}
    # three players tied first share (1 + 1/2) / 2 = 3/4; the last gets 0
    assert scoring.place_points({1: 1, 2: 1, 3: 3}) == {1: Fraction(3, 4), 2: Fraction(3, 4),
                                                       3: 0}


def test_a_four_player_round_robin_by_the_circle_method():
    # seeds 1-4; 4 stays put, 1, 2, 3 turn: 1-4 and 2-3, then 3 comes round
    assert pairing.berger([1, 2, 3, 4]) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)],
                                            [(2, 4), (3, 1)]]
    schedule = pairing.round_robin([1, 2, 3, 4], 2)
    assert [t.part for t in schedule.tables] == [1, 1, 2, 2, 3, 3]  # all at once
    firsts = Counter(t.players[0] for t in schedule.tables)
    assert firsts == {1: 2, 2: 2, 3: 1, 4: 1}  # each first in 1 or 2 of their 3 games


def test_a_swiss_round_two_with_a_bye_and_no_repeat():
    seeds = [1, 2, 3, 4, 5]
    first = pairing.swiss(seeds, History())
    # everyone on 0: the lowest seed, 5, has the bye; neighbours in the seeding meet
    assert first.byes == (5,)
    assert [t.players for t in first.tables] == [(1, 2), (3, 4)]
    # 1 beats 2, 4 beats 3: 1, 4 and 5 (the bye) have 1 point, 2 and 3 none
    state = _swiss_state(seeds, [first], {(1, 2): {1: 1, 2: 2}, (3, 4): {3: 2, 4: 1}})
    second = log.next_pairing(state)
    assert second is not None
    # ranking 1, 4, 5 | 2, 3: the bye goes to 3, the lowest-ranked without one; the
    # 1-point group {1, 4, 5} is odd, so its lowest, 5, floats down to meet 2. 4 sat
    # second in round 1 and 1 first, so 4 sits first; 2 sat second, 5 not at all
    assert second.byes == (3,)
    assert [t.players for t in second.tables] == [(4, 1), (2, 5)]


def _swiss_state(seeds, rounds, places) -> log.State:
    state = log.fold([
        {"type": "created", "format": "swiss", "table_size": 2, "rounds": 3},
        {"type": "started", "seeding": [{"user": p, "rating": 0} for p in seeds]}])
    game = 100
    for number, paired in enumerate(rounds, start=1):
        tables = []
        for i, table in enumerate(paired.tables, start=1):
            game += 1
            tables.append({"table": i, "players": list(table.players), "games": [game]})
        log.evolve(state, {"type": "round_paired", "round": number, "tables": tables,
                           "byes": list(paired.byes)})
        for table in tables:
            result = places[tuple(sorted(table["players"]))]
            log.evolve(state, {"type": "result_recorded", "game": table["games"][0],
                               "places": sorted([p, r] for p, r in result.items()),
                               "out": []})
    return state


def test_a_knockout_of_five_gives_the_top_three_seeds_byes():
    # a bracket of 8: 1 v 8, 4 v 5, 2 v 7, 3 v 6, seeds past 5 being byes
    assert pairing.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    first = pairing.knockout_first([11, 12, 13, 14, 15])
    assert first.slots == ((11,), (14, 15), (12,), (13,))
    assert [t.players for t in first.tables] == [(14, 15)] and first.byes == (11, 12, 13)
    # 15 beats 14 and meets the top seed; 12 meets 13
    assert pairing.knockout_next([11, 15, 12, 13]).slots == ((11, 15), (12, 13))
    # a best of 3 tied (a draw each way and a split) goes to the better seed
    assert pairing.match_winner((15, 11), {15: Fraction(3, 2), 11: Fraction(3, 2)},
                                {11: 0, 15: 4}) == 11


def test_tables_of_three_in_a_knockout_by_snake_seeding():
    # 7 players: 3 tables; seeds 1, 2, 3 then back 6, 5, 4, then 7 at the first
    found = pairing.knockout_first([1, 2, 3, 4, 5, 6, 7], size=3)
    assert found.slots == ((1, 6, 7), (2, 5), (3, 4))


def test_swiss_standings_break_ties_by_buchholz_then_sonneborn_berger():
    # 1 beat 2, 3 beat 4, then 3 beat 1 and 2 beat 4
    results = [scoring.Result({1: 1, 2: 2}), scoring.Result({3: 1, 4: 2}),
               scoring.Result({3: 1, 1: 2}), scoring.Result({2: 1, 4: 2})]
    rows = scoring.standings("swiss", [1, 2, 3, 4], results, {})
    # points: 1: 1, 2: 1, 3: 2, 4: 0. Buchholz of 1: 2 (player 2's 1 + player 3's 2) = 3;
    # of 2: 1 + 0 = 1: so 1 is above 2
    assert [(r.player, r.points, r.tie_breaks[0]) for r in rows] == [
        (3, 2, 1), (1, 1, 3), (2, 1, 1), (4, 0, 3)]


def test_round_robin_standings_break_ties_head_to_head_then_sonneborn_berger():
    # 1 beat 2, 2 beat 3, 3 beat 1; 1 and 2 beat 4; 4 beat 3
    results = [scoring.Result({1: 1, 2: 2}), scoring.Result({2: 1, 3: 2}),
               scoring.Result({3: 1, 1: 2}), scoring.Result({1: 1, 4: 2}),
               scoring.Result({2: 1, 4: 2}), scoring.Result({4: 1, 3: 2})]
    rows = scoring.standings("round_robin", [1, 2, 3, 4], results, {})
    # points 1: 2, 2: 2, 3: 1, 4: 1. 1 beat 2: 1 first. Between 3 and 4, 4 won their
    # game, though 3's Sonneborn-Berger (it beat 1, on 2 points: 2) is above 4's (it
    # beat 3, on 1: 1): head-to-head comes first
    assert [(r.player, r.rank, r.points) for r in rows] == [(1, 1, 2), (2, 2, 2), (4, 3, 1),
                                                            (3, 4, 1)]
    assert [r.tie_breaks for r in rows] == [(1, 3), (0, 2), (1, 1), (0, 2)]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=6), st.integers(min_value=0, max_value=2**32))
def test_a_swiss_never_repeats_a_pair_within_half_the_field_rounds(half, seed):
    n = 2 * half
    players = list(range(1, n + 1))
    rng = random.Random(seed)
    history = History()
    for _ in range(half):  # up to n/2 rounds a pairing without repeats always exists
        found = pairing.swiss(players, history)
        assert not found.byes and len(found.tables) == half
        for table in found.tables:
            assert history.met[frozenset(table.players)] == 0
            history.played(table.players)
            winner = rng.choice(table.players)
            history.scores[winner] = history.scores.get(winner, Fraction(0)) + 1


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=2, max_value=14))
def test_a_round_robin_meets_every_pair_once(n):
    schedule = pairing.round_robin(list(range(n)), 2)
    met = Counter(frozenset(t.players) for t in schedule.tables)
    assert set(met) == {frozenset(p) for p in combinations(range(n), 2)}
    assert set(met.values()) == {1}
    parts = Counter(p for t in schedule.tables for p in t.players)
    assert set(parts.values()) == {n - 1}


def test_a_swiss_of_tables_of_three_groups_by_score():
    seeds = [1, 2, 3, 4, 5, 6, 7]
    first = pairing.swiss(seeds, History(), size=3)
    # 7 players, tables of 3: the lowest seed has the bye; the others in seeding order
    assert first.byes == (7,) and [t.players for t in first.tables] == [(1, 2, 3), (4, 5, 6)]
    history = History()
    for table, places in zip(first.tables, ({1: 1, 2: 2, 3: 3}, {4: 1, 5: 2, 6: 3}),
                             strict=True):
        history.played(table.players)
        for player, points in scoring.place_points(places).items():
            history.scores[player] = points
    history.byes[7] += 1
    history.scores[7] = Fraction(1)
    second = pairing.swiss(seeds, history, size=3)
    # scores: 1, 4, 7 on 1; 2, 5 on 1/2; 3, 6 on 0. The bye: 6, the lowest without one.
    # Tables in ranking order, each with the next players who have met none of it:
    # 1, 4, 7; then 2, 5 and, none fresh left, 3. Who has sat first least sits first:
    # 7 (never seated), then 1 and 4 (first once each) in ranking order; 2, 5 and 3
    # have each sat second once
    assert second.byes == (6,)
    assert [t.players for t in second.tables] == [(7, 1, 4), (2, 5, 3)]


def test_tables_of_three_and_four_meet_every_pair_in_a_round_robin():
    for size in (3, 4):
        for n in range(size + 1, 11):
            schedule = pairing.round_robin(list(range(n)), size)
            met = Counter(frozenset(p) for t in schedule.tables
                          for p in combinations(t.players, 2))
            assert all(met[frozenset(p)] >= 1 for p in combinations(range(n), 2)), (n, size)
