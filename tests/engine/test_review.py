"""The review of a finished game (engine.bots.review): what the strong bot would
have played, what each move cost, and that a review repeats."""
from __future__ import annotations

import pytest

from engine import registry
from engine.bots.review import Budget, marked, review_game, review_move, review_rng
from engine.selfplay import play

from .tictactoe import GAME as TTT

SMALL = Budget(playouts=24, samples=4)


def _mark(seat: int, cell: int) -> dict[str, object]:
    return {"type": "mark", "player": seat, "cell": cell}


def test_a_missed_win_costs_the_win_and_the_loss_that_followed():
    # X . .      X holds 0 and 1, O holds 3 and 4; X to move. Marking 2 wins at
    # O O .      once (X's margin: 1 - 0 = 1); X marked 8 instead, and O's best
    # . . X?     reply completes 3-4-5 (X's margin: 0 - 1 = -1): the move cost 2.
    state = TTT.start(TTT.setup({"opening": "plain", "misere": False}, ["x", "o"], "s"))
    for seat, cell in ((0, 0), (1, 3), (0, 1), (1, 4)):
        state = TTT.fold(state, _mark(seat, cell))
    review = review_move(TTT, state, 0, _mark(0, 8), review_rng("s", 4, 0), 4,
                         Budget(playouts=200, samples=2))
    assert review.suggested == review.best == _mark(0, 2)
    assert (review.value_best, review.value_played, review.cost) == (1.0, -1.0, 2.0)
    assert review.choices == 5


def test_the_search_s_own_choice_costs_nothing():
    state = TTT.start(TTT.setup({"opening": "plain", "misere": False}, ["x", "o"], "s"))
    for seat, cell in ((0, 0), (1, 3), (0, 1), (1, 4)):
        state = TTT.fold(state, _mark(seat, cell))
    review = review_move(TTT, state, 0, _mark(0, 2), review_rng("s", 4, 0), 4,
                         Budget(playouts=200, samples=2))
    assert review.best == review.played == _mark(0, 2)
    assert review.cost == 0.0 and review.value_best == review.value_played == 1.0


@pytest.mark.parametrize("key", [g.key for g in registry.games()])
def test_every_game_s_review_judges_each_move_of_the_seat_and_repeats(key):
    game = registry.get(key)
    options = {o.name: o.default for o in game.options_declared}
    _, record = play(game, options, ["a", "b"], 5)
    events = [game.read_event(e) for e in record["events"]]
    start = game.start(record["config"])
    seed = record["fairness"]["seed"]  # type: ignore[index]

    def first_moves(index: int, event: object) -> bool:
        return index < 4

    reviews = review_game(game, start, events, first_moves, seed, SMALL)
    movers, state = [], game.copy(start)
    for i, e in enumerate(events[:4]):
        seat = e.get("player")
        if isinstance(seat, int) and game.automatic(state) is None \
                and e["type"] in {a["type"] for a in game.legal_actions(state, seat)}:
            movers.append((i, e["player"]))
        state = game.fold(state, e)
    assert [(r.index, r.seat) for r in reviews] == movers
    for r in reviews:
        assert r.cost >= 0 and r.cost == r.value_best - r.value_played
        assert r.best in (r.played, r.suggested)
        if r.played == r.suggested:
            assert r.cost == 0
    assert review_game(game, start, events, first_moves, seed, SMALL) == [
        r for r in reviews]  # the same seed, the same review (CPU times aside)


def test_the_costliest_moves_of_each_seat_are_marked():
    game = registry.get("pond")
    _, record = play(game, {o.name: o.default for o in game.options_declared}, ["a", "b"], 3)
    events = [game.read_event(e) for e in record["events"]]
    reviews = review_game(game, game.start(record["config"]), events, lambda i, e: True,
                          record["fairness"]["seed"], SMALL)  # type: ignore[index]
    shown = marked(reviews)
    for seat in (0, 1):
        costs = sorted((r.cost for r in reviews if r.seat == seat), reverse=True)
        mine = [r for r in reviews if r.seat == seat and r.index in shown]
        assert len(mine) == min(3, sum(c > 0 for c in costs))
        assert sorted((r.cost for r in mine), reverse=True) == costs[:len(mine)]
