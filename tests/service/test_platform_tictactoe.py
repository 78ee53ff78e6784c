"""A game the platform has never heard of, registered by the tests (tic-tac-toe,
tests/engine/tictactoe.py), played through the whole platform with no change to
games/ or notifications/: the lobby and its options, moves and their errors,
both seats' clocks running at once (the secret opening), timeouts, turn mail
and a move by mail, the replay, the record, and its import."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from engine import registry
from games import services
from games.management.commands.verify_fairness import Command as VerifyFairness
from games.management.commands.verify_game import game_problems
from games.models import Clock, Event, Game
from games.selectors import game_record_get
from notifications import services as notes
from notifications.inbound import inbound_mail_handle
from notifications.models import Notification
from tests.engine.tictactoe import GAME as TICTACTOE
from tests.service.conftest import body, client_for, make_user, seat_user
from tests.service.mail_kit import reply_bytes


@pytest.fixture(autouse=True)
def tictactoe():
    registry.register(TICTACTOE)
    yield TICTACTOE
    registry.unregister(TICTACTOE.key)


@pytest.fixture
def ann(users):
    return users[0]


@pytest.fixture
def bob(users):
    return users[1]


def create(client, **fields) -> dict:
    answer = client.post("/api/games/", {"game": "tictactoe", "seats": 2, **fields},
                         format="json")
    assert answer.status_code == 201, answer.content
    return body(answer)


def started(ann, bob, options: dict) -> Game:
    created = create(client_for(ann), options=options, days_per_move=1)
    joined = client_for(bob).post(f"/api/games/{created['id']}/join/", format="json")
    assert joined.status_code == 200, joined.content
    return Game.objects.get(pk=created["id"])


def act(user, game: Game, action: dict, expect: int = 201) -> dict:
    game.refresh_from_db()
    answer = client_for(user).post(f"/api/games/{game.pk}/actions/",
                                   {"seq": game.seq, "action": action}, format="json")
    assert answer.status_code == expect, answer.content
    return body(answer)


def running_clocks(game: Game) -> list[int]:
    return sorted(Clock.objects.filter(game=game, started_at__isnull=False)
                  .values_list("seat", flat=True))


def test_the_lobby_offers_the_registered_game_with_its_options(ann):
    kinds = {k["game"]: k for k in body(client_for(ann).get("/api/games/kinds/"))["games"]}
    assert set(kinds) >= {"marram", "tictactoe"}
    assert kinds["tictactoe"]["seats"] == [2]
    assert [o["name"] for o in kinds["tictactoe"]["options"]] == ["opening", "misere"]
    created = create(client_for(ann), options={"misere": True})
    game = Game.objects.get(pk=created["id"])
    assert (game.game, game.options) == ("tictactoe", {"opening": "plain", "misere": True})
    assert created["title"] == "Tic-tac-toe · X moves first · three in a row loses"
    # bad options change nothing, each a 400 naming its field
    before = Game.objects.count()
    for fields, field in (({"options": {"opening": "blind"}}, "options.opening"),
                          ({"options": {"size": 4}}, "options.size"),
                          ({"seats": 3}, "seats"),
                          ({"game": "chess"}, "game")):
        answer = client_for(ann).post("/api/games/", {"game": "tictactoe", "seats": 2,
                                                      **fields}, format="json")
        assert answer.status_code == 400 and body(answer)["field"] == field, answer.content
    assert Game.objects.count() == before
    # the lobby page's form has the game and its own options
    page = client_for(ann)
    page.force_login(ann)
    html = page.get("/lobby/").content.decode()
    assert "Tic-tac-toe" in html and 'name="tictactoe__opening"' in html
    made = page.post("/lobby/", {"game": "tictactoe", "tictactoe__opening": "dice",
                                 "tictactoe__misere": "False", "seats": 2})
    assert made.status_code == 302, made.content.decode()[-2000:]
    assert Game.objects.order_by("-pk").first().options == {"opening": "dice", "misere": False}


def test_secret_choices_run_both_clocks_and_hide_each_other(ann, bob, settings,
                                                            django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = started(ann, bob, {"opening": "secret"})
    game.refresh_from_db()
    assert game.projection["to_act"] == [0, 1] and game.projection["awaiting"]["kind"] == \
        "several"
    assert running_clocks(game) == [0, 1]  # both seats are awaited: both clocks run
    turn_mail = Notification.objects.filter(game=game, kind="your_turn")
    assert sorted(turn_mail.values_list("seat", flat=True)) == [0, 1]

    first = seat_user(game, 0)
    second = seat_user(game, 1)
    act(first, game, {"type": "choose", "cell": 4})
    game.refresh_from_db()
    assert game.projection["to_act"] == [1] and running_clocks(game) == [1]
    # the other seat does not see the choice; the chooser does
    theirs = body(client_for(second).get(f"/api/games/{game.pk}/"))["state"]
    mine = body(client_for(first).get(f"/api/games/{game.pk}/"))["state"]
    assert theirs["board"] == "........." and mine["board"] == "....x...."
    # an action out of turn, a server's event and an unknown field change nothing
    events = Event.objects.count()
    assert act(first, game, {"type": "choose", "cell": 1}, 403)["code"] == "not_your_turn"
    assert act(second, game, {"type": "first", "seat": 1}, 400)["code"] == \
        "not_a_player_action"
    assert act(second, game, {"type": "timeout"}, 400)["code"] == "not_a_player_action"
    assert act(second, game, {"type": "choose", "cell": 99}, 400)["code"] == "bad_cell"
    assert Event.objects.count() == events

    # the second seat's time runs out: the game's own timeout event is appended
    clock = Clock.objects.get(game=game, seat=1)
    later = clock.started_at + timedelta(days=3)
    assert services.clock_expire(game_id=game.pk, seat=1, now=later) is not None
    game.refresh_from_db()
    assert Event.objects.filter(game=game).order_by("-seq").first().payload == \
        {"type": "timeout", "player": 1}
    assert game.projection["awaiting"] == {"kind": "mark", "player": 0}
    assert running_clocks(game) == [0]
    assert game_problems(game) == []


def test_a_whole_game_with_a_move_by_mail_a_replay_a_record_and_an_import(
        ann, bob, settings, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = started(ann, bob, {"opening": "dice"})
    game.refresh_from_db()
    # the die was drawn from the seed: the game waits for the seat it chose
    [die] = Event.objects.filter(game=game, type="first")
    mover = die.payload["seat"]
    assert game.projection["to_act"] == [mover]
    assert body(client_for(seat_user(game, mover)).post(
        f"/api/games/{game.pk}/query/lines/", {"args": {}}, format="json"))["answer"] == \
        [list(line) for line in ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7),
                                 (2, 5, 8), (0, 4, 8), (2, 4, 6))]

    # the turn mail is the game's own, with a reply address that plays
    turn = Notification.objects.get(game=game, seat=mover, kind="your_turn")
    assert notes.notification_deliver(turn.pk) == "sent"
    [sent] = mail.outbox
    assert sent.subject == f"Tic-tac-toe game {game.pk}: your move"
    assert "Please mark a free cell: reply 'mark 1'." in sent.body
    user = seat_user(game, mover)
    with django_capture_on_commit_callbacks(execute=True):
        result = inbound_mail_handle(reply_bytes(
            sender=user.email, to=sent.reply_to[0], body="mark 5\n",
            subject=f"Re: {sent.subject}", message_id="<ttt@client.example>"))
    assert result.outcome == "played", result.message
    game.refresh_from_db()
    assert Event.objects.filter(game=game).order_by("-seq").first().payload == \
        {"type": "mark", "player": mover, "cell": 4}

    # play on to the end: X takes the middle column
    other = 1 - mover
    for seat, cell in ((other, 0), (mover, 1), (other, 2), (mover, 7)):
        act(seat_user(game, seat), game, {"type": "mark", "cell": cell})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.projection["winners"] == [mover]
    assert Notification.objects.filter(game=game, kind="game_over").count() == 2
    assert game_problems(game) == [] and VerifyFairness().problems(game) == []

    # the replay, step by step, in the game's words
    client = client_for(ann)
    client.force_login(ann)
    steps = client.get(f"/games/{game.pk}/replay/steps.json").json()
    assert steps["count"] == game.seq and steps["players"] == game.config["players"]
    assert steps["steps"][1]["text"].startswith("the die says")
    last = client.get(f"/games/{game.pk}/replay/steps.json", {"at": game.seq}).json()
    assert last["view"]["finished"] is True
    assert client.get(f"/games/{game.pk}/replay/").status_code == 200
    assert client.get(f"/games/{game.pk}/").status_code == 200

    # the record, and its import by staff as a new game that verifies
    record = body(client.get(f"/api/games/{game.pk}/record/"))
    assert record == game_record_get(game) and record["format"] == "tictactoe-game-record"
    staff = client_for(make_user("admin", staff=True))
    imported = staff.post("/api/games/import/", record, format="json")
    assert imported.status_code == 201, imported.content
    copy = Game.objects.get(pk=body(imported)["id"])
    assert (copy.game, copy.options, copy.seq) == ("tictactoe", game.options, game.seq)
    assert game_problems(copy) == [] and copy.projection == game.projection
    # a record whose die does not follow from its seed is refused, and nothing stored
    forged = {**record, "events": [{"type": "first", "seat": other}, *record["events"][1:]]}
    games = Game.objects.count()
    refused = staff.post("/api/games/import/", forged, format="json")
    assert refused.status_code == 400 and Game.objects.count() == games
    assert timezone.now() >= game.finished_at
