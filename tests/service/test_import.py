"""Staff import finished games from records that reveal their seed; the record
is replayed and checked against the seed before anything is stored."""

import copy

import pytest

from games import services
from games.models import Event, Game
from games.selectors import game_record_get
from tests.service.conftest import body, client_for, make_user, play, start_game


@pytest.fixture
def record(db) -> dict:
    ann, bob = make_user("ann"), make_user("bob")
    game = play(start_game([ann, bob], variant="animals"),
                until=lambda s: s.creatures["fly"].hops >= 1)
    services.game_resign(game=game, user=ann)
    game.refresh_from_db()
    return game_record_get(game)


@pytest.fixture
def staff(db):
    return client_for(make_user("admin", staff=True))


def test_staff_import_a_fair_record(record, staff):
    games, events = Game.objects.count(), Event.objects.count()

    response = staff.post("/api/games/import/", record, format="json")

    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=body(response)["id"])
    assert game.status == Game.Status.FINISHED and game.seq == len(record["events"])
    assert Game.objects.count() == games + 1
    assert Event.objects.count() == events + len(record["events"])
    assert game_record_get(game)["events"] == record["events"]
    # a name alone links no account: ann and bob here need not be the record's
    seats = game.seats.order_by("index")
    assert [(s.name, s.user) for s in seats] == [(n, None) for n in record["config"]["players"]]
    assert not Event.objects.filter(game=game).exclude(actor=None).exists()


def test_staff_may_link_the_players_to_accounts(record, staff):
    first, second = record["config"]["players"]
    cyd = make_user("cyd")
    response = staff.post("/api/games/import/", {**record, "accounts": {first: "cyd"}},
                          format="json")
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=body(response)["id"])
    assert [(s.name, s.user) for s in game.seats.order_by("index")] == [(first, cyd),
                                                                        (second, None)]
    assert game_record_get(game)["events"] == record["events"]
    # the same mapping gives the events their actors: cyd's seat's moves are cyd's
    events = Event.objects.filter(game=game)
    players = {"place", "flip", "pass", "guess", "resign"}
    assert {e.actor for e in events if e.type in players and e.payload["player"] == 0} == {cyd}
    assert not events.exclude(actor=None).exclude(actor=cyd).exists()
    chance = events.filter(type__in=["creature_appears", "hop"])
    assert chance.exists() and not chance.exclude(actor=None).exists()


@pytest.mark.parametrize(("accounts", "problem"), [
    ({"nobody": "cyd"}, "'nobody' is not a player of this game"),
    ({"ann": "zed"}, "there is no account 'zed' (for 'ann')"),
    ({"ann": "cyd", "bob": "cyd"}, "an account can play only one seat"),
])
def test_a_mapping_that_does_not_fit_is_refused(record, staff, accounts, problem):
    make_user("cyd")
    games = Game.objects.count()
    response = staff.post("/api/games/import/", {**record, "accounts": accounts},
                          format="json")
    assert response.status_code == 400, response.content
    assert body(response)["code"] == "bad_accounts" and problem in body(response)["problems"]
    assert Game.objects.count() == games


@pytest.mark.parametrize(
    ("tamper", "code"),
    [
        (lambda r: r["fairness"].update(seed="ab" * 32), "unfair_record"),
        (lambda r: r["config"]["deck"].reverse(), "unfair_record"),
        (lambda r: next(e for e in r["events"] if e["type"] == "hop").update(to=[99, 99]),
         "unfair_record"),
        (lambda r: r.pop("fairness"), "bad_record"),
        (lambda r: r["fairness"].update(seed="not hex"), "bad_record"),
        (lambda r: r.update(format="chess-pgn"), "bad_record"),
        (lambda r: r.update(events=r["events"][:-1]), "bad_record"),  # not finished
        # an event carrying what its rules do not define is never stored
        (lambda r: next(e for e in r["events"] if e["type"] == "place").update(note="x"),
         "bad_record"),
        (lambda r: next(e for e in r["events"] if e["type"] == "place").update(
            claim={"arc": 0, "junk": "x" * 1000}), "bad_record"),
    ],
)
def test_a_bad_record_is_refused_with_its_problems(record, staff, tamper, code):
    bad = copy.deepcopy(record)
    tamper(bad)
    games, events = Game.objects.count(), Event.objects.count()

    response = staff.post("/api/games/import/", bad, format="json")

    assert response.status_code == 400, response.content
    data = body(response)
    assert data["code"] == code and data["problems"], data
    assert (Game.objects.count(), Event.objects.count()) == (games, events)


def test_only_staff_import(record):
    response = client_for(make_user("eve")).post("/api/games/import/", record, format="json")
    assert response.status_code == 403
    bad = client_for(make_user("root", staff=True)).post("/api/games/import/", [1, 2],
                                                         format="json")
    assert bad.status_code == 400
