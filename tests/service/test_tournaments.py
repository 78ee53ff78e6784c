"""Tournaments on the service: played through to the winner with the games' own
services, their results told by the games app's hook, withdrawals, the log
rebuilt by verify, the mail, and every bad request a clear 4xx that changes
nothing."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone

from games import enqueue as games_enqueue
from games import services as game_services
from games.models import Game
from notifications.models import Notification
from tests.service.conftest import client_for, make_user, signed_in
from tests.service.endgame_kit import play_to_the_end
from tournaments import log, services
from tournaments.models import Tournament, TournamentEvent
from tournaments.verify import tournament_verify


def running_games(tournament: Tournament) -> list[Game]:
    return list(Game.objects.filter(tournament_table__tournament=tournament,
                                    status=Game.Status.RUNNING).order_by("pk"))


def play_out(tournament: Tournament, *, limit: int = 40) -> Tournament:
    """Every game of the tournament played to its end, each result told to the
    tournament as the games app's task tells it, round after round."""
    for _ in range(limit):
        tournament.refresh_from_db()
        games = running_games(tournament)
        if tournament.status != Tournament.Status.RUNNING or not games:
            return tournament
        for game in games:
            play_to_the_end(game, rng_seed=game.pk)
            services.tournament_game_ended(game.pk)
    raise AssertionError("still running")


@pytest.mark.django_db
def test_a_six_player_swiss_of_three_rounds_with_computer_players_to_the_end(users):
    ann, bob = users[:2]
    t = services.tournament_create(user=ann, name="Autumn Pond", game="pond", format="swiss",
                                   rounds=3, max_players=6, bots="easy")
    services.tournament_join(tournament=t, user=bob)
    services.tournament_start(tournament=t, user=ann)  # four computers fill the places
    t = play_out(t)
    assert t.status == Tournament.Status.FINISHED
    state = services.state_of(t)
    assert len(state.entrants) == 6 and len(state.computers) == 4
    assert [len(r.tables) for r in state.rounds] == [3, 3, 3]
    assert all(not r.byes for r in state.rounds)
    pairs = Counter(frozenset(tb.players) for r in state.rounds for tb in r.tables)
    assert set(pairs.values()) == {1}  # no pair twice
    standings = t.projection["standings"]
    # 9 games, each worth 1 point in all (a draw splits it)
    assert sum(float(row["points"]) for row in standings) == 9
    assert t.projection["winner"] == standings[0]["user"] and standings[1]["rank"] > 1 \
        or t.projection["winner"] is None
    assert tournament_verify(t) == []
    # the log's fold is what is stored
    assert services.projection(log.fold(services.events_of(t))) == t.projection
    # the people were mailed each round and the end; the computers nothing
    mails = Notification.objects.filter(kind=Notification.Kind.TOURNAMENT)
    assert {m.user_id for m in mails} == {ann.pk, bob.pk}
    subjects = sorted(m.subject for m in mails if m.user_id == ann.pk)
    place = next(row["rank"] for row in standings if row["user"] == ann.pk)
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
    assert subjects == sorted([f"Autumn Pond: round {n} has started: your games"
                               for n in (1, 2, 3)]
                              + [f"Autumn Pond is over: you finished {place}{suffix} of 6"])


@pytest.mark.django_db
def test_a_games_end_is_recorded_by_its_follower_of_the_change(
        users, monkeypatch, django_capture_on_commit_callbacks):
    ann, bob = users[:2]
    enqueued = []
    monkeypatch.setattr(games_enqueue, "enqueue", lambda task, *args, **_: enqueued.append(
        (task["task"] if isinstance(task, dict) else task.name, args)) or True)
    t = services.tournament_create(user=ann, name="Final", game="pond", format="knockout",
                                   max_players=2)
    services.tournament_join(tournament=t, user=bob)  # full: it starts
    [game] = running_games(t)
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(game)  # no call to the tournament here
    assert ("tournaments.tasks.tournament_game_ended", (game.pk,)) in enqueued
    # the task the hook enqueued, as a worker runs it (registered by its name)
    assert current_app.tasks["tournaments.tasks.tournament_game_ended"].apply(
        args=[game.pk]).get() is True
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    state = services.state_of(t)
    [places] = state.rounds[0].tables[0].places.values()
    winner = min(places, key=places.__getitem__)
    assert t.projection["winner"] == (winner if sorted(places.values()) == [1, 2] else None)
    assert [e.type for e in TournamentEvent.objects.filter(tournament=t)] == [
        "created", "joined", "joined", "started", "round_paired", "result_recorded",
        "finished"]
    assert tournament_verify(t) == []


@pytest.mark.django_db
def test_an_unrated_tournaments_games_between_people_move_no_rating(users):
    from ratings.models import RatedGame, Rating
    from ratings.services import ratings_update

    ann, bob = users[:2]
    t = services.tournament_create(user=ann, name="Friendly", game="pond", format="knockout",
                                   max_players=2, rated=False)
    services.tournament_join(tournament=t, user=bob)  # full: it starts
    [game] = running_games(t)
    play_to_the_end(game)
    ratings_update(game.pk)
    assert RatedGame.objects.get(game=game).unrated_because == "started as an unrated game"
    assert not Rating.objects.filter(user__in=[ann, bob]).exists()


@pytest.mark.django_db
def test_a_player_out_of_every_game_of_a_round_is_withdrawn_and_not_paired_again(
        users, django_capture_on_commit_callbacks):
    ann, bob, cyd, dee = users
    t = services.tournament_create(user=ann, name="Spring", game="pond", format="swiss",
                                   rounds=2, max_players=4)
    for user in (bob, cyd, dee):
        services.tournament_join(tournament=t, user=user)
    ann_game = next(g for g in running_games(t) if g.seats.filter(user=ann).exists())
    game_services.game_resign(game=ann_game, user=ann)  # her only game of round 1
    services.tournament_game_ended(ann_game.pk)
    for game in running_games(t):
        play_to_the_end(game)
        services.tournament_game_ended(game.pk)
    t.refresh_from_db()
    state = services.state_of(t)
    assert state.withdrawn == {ann.pk: 1}
    # round 2: three players still in, so one bye and one game, without ann
    second = state.rounds[1]
    assert len(second.tables) == 1 and len(second.byes) == 1
    assert ann.pk not in {*second.tables[0].players, *second.byes}
    assert tournament_verify(t) == []


@pytest.mark.django_db
def test_a_round_robin_withdrawal_resigns_the_players_later_games(
        users, django_capture_on_commit_callbacks):
    ann, bob, cyd, dee = users
    t = services.tournament_create(user=ann, name="Club", game="pond", format="round_robin",
                                   max_players=4)
    for user in (bob, cyd, dee):
        services.tournament_join(tournament=t, user=user)
    state = services.state_of(t)
    assert len(state.rounds[0].tables) == 6  # every game of the schedule at once
    first = next(tb for tb in state.rounds[0].tables if tb.part == 1 and ann.pk in tb.players)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.game_resign(game=first.games[0], user=ann)
        services.tournament_game_ended(first.games[0])
    # out of every game of the schedule's round 1: withdrawn, her two other games resigned
    ann_games = Game.objects.filter(tournament_table__tournament=t, seats__user=ann)
    assert all(g.status == Game.Status.FINISHED for g in ann_games)
    for game in ann_games:
        services.tournament_game_ended(game.pk)
    t.refresh_from_db()
    assert services.state_of(t).withdrawn == {ann.pk: 1}
    assert tournament_verify(t) == []


@pytest.mark.django_db
def test_a_knockout_of_five_seeded_by_rating_to_its_final_table(users):
    from ratings.models import Rating

    players = [*users, make_user("eve")]
    # ratings (mu - 3 sigma) 40, 30, 20 and 10, eve unrated (new: below 0): ann the top seed
    for i, user in enumerate(players[:4]):
        Rating.objects.create(user=user, pool="pond", mu=40 - 10 * i + 3 * 2, sigma=2)
    t = services.tournament_create(user=players[0], name="Cup", game="pond",
                                   format="knockout", max_players=5)
    for user in players[1:]:
        services.tournament_join(tournament=t, user=user)
    ann, bob, cyd, dee, eve = players
    state = services.state_of(t)
    assert state.seeding == [u.pk for u in players]
    # byes to the three top seeds; 4 v 5
    assert state.rounds[0].slots == ((ann.pk,), (dee.pk, eve.pk), (bob.pk,), (cyd.pk,))

    def lose(*losers):  # each loser resigns their game of the round
        t.refresh_from_db()
        for game in running_games(t):
            [loser] = [u for u in losers if game.seats.filter(user=u).exists()]
            game_services.game_resign(game=game, user=loser)
            services.tournament_game_ended(game.pk)

    lose(dee)  # eve beats dee and meets ann; bob meets cyd
    assert [t_.players for t_ in services.state_of(t).rounds[1].tables] == [
        (ann.pk, eve.pk), (bob.pk, cyd.pk)]
    lose(eve, bob)
    lose(ann)  # cyd wins the final
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.projection["winner"] == cyd.pk
    # out in the same round: the same place, the better seed first
    assert [(r["user"], r["rank"]) for r in t.projection["standings"]] == [
        (cyd.pk, 1), (ann.pk, 2), (bob.pk, 3), (eve.pk, 3), (dee.pk, 5)]
    assert tournament_verify(t) == []


@pytest.mark.django_db
def test_a_round_robin_of_tables_of_three_every_pair_meets(users):
    ann, bob, cyd, dee = users
    t = services.tournament_create(user=ann, name="Threes", game="make_a_snake",
                                   format="round_robin", table_size=3, max_players=4)
    for user in (bob, cyd, dee):
        services.tournament_join(tournament=t, user=user)
    state = services.state_of(t)
    met = Counter(frozenset(p) for tb in state.rounds[0].tables
                  for p in __import__("itertools").combinations(tb.players, 2))
    assert len(met) == 6 and min(met.values()) >= 1
    assert all(Game.objects.get(pk=tb.games[0]).seat_count == 3
               for tb in state.rounds[0].tables)
    t.refresh_from_db()
    t = play_out(t)
    assert t.status == Tournament.Status.FINISHED and tournament_verify(t) == []


# ---------------------------------------------------------------- the API and pages


@pytest.mark.django_db
def test_the_api_creates_joins_and_shows_a_tournament(users):
    ann, bob = users[:2]
    answer = client_for(ann).post("/api/tournaments/", {
        "name": "Weekly", "game": "marram", "options": {"variant": "classic"},
        "format": "swiss", "rounds": 2, "max_players": 3, "days_per_move": 2},
                                  format="json")
    assert answer.status_code == 201, answer.content
    pk = answer.json()["id"]
    assert answer.json()["projection"]["entrants"][0]["name"] == "ann"
    joined = client_for(bob).post(f"/api/tournaments/{pk}/join/", format="json")
    assert joined.status_code == 200 and joined.json()["entrants"] == 2
    listed = client_for(bob).get("/api/tournaments/?status=open").json()
    assert [t["id"] for t in listed] == [pk]
    log_ = client_for(bob).get(f"/api/tournaments/{pk}/events/").json()
    assert [e["payload"]["type"] for e in log_] == ["created", "joined", "joined"]
    assert client_for(bob).get(f"/api/tournaments/{pk}/verify/").json() == {
        "ok": True, "problems": []}
    schema = client_for(ann).get("/api/schema/", HTTP_ACCEPT="application/json").content
    assert b"/api/tournaments/{tournament_id}/join/" in schema


def _count() -> tuple[int, int]:
    return Tournament.objects.count(), TournamentEvent.objects.count()


BAD_CREATES = [
    ({"table_size": "x"}, "table_size"),
    ({"format": "league"}, "format"),
    ({"game": "chess"}, "game"),
    ({"game": "pond", "table_size": 3}, "table_size"),  # Pond is for two
    ({"format": "knockout", "best_of": 2}, "best_of"),
    ({"format": "knockout", "round_days": 3}, "round_days"),
    ({"rounds": 0}, "rounds"),
    ({"max_players": 1}, "max_players"),
    ({"format": "round_robin", "max_players": 21}, "max_players"),
    ({"name": ""}, "name"),
    ({"name": 12}, "name"),
    ({"start_at": "2001-01-01T00:00:00Z"}, "start_at"),
    ({"colour": "red"}, "colour"),
    ({"options": {"variant": "chess"}}, None),
    ({"bots": "grandmaster"}, "bots"),
    ({"game": "pond", "format": "knockout", "table_size": 3}, "table_size"),
    ({"by_invitation": True, "invited": ["nobody-here"]}, "invited"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("fields", "field"), BAD_CREATES)
def test_a_bad_tournament_is_a_400_that_changes_nothing(users, fields, field):
    body = {"name": "Bad", "game": "marram", "format": "swiss", "rounds": 3, **fields}
    before = _count()
    answer = client_for(users[0]).post("/api/tournaments/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["message"]
    if field is not None:
        assert field in answer.content.decode()
    assert _count() == before


@pytest.mark.django_db
def test_the_list_and_creation_refuse_what_they_do_not_take(users):
    from rest_framework.test import APIClient

    assert client_for(users[0]).get("/api/tournaments/?status=someday").status_code == 400
    assert APIClient().get("/api/tournaments/").status_code == 200  # anyone may read
    anonymous = APIClient().post("/api/tournaments/", {"name": "x", "game": "pond",
                                                       "format": "swiss"}, format="json")
    assert anonymous.status_code in (401, 403) and Tournament.objects.count() == 0
    not_json = client_for(users[0]).post("/api/tournaments/", "{nope",
                                         content_type="application/json")
    assert not_json.status_code == 400 and Tournament.objects.count() == 0
    assert client_for(users[0]).get("/api/tournaments/12345678901234567890/"
                                    ).status_code == 404


@pytest.mark.django_db
def test_joining_leaving_and_starting_refused_with_the_reason(users):
    ann, bob, cyd, dee = users
    t = services.tournament_create(user=ann, name="Small", game="pond", format="swiss",
                                   rounds=1, max_players=3)
    api = {u.get_username(): client_for(u) for u in users}

    def post(who: str, action: str, pk: int = t.pk):
        before = _count()
        answer = api[who].post(f"/api/tournaments/{pk}/{action}/", format="json")
        if answer.status_code >= 400:
            assert _count() == before  # nothing written
        return answer.status_code, answer.json().get("code")

    assert post("ann", "join") == (409, "already_joined")
    assert post("bob", "leave") == (409, "not_joined")
    assert post("bob", "start") == (403, "not_the_creator")  # another's tournament
    assert post("bob", "join", pk=999999) == (404, "no_such_tournament")
    assert api["bob"].post(f"/api/tournaments/{t.pk}/join/", {"x": 1},
                           format="json").status_code == 400
    assert post("bob", "join")[0] == 200
    assert post("bob", "leave")[0] == 200
    assert post("bob", "join")[0] == 200
    assert post("cyd", "join")[0] == 200  # the third: full, it starts
    assert post("dee", "join") == (409, "tournament_not_open")
    assert post("bob", "leave") == (409, "tournament_not_open")
    assert post("ann", "start") == (409, "tournament_not_open")


@pytest.mark.django_db
def test_a_full_tournament_and_an_uninvited_player_are_refused(users, settings):
    ann, bob, cyd, dee = users
    start = timezone.now() + timedelta(days=2)
    t = services.tournament_create(user=ann, name="Closed", game="pond", format="swiss",
                                   rounds=1, max_players=2, start_at=start,
                                   by_invitation=True, invited=["bob", "cyd"])
    assert client_for(dee).post(f"/api/tournaments/{t.pk}/join/").json()["code"] \
        == "not_invited"
    assert client_for(bob).post(f"/api/tournaments/{t.pk}/join/").status_code == 200
    full = client_for(cyd).post(f"/api/tournaments/{t.pk}/join/")
    assert (full.status_code, full.json()["code"]) == (409, "tournament_full")
    # on its date the sweep starts it
    assert services.tournaments_sweep(now=start)["started"] == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and len(running_games(t)) == 1


@pytest.mark.django_db
def test_a_player_may_create_three_tournaments_a_day(users, settings):
    settings.MARRAM_TOURNAMENTS_PER_DAY = 3
    api = client_for(users[0])
    body = {"name": "One of many", "game": "pond", "format": "round_robin"}
    assert [api.post("/api/tournaments/", body, format="json").status_code
            for _ in range(4)] == [201, 201, 201, 409]
    assert Tournament.objects.count() == 3


@pytest.mark.django_db
def test_the_pages_create_list_join_and_follow_a_tournament(users):
    ann, bob = users[:2]
    page = signed_in(ann).post("/tournaments/new/", {
        "name": "Page cup", "game": "pond", "format": "swiss", "table_size": "2",
        "rounds": "2", "best_of": "1", "max_players": "2", "rated": "on", "bots": ""})
    assert page.status_code == 302, page.content.decode()[:2000]
    t = Tournament.objects.get(name="Page cup")
    listed = signed_in(bob).get("/tournaments/").content.decode()
    assert "Page cup" in listed
    assert signed_in(bob).post(f"/tournaments/{t.pk}/join/").status_code == 302
    shown = signed_in(bob).get(f"/tournaments/{t.pk}/").content.decode()
    [game] = running_games(t)
    assert f'href="/games/{game.pk}/"' in shown and f'href="/games/{game.pk}/replay/"' in shown
    assert 'data-player="ann"' in shown and "Buchholz" in shown
    # refused posts say why, with the status, and change nothing
    again = signed_in(bob).post(f"/tournaments/{t.pk}/leave/")
    assert again.status_code == 409 and "has started" in again.content.decode()
    bad = signed_in(ann).post("/tournaments/new/", {"name": "x", "game": "pond",
                                                    "format": "swiss", "table_size": "3",
                                                    "rounds": "2", "best_of": "1",
                                                    "max_players": "4"})
    assert bad.status_code == 400 and Tournament.objects.count() == 1
    assert signed_in(ann).get("/tournaments/99999/").status_code == 404


@pytest.mark.django_db
def test_a_calendar_round_is_paired_at_its_deadline_and_a_late_result_still_counts(users):
    ann, bob, cyd, dee = users
    t = services.tournament_create(user=ann, name="Monthly", game="pond", format="swiss",
                                   rounds=2, max_players=4, round_days=7)
    for user in (bob, cyd, dee):
        services.tournament_join(tournament=t, user=user)
    first, still = running_games(t)
    loser = first.seats.order_by("index").first().user
    game_services.game_resign(game=first, user=loser)
    services.tournament_game_ended(first.pk)
    deadline = timezone.now() + timedelta(days=7)
    assert services.tournaments_sweep(now=deadline - timedelta(hours=1))["rounds"] == 0
    assert services.tournaments_sweep(now=deadline + timedelta(minutes=1))["rounds"] == 1
    state = services.state_of(t)
    assert len(state.rounds) == 2 and not state.rounds[0].done
    # the one who resigned their only game of round 1 is withdrawn: one game and a bye
    assert state.withdrawn == {loser.pk: 1}
    assert len(state.rounds[1].tables) == 1 and len(state.rounds[1].byes) == 1
    # the game of round 1 still running ends, and counts: the sweep finds its result
    play_to_the_end(still)
    for game in running_games(t):
        play_to_the_end(game)
    done = services.tournaments_sweep(now=deadline + timedelta(days=8))
    assert done["results"] == 2 and done["rounds"] == 0  # the last round pairs nothing
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and tournament_verify(t) == []
    # three games and a bye, a point each
    assert sum(float(r["points"]) for r in t.projection["standings"]) == 4


@pytest.mark.django_db
def test_a_round_is_pushed_to_a_players_device_with_the_tournaments_page(users, settings):
    from notifications import push
    from notifications import services as notes
    from tests.service.push_kit import push_service

    private, public = push.key_new()
    settings.MARRAM_VAPID_PRIVATE_KEY = private
    settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    ann, bob = users[:2]
    with push_service(public) as service:
        push.device_add(user=ann, subscription=service.subscribe("phone"), name="phone")
        t = services.tournament_create(user=ann, name="Pushed", game="pond",
                                       format="knockout", max_players=2)
        services.tournament_join(tournament=t, user=bob)
        for pk in Notification.objects.filter(kind__in=["tournament", "push_tournament"],
                                              status="pending").values_list("pk", flat=True):
            notes.notification_deliver(pk)
        for pk in Notification.objects.filter(kind="push_tournament", status="pending"
                                              ).values_list("pk", flat=True):
            notes.notification_deliver(pk)  # the row to each device the first one made
        [message] = [p.message for p in service.to("phone") if p.message["kind"]
                     == "push_tournament"]
    assert (message["title"], message["body"], message["url"]) == (
        "Pushed", "Round 1: 1 game to play", f"/tournaments/{t.pk}/")


@pytest.mark.django_db
def test_the_admin_shows_the_log_and_verifies_and_the_log_is_append_only(users, admin_client):
    from django.db import DatabaseError, transaction

    ann, bob = users[:2]
    t = services.tournament_create(user=ann, name="Audited", game="pond", format="knockout",
                                   max_players=2)
    services.tournament_join(tournament=t, user=bob)
    page = admin_client.get(f"/admin/tournaments/tournament/{t.pk}/change/")
    assert page.status_code == 200 and b"round_paired" in page.content
    assert t.seed.encode() not in page.content  # secret until the end
    verified = admin_client.post("/admin/tournaments/tournament/", {
        "action": "verify", "_selected_action": [t.pk]}, follow=True)
    assert b"every round and result checks out" in verified.content
    # a projection changed behind the log's back is found
    Tournament.objects.filter(pk=t.pk).update(projection={"standings": []})
    t.refresh_from_db()
    assert tournament_verify(t) == ["the stored projection differs from the log's"]
    event = TournamentEvent.objects.filter(tournament=t).first()
    with pytest.raises(DatabaseError), transaction.atomic():
        TournamentEvent.objects.filter(pk=event.pk).update(type="forged")
    with pytest.raises(DatabaseError), transaction.atomic():
        TournamentEvent.objects.filter(pk=event.pk).delete()
