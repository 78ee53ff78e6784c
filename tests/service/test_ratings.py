"""Ratings: openskill's Plackett-Luce model over each game's standings.

The expected numbers are worked out here from the model's formulas (Weng and Lin
2011, Algorithm 4, with openskill's documented defaults: mu 25, sigma 25/3, beta
25/6, tau 25/300 added to sigma first, gamma = sigma / c, kappa 0.0001 as the
floor; players who tie share a rank, A_q counting them), not by calling the code
under test or openskill."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services as game_services
from games.models import Game, Seat
from ratings import services
from ratings.models import RatedChoice, RatedGame, Rating, RatingChange
from tests.service.conftest import make_user, start_game
from tests.service.mail_kit import eager_tasks

MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300, 0.0001


Skill = tuple[float, float]


def plackett_luce(players: list[Skill], ranks: list[int]) -> list[Skill]:
    """(mu, sigma) of each one-player team after a game finished in ``ranks``."""
    sigmas = [math.sqrt(s * s + TAU * TAU) for _, s in players]
    mus = [m for m, _ in players]
    n = len(players)
    c = math.sqrt(sum(s * s + BETA * BETA for s in sigmas))
    # sum over the players who did not finish ahead of q; how many share q's rank
    sum_q = [sum(math.exp(mus[s] / c) for s in range(n) if ranks[s] >= ranks[q])
             for q in range(n)]
    a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            p = math.exp(mus[i] / c) / sum_q[q]
            omega += ((1 if q == i else 0) - p) / a[q]
            delta += p * (1 - p) / a[q]
        var = sigmas[i] ** 2
        omega *= var / c
        delta *= (sigmas[i] / c) * var / c ** 2
        out.append((mus[i] + omega, sigmas[i] * math.sqrt(max(1 - delta, KAPPA))))
    return out


def finished(players: list, scores: list, *, key: str = "marram", out: tuple = (),
             better: str = "higher", cooperative: bool = False, winners: list | None = None,
             minutes: int = 0) -> Game:
    """A game as the platform stores it once over: seats in play order, the
    projection the game's rules gave it."""
    now = timezone.now() + timedelta(minutes=minutes)
    if winners is None:
        live = [s for s in range(len(players)) if s not in out]
        best = (min if better == "lower" else max)(scores[s] for s in live)
        winners = [s for s in live if scores[s] == best]
    game = Game.objects.create(
        game=key, options={}, seat_count=len(players), status=Game.Status.FINISHED,
        created_by=players[0], started_at=now - timedelta(days=3), finished_at=now,
        rules_version="1", seq=10, config={},
        projection={"finished": True, "scores": scores, "winners": winners, "to_act": [],
                    "resigned": list(out), "better": better, "cooperative": cooperative})
    for index, user in enumerate(players):
        Seat.objects.create(game=game, user=user, name=user.username, index=index)
    return game


def stored(user, pool: str = "marram") -> tuple[float, float]:
    rating = Rating.objects.get(user=user, pool=pool)
    return rating.mu, rating.sigma


def assert_close(got: tuple[float, float], want: tuple[float, float]) -> None:
    assert got == pytest.approx(want, abs=1e-9)


def test_two_players_the_winner_gains_what_the_loser_loses(users):
    ann, bob = users[:2]
    game = finished([ann, bob], [31, 24])
    services.ratings_update(game.pk)
    want = plackett_luce([(MU, SIGMA)] * 2, [1, 2])
    assert_close(stored(ann), want[0])
    assert_close(stored(bob), want[1])
    assert stored(ann)[0] > MU > stored(bob)[0]
    change = RatingChange.objects.get(user=ann)
    assert (change.rank, change.mu_before, change.seat) == (1, MU, 0)
    assert change.delta > 0 > RatingChange.objects.get(user=bob).delta


def test_three_players_two_tie_for_first(users):
    ann, bob, cyd = users[:3]
    # ann and cyd both score 10: they share first place; bob is third
    game = finished([ann, bob, cyd], [10, 5, 10])
    services.ratings_update(game.pk)
    want = plackett_luce([(MU, SIGMA)] * 3, [1, 3, 1])
    for user, expected in zip([ann, bob, cyd], want, strict=True):
        assert_close(stored(user), expected)
    assert stored(ann) == pytest.approx(stored(cyd))  # a tie moves both alike
    assert [c.rank for c in RatingChange.objects.order_by("seat")] == [1, 3, 1]


def test_four_players_from_earlier_ratings_with_a_tie_and_a_resignation(users):
    ann, bob, cyd, dee = users
    first = finished([ann, bob], [40, 12], minutes=-10)
    services.ratings_update(first.pk)
    before = [stored(ann), stored(bob), (MU, SIGMA), (MU, SIGMA)]
    # dee resigned with the best score: out, last; bob and cyd tie on 7
    game = finished([ann, bob, cyd, dee], [12, 7, 7, 15], out=(3,))
    services.ratings_update(game.pk)
    want = plackett_luce(before, [1, 2, 2, 4])
    for user, expected in zip(users, want, strict=True):
        assert_close(stored(user), expected)
    assert Rating.objects.get(user=ann).games == 2


def test_lower_scores_win_where_the_game_says_so(users):
    ann, bob = users[:2]
    # Make-a-snake: the shorter distance wins
    game = finished([ann, bob], [3.5, 1.25], key="make_a_snake", better="lower")
    services.ratings_update(game.pk)
    want = plackett_luce([(MU, SIGMA)] * 2, [2, 1])
    assert_close(stored(bob, "make_a_snake"), want[1])
    assert stored(bob, "make_a_snake")[0] > stored(ann, "make_a_snake")[0]
    assert not Rating.objects.filter(pool="marram").exists()  # a pool per game


def test_the_winner_the_rules_name_is_rated_first_whatever_the_scores(users):
    ann, bob, cyd = users[:3]
    # Pond after an elimination: cyd wins with the smallest pile; ann and bob follow
    # by their piles, as the end screen ranks them (engine.protocol.standings)
    game = finished([ann, bob, cyd], [9, 4, 2], key="pond", winners=[2])
    services.ratings_update(game.pk)
    want = plackett_luce([(MU, SIGMA)] * 3, [2, 3, 1])
    for user, expected in zip([ann, bob, cyd], want, strict=True):
        assert_close(stored(user, "pond"), expected)
    assert [c.rank for c in RatingChange.objects.order_by("seat")] == [2, 3, 1]


def test_a_cooperative_game_moves_no_rating(users):
    ann, bob = users[:2]
    game = finished([ann, bob], [4, 4], key="make_a_snake", cooperative=True, winners=[0, 1])
    services.ratings_update(game.pk)
    record = RatedGame.objects.get(game=game)
    assert not record.rated and "co-operative" in record.unrated_because
    assert not Rating.objects.exists()


def test_a_game_with_a_computer_player_is_rated_only_if_the_lobby_said_so(users, monkeypatch):
    ann, bob = users[:2]
    computer = make_user("medium-bot")
    monkeypatch.setattr(services, "is_computer", lambda user: user == computer)
    unrated = finished([ann, computer], [10, 20], minutes=-5)
    services.ratings_update(unrated.pk)
    assert "computer" in RatedGame.objects.get(game=unrated).unrated_because
    assert not Rating.objects.exists()
    rated = finished([bob, computer], [10, 20])
    services.rated_choice_set(game=rated, rated=True)
    services.ratings_update(rated.pk)
    assert_close(stored(computer), plackett_luce([(MU, SIGMA)] * 2, [2, 1])[1])
    assert Rating.objects.filter(user=bob).exists()
    assert not Rating.objects.filter(user=ann).exists()


def test_a_game_between_people_started_as_unrated_moves_no_rating(users):
    """A game whose creator (or tournament) said before the start that it is not
    rated is left unrated, though only people played it; the same game without
    that word is rated."""
    ann, bob = users[:2]
    casual = finished([ann, bob], [31, 24], minutes=-5)
    services.rated_choice_set(game=casual, rated=False)
    services.ratings_update(casual.pk)
    assert RatedGame.objects.get(game=casual).unrated_because == "started as an unrated game"
    assert not Rating.objects.exists()
    game = finished([ann, bob], [31, 24])
    services.ratings_update(game.pk)
    assert RatedGame.objects.get(game=game).rated
    assert_close(stored(ann), plackett_luce([(MU, SIGMA)] * 2, [1, 2])[0])


def test_a_game_is_rated_once_however_often_its_task_runs(users):
    ann, bob = users[:2]
    game = finished([ann, bob], [1, 0])
    assert services.ratings_update(game.pk) == 1
    assert services.ratings_update(game.pk) == 0
    assert services.ratings_sweep() == 0
    assert Rating.objects.get(user=ann).games == 1
    assert services.ratings_update(999_999) == 0  # a game that is gone: nothing


def test_games_left_unrated_by_a_lost_task_are_rated_by_the_sweep_in_finishing_order(users):
    ann, bob, cyd = users[:3]
    earlier = finished([ann, bob], [9, 1], minutes=-20)
    later = finished([bob, cyd], [9, 1])
    assert services.ratings_sweep() == 2
    assert list(RatedGame.objects.values_list("game_id", flat=True)) == [earlier.pk, later.pk]
    bob_after_first = plackett_luce([(MU, SIGMA)] * 2, [1, 2])[1]
    assert_close(stored(bob), plackett_luce([bob_after_first, (MU, SIGMA)], [1, 2])[0])


def snapshot() -> tuple[list, list, list]:
    ratings = sorted(Rating.objects.values_list("user_id", "pool", "mu", "sigma", "games"))
    history = sorted(RatingChange.objects.values_list(
        "rated_game__game_id", "user_id", "rank", "mu_before", "sigma_before",
        "mu_after", "sigma_after"))
    taken = list(RatedGame.objects.order_by("id").values_list("game_id", "rated",
                                                              "unrated_because"))
    return ratings, history, taken


def test_the_rebuild_gives_the_stored_ratings(users):
    ann, bob, cyd, dee = users
    games = [
        finished([ann, bob], [5, 3], minutes=1),
        finished([bob, cyd, dee], [2, 2, 9], minutes=2),
        finished([dee, ann, bob, cyd], [3, 8, 8, 1], out=(0,), minutes=3),
        finished([cyd, ann], [0.5, 2.5], key="make_a_snake", better="lower", minutes=4),
        finished([ann, bob], [3, 3], key="make_a_snake", cooperative=True, winners=[],
                 minutes=5),
        finished([ann, cyd], [1, 7], minutes=6),
    ]
    # rated as their tasks ran, in the order they finished
    for game in games:
        services.ratings_update(game.pk)
    before = snapshot()
    assert len(before[0]) == 6 and len(before[1]) == 13
    call_command("rebuild_ratings", verbosity=0)
    assert snapshot() == before
    # a rating that drifted (a bug, a hand edit) is put right
    Rating.objects.filter(user=ann, pool="marram").update(mu=99.0)
    call_command("rebuild_ratings", verbosity=0)
    assert snapshot() == before


def test_a_game_that_ends_on_the_site_updates_the_ratings_after_its_commit(
        users, settings, django_capture_on_commit_callbacks):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    # the task runs in-process once the resignation commits, as in ./dev run
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        game_services.game_resign(game=game, user=bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    record = RatedGame.objects.get(game=game)
    assert record.rated
    want = plackett_luce([(MU, SIGMA)] * 2, [1, 2])
    assert_close(stored(ann), want[0])
    assert_close(stored(bob), want[1])


def test_a_game_whose_projection_lacks_standings_is_left_unrated_not_failed(users):
    ann, bob = users[:2]
    game = finished([ann, bob], [3], winners=[0])
    assert services.ratings_update(game.pk) == 1
    assert RatedGame.objects.get(game=game).unrated_because == "no final standings for its seats"


def test_an_imported_game_is_not_rated(users):
    ann, bob = users[:2]
    game = finished([ann, bob], [3, 1])
    Game.objects.filter(pk=game.pk).update(started_at=game.finished_at)
    services.ratings_update(game.pk)
    assert not RatedGame.objects.get(game=game).rated
    assert not RatedChoice.objects.exists() and not Rating.objects.exists()
