"""The setup: each seat draws three tiles and keeps one in secret, all of them
at the same time and in any order; then the others go face up into the middle
and the first round is dealt."""
from __future__ import annotations

import pytest

from engine.animals_on_board import GAME
from engine.errors import IllegalAction

from .helpers import OPENING, keep, opened, pass_, play, split, start, summary, timeout


def test_every_seat_is_awaited_at_once_for_its_secret_keep():
    state = start(*OPENING)
    wait = GAME.awaiting(state)
    assert wait.players == (0, 1)
    assert [t.kind for t in wait.tasks] == ["keep", "keep"]
    assert summary(state)["awaiting"] == [0, 1]
    assert summary(state)["current_player"] is None


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_keeps_come_in_any_order_and_the_same_round_follows(order):
    kept = {0: keep(0, "B2"), 1: keep(1, "E5")}
    first = play(start(*OPENING), kept[order[0]])
    # only the seat that has not kept yet is still awaited
    assert GAME.awaiting(first).players == (order[1],)
    done = play(first, kept[order[1]])
    assert summary(done) == summary(opened())


def test_a_seat_keeps_one_of_its_own_three_tiles():
    state = start(*OPENING)
    with pytest.raises(IllegalAction) as e:  # D4 is bob's, not ann's
        play(state, keep(0, "D4"))
    assert e.value.code == "not_your_tile"
    with pytest.raises(IllegalAction) as e:  # ann has kept already
        play(state, keep(0, "B2"), keep(0, "A1"))
    assert e.value.code == "not_your_turn"


def test_nothing_but_keeps_during_the_setup():
    with pytest.raises(IllegalAction) as e:
        play(start(*OPENING), split(0, 0, "A1"))
    assert e.value.code == "wrong_action"


def test_the_others_go_face_up_and_the_stack_deals_the_first_round():
    # ann kept B2 and bob E5: A1 C3 (ann's) and D4 F1 (bob's) go into the middle,
    # the stack adds G2 H3 A4 B5 to make 8 face up, then C1 face down.
    s = summary(opened())
    assert s["middle"] == [["A1", "A4", "B5", "C3", "D4", "F1", "G2", "H3", "?"]]
    assert s["arks"] == [["B2"], ["E5"]]
    assert s["round"] == 1
    assert s["current_player"] == 0 and s["start_player"] == 0
    assert s["in_round"] == [0, 1]
    assert s["crates"] == [1, 1]
    assert s["stack"] == 40 - 6 - 4 - 1


@pytest.mark.parametrize(("seats", "face_up"), [(3, 10), (4, 12)])
def test_three_and_four_players_start_with_ten_and_twelve_face_up(seats, face_up):
    state = start(seats=seats)
    deck = GAME.config(state)["deck"]
    # each seat keeps its first tile: 2 a seat go into the middle
    state = play(state, *(keep(s, deck[3 * s]) for s in range(seats)))
    (group,) = summary(state)["middle"]
    assert len(group) == face_up + 1 and group[-1] == "?"
    assert group.count("?") == 1
    assert summary(state)["stack"] == 10 * seats + 20 - 3 * seats - (face_up - 2 * seats) - 1


def test_a_seat_out_of_time_at_the_setup_keeps_the_first_of_its_three():
    state = play(start(*OPENING), timeout(1), keep(0, "B2"))
    # bob drew D4 E5 F1: D4 is the first
    assert summary(state)["arks"] == [["B2"], ["D4"]]
    assert GAME.awaiting(state).players == (0,)


def test_a_keep_is_unaffected_by_the_other_seats_keeps_made_meanwhile():
    """The keeps are simultaneous and secret: cat's keep judged after ann's and
    bob's is the keep she chose from her three tiles, so the platform judges it
    rather than refusing it as stale."""
    first = ("A1", "B2", "C3", "D4", "E5", "F1", "G2", "H3", "A4")  # cat drew G2 H3 A4
    before = start(*first, seats=3)
    since = [keep(0, "B2"), timeout(1)]  # bob's time ran out: he keeps D4, his first
    now = play(before, *since)
    assert GAME.legal_actions(now, 2) == GAME.legal_actions(before, 2)
    assert GAME.unaffected(now, since, 2)
    # but not a seat's own keep since, nor a setup that is over
    assert not GAME.unaffected(play(before, keep(0, "B2")), [keep(0, "B2")], 0)
    done = play(now, keep(2, "H3"))
    assert not GAME.unaffected(done, [*since, keep(2, "H3")], 2)


def test_a_turn_in_a_round_is_never_unaffected_by_what_came_since():
    state = opened()
    mover = GAME.awaiting(state).players[0]
    other = 1 - mover
    assert not GAME.unaffected(state, [pass_(other)], mover)
