"""Scoring: pairs returned, an ark above 10 reduced the best way (never leaving
a species at two), a lone tile by its number, a herd of three to five at 5 a
tile, a crate at 1; the winner by points, then species, else a shared win."""
from __future__ import annotations

from engine.animals_on_board import ArkScore, score_ark

from .helpers import opened, play, position, summary, take


def scored(ark: str, crates: int = 0) -> ArkScore:
    return score_ark(ark.split(), crates)


def points(ark: str, crates: int = 0) -> int:
    return scored(ark, crates).points


def test_a_lone_tile_scores_its_number():
    assert points("C4") == 4
    assert points("C4 D1 E5") == 10


def test_every_tile_of_a_herd_of_three_to_five_scores_five():
    assert points("D1 D2 D3") == 15
    assert points("D1 D2 D3 D4") == 20
    assert points("D1 D2 D3 D4 D5") == 25


def test_a_species_of_exactly_two_tiles_is_returned():
    # A3 A4 A5 herd 15, B1 B2 returned, C5 5: 20 (the spec's first example)
    score = scored("A3 A4 A5 B1 B2 C5")
    assert score.points == 20
    assert score.pairs == ("B1", "B2")
    assert score.kept == ("A3", "A4", "A5", "C5")


def test_each_crate_held_scores_one():
    assert points("C4", crates=3) == 7
    assert points("", crates=5) == 5


def test_an_ark_above_ten_returns_the_tiles_that_cost_least():
    # A1-A5 herd 25, B1 B2 B3 herd 15, singles C5 D4 E3 F1: 12 tiles, 2 must go.
    # Returning E3 and F1 loses 4 (45 + C5 + D4 = 49); A down to 4 and F1
    # loses 6; B down to 1 loses 12.
    score = scored("A1 A2 A3 A4 A5 B1 B2 B3 C5 D4 E3 F1")
    assert score.points == 49
    assert score.reduced == ("E3", "F1")
    assert len(score.kept) == 10


def test_a_reduction_never_leaves_a_species_at_two():
    # herds A, B, C of three (45) and singles D5 E5: 11 tiles, one must go.
    # A herd cannot drop to two, and dropping to one leaves 9: a single goes.
    score = scored("A1 A2 A3 B1 B2 B3 C1 C2 C3 D5 E5")
    assert score.points == 50
    assert len(score.kept) == 10
    assert {t[0] for t in score.reduced} <= {"D", "E"}


def test_on_equal_points_the_reduction_keeps_more_species_and_higher_numbers():
    # A1-A5 (25) and six singles of 5 (30): 11 tiles. Dropping a single or
    # shrinking the herd to four both lose 5; shrinking the herd keeps 7
    # species instead of 6, and it returns A1, the lowest of A.
    score = scored("A1 A2 A3 A4 A5 B5 C5 D5 E5 F5 G5")
    assert score.points == 50
    assert score.species == 7
    assert score.reduced == ("A1",)


def test_more_species_come_before_higher_numbers_in_the_reduction():
    # A1 A2 A3 (15), B2 B3 B4 B5 (20), singles C5 D5 E5 F5 G5 H5 (30): 13
    # tiles, three must go, and several choices lose 15 points. Returning the
    # whole A herd keeps the higher numbers (44 in all, 7 species); shrinking B
    # to its B5 keeps all 8 species (numbers 41): more species come first.
    score = scored("A1 A2 A3 B2 B3 B4 B5 C5 D5 E5 F5 G5 H5")
    assert score.points == 50
    assert score.species == 8
    assert score.reduced == ("B2", "B3", "B4")


def test_a_herd_shrinks_to_one_tile_when_that_keeps_more_species():
    # herds A3 A4 A5 and B3 B4 B5 (30) and singles C5 D5 E5 F5 G5 H5 (30): 12
    # tiles, two must go. Two singles lose 10 and two species; a herd down to
    # its 5 (15 -> 5) also loses 10 but keeps all 8 species.
    score = scored("A3 A4 A5 B3 B4 B5 C5 D5 E5 F5 G5 H5")
    assert score.points == 50
    assert score.species == 8
    assert score.reduced in (("A3", "A4"), ("B3", "B4"))


def test_during_the_game_the_summary_scores_the_arks_as_they_are():
    # ann: B2 and a crate, 3; bob: E5 and a crate, 6
    assert summary(opened())["scores"] == [3, 6]


# Ann's ark holds 9 tiles: A1 A2 A3, B5, and the pairs G1 G2, H1 H2 and C1 (its
# pair C2 is in the middle). Ann takes C2: 10 tiles, and the game ends with the
# round when the other seat has made its last turn.
ANN = ["A1", "A2", "A3", "B5", "G1", "G2", "H1", "H2", "C1"]


def test_on_equal_points_the_seat_with_more_species_wins():
    # ann: A herd 15 + B5 = 20 (the G, H and C pairs returned), 2 species;
    # bob takes C5: C5 D5 E5 F5 = 20, 4 species. Neither holds a crate.
    state = position([ANN, ["D5", "E5", "F5"]], [["C2"], ["C5"]], [1, 1])
    s = summary(play(state, take(0, 0), take(1, 0)))
    assert s["finished"]
    assert s["scores"] == [20, 20]
    assert s["winners"] == [1]


def test_equal_points_and_species_share_the_win():
    # ann 20 in 2 species as above; bob: D1 D2 D3 herd 15 + E5 = 20, 2 species
    state = position([ANN, ["D1", "D2", "D3"]], [["C2"], ["E5"]], [1, 1])
    s = summary(play(state, take(0, 0), take(1, 0)))
    assert s["scores"] == [20, 20]
    assert s["winners"] == [0, 1]
