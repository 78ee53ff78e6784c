"""Computer players on the service (issue 15): games started with bots through the
API, their moves made by the task after each commit (once per position, never
while chance is pending, the same for the same seed), no mail and no clock
against them, the beat sweep, and a bot taking over the seat of a player out of
time twice. The whole game against a bot with a real worker is in
test_bots_worker.py."""

from __future__ import annotations

from unittest import mock

import pytest
from django.test import Client

from bots import services as bots
from bots import tasks as bot_tasks
from bots.hooks import takeover_bot
from bots.models import Bot, GameBots, Takeover
from engine import marram as engine
from engine import registry
from engine.protocol import read_options
from games import services
from games.models import Clock, Event, Game, Seat
from games.selectors import game_state_get
from notifications import services as notes
from notifications.models import Notification
from tests.service.conftest import body, client_for, dealt_from, seat_user, signed_in
from tests.service.mail_kit import eager_tasks, freeze_time

SEED = "5e" * 32


def create(client, expect: int = 201, **fields) -> dict:
    answer = client.post("/api/games/", fields, format="json")
    assert answer.status_code == expect, answer.content
    return body(answer)


def awaited(game: Game) -> tuple[int | None, dict]:
    """The one seat the game awaits (None for none, or several), and what it awaits."""
    game.refresh_from_db()
    wait = game.projection["awaiting"]
    return wait.get("player"), wait


def bot_events(game: Game, level: str) -> list[Event]:
    return list(Event.objects.filter(game=game, actor__bot__level=level).order_by("seq"))


def bot_seat_game(ann, *, game: str = "pond", level: str = "easy", **fields) -> Game:
    """A 2-player game of ann (seat 0) and a bot (seat 1), dealt from SEED."""
    with dealt_from(SEED):
        created = create(client_for(ann), game=game, seats=2, bots=[level], **fields)
    return Game.objects.get(pk=created["id"])


def my_move(game: Game, user) -> None:
    """The user plays the first of their legal actions, through the API."""
    game.refresh_from_db()
    view = body(client_for(user).get(f"/api/games/{game.pk}/"))
    assert view["legal_actions"], view["state"]
    answer = client_for(user).post(f"/api/games/{game.pk}/actions/",
                                   {"seq": view["seq"], "action": view["legal_actions"][0]},
                                   format="json")
    assert answer.status_code == 201, answer.content


# ---------------------------------------------------------------- creating games with bots


@pytest.mark.django_db
def test_a_game_with_a_bot_in_the_other_seat_starts_at_once(users):
    ann = users[0]
    created = create(client_for(ann), game="pond", seats=2, bots=["strong"])
    assert created["status"] == "running"
    names = {p["username"]: p["name"] for p in created["players"]}
    assert names == {"ann": "ann", "Skua (computer, strong)": "Skua (computer, strong)"}
    bot = Bot.objects.get(level="strong")
    assert not bot.user.has_usable_password() and bot.user.email == ""
    # one account a level, shared by every game
    create(client_for(users[1]), game="pond", seats=2, bots=["strong"])
    assert Bot.objects.filter(level="strong").count() == 1
    assert Seat.objects.filter(user=bot.user).count() == 2


@pytest.mark.django_db
def test_bots_fill_some_seats_and_the_game_waits_for_people(users):
    ann, bob = users[:2]
    created = create(client_for(ann), game="marram", seats=4, bots=["easy", "medium"])
    assert created["status"] == "open" and len(created["players"]) == 3
    joined = client_for(bob).post(f"/api/games/{created['id']}/join/", format="json")
    assert body(joined)["status"] == "running"


@pytest.mark.django_db(transaction=True)
def test_a_game_seats_computers_of_one_level_twice_and_both_move(users, settings):
    """Animals on Board for three: the player and two medium computers, each its
    own account of that level (one seat an account), started at once; both move."""
    ann = users[0]
    with eager_tasks(settings):  # the computers' tasks run as each commit enqueues them
        created = create(client_for(ann), game="animals_on_board", seats=3,
                         bots=["medium", "medium"])
        assert created["status"] == "running"
        game = Game.objects.get(pk=created["id"])
        computers = {s.index: s.user for s in game.seats.all() if hasattr(s.user, "bot")}
        assert sorted(u.get_username() for u in computers.values()) == [
            "Tern (computer, medium)", "Tern 2 (computer, medium)"]
        assert {u.bot.level for u in computers.values()} == {"medium"}
        mine = next(s.index for s in game.seats.all() if s.user == ann)
        for _ in range(60):
            moved = {seat for seat, user in computers.items()
                     if Event.objects.filter(game=game, actor=user).exists()}
            game.refresh_from_db()
            if moved == set(computers) or game.status != "running":
                break
            if mine in game.projection["to_act"]:
                my_move(game, ann)
    assert moved == set(computers), (moved, game.projection)
    # another such game takes the same two accounts: made once, shared by every game
    create(client_for(users[1]), game="animals_on_board", seats=3, bots=["medium", "medium"])
    assert Bot.objects.filter(level="medium").count() == 2


@pytest.mark.django_db
def test_the_lobby_and_the_home_page_seat_two_computers_of_one_level(users):
    client = signed_in(users[0])
    lobby = client.get("/lobby/").content.decode()
    assert lobby.count('<select name="bots"') == 3  # a computer for each seat but yours
    answer = client.post("/lobby/", {"game": "marram", "seats": 4,
                                     "bots": ["strong", "", "strong"]})
    assert answer.status_code == 302, answer.content.decode()
    game = Game.objects.get()
    assert sorted(s.name for s in game.seats.all()) == [
        "Skua (computer, strong)", "Skua 2 (computer, strong)", "ann"]
    answer = client.post("/play/computer/", {"game": "animals_on_board",
                                             "computer_1": "easy", "computer_2": "easy"})
    assert answer.status_code == 302, answer.content.decode()
    started = Game.objects.get(game="animals_on_board")
    assert started.status == "running" and sorted(s.name for s in started.seats.all()) == [
        "Plover (computer, easy)", "Plover 2 (computer, easy)", "ann"]


@pytest.mark.parametrize("fields, code, field", [
    ({"game": "pond", "seats": 2, "bots": ["grandmaster"]}, "invalid", "bots.0"),
    ({"game": "pond", "seats": 2, "bots": "easy"}, "invalid", "bots"),
    ({"game": "pond", "seats": 2, "bots": [3]}, "invalid", "bots.0"),
    ({"game": "pond", "seats": 2, "bots": ["easy", "medium"]}, "too_many_bots", "bots"),
    ({"game": "marram", "seats": 2, "bots": ["easy"], "takeover": "medium"},
     "takeover_needs_three", "takeover"),
    ({"game": "marram", "seats": 3, "takeover": "genius"}, "invalid", "takeover"),
    # bots on a game that cannot be made: an unknown game, a seat count or options it
    # does not have
    ({"game": "chess", "seats": 2, "bots": ["easy"]}, "invalid", "game"),
    ({"game": "pond", "seats": 3, "bots": ["easy"]}, "invalid", "seats"),
    ({"game": "marram", "seats": 2, "options": {"variant": "nope"}, "bots": ["easy"]},
     "invalid", "options.variant"),
])
@pytest.mark.django_db
def test_bad_bots_are_a_400_that_changes_nothing(users, fields, code, field):
    answer = create(client_for(users[0]), expect=400, **fields)
    assert answer["code"] == code and answer["field"] == field, answer
    assert answer["message"]
    if "grandmaster" in str(fields):
        assert "the levels are easy, medium, strong" in answer["message"]
    assert not Game.objects.exists() and not Seat.objects.exists()
    assert not Bot.objects.exists() and not GameBots.objects.exists()


@pytest.mark.django_db
def test_the_schema_documents_the_bots(users):
    schema = client_for(users[0]).get("/api/schema/", HTTP_ACCEPT="application/json")
    text = schema.content.decode()
    assert schema.status_code == 200
    assert "takeover" in text and "Computer players to seat at once" in text


# ---------------------------------------------------------------- the bots' moves


@pytest.mark.django_db(transaction=True)
def test_after_each_commit_that_awaits_a_bot_its_task_moves_it(users, settings):
    ann = users[0]
    with eager_tasks(settings):  # tasks run as the commit enqueues them, as in ./dev run
        game = bot_seat_game(ann)
        for _ in range(3):
            if awaited(game)[0] is None:
                break
            assert awaited(game)[0] == 0  # never seen waiting for the bot
            my_move(game, ann)
    moves = bot_events(game, "easy")
    assert len(moves) >= 3
    assert all(e.payload["player"] == 1 and e.actor.get_username() == "Plover (computer, easy)"
               for e in moves)
    # the event list says whose each move was
    listed = body(client_for(ann).get(f"/api/games/{game.pk}/events/"))
    actors = {e["actor"] for e in listed["events"]}
    assert {"ann", "Plover (computer, easy)"} <= actors


@pytest.mark.django_db(transaction=True)
def test_with_tasks_run_in_process_a_moves_answer_shows_the_computers_reply(users, settings):
    """./dev run: the computer's task runs as the move commits, before the answer is
    made, and the answer shows the game as it is by then, as a GET would."""
    ann = users[0]
    with eager_tasks(settings):
        game = bot_seat_game(ann)
        client = client_for(ann)
        view = body(client.get(f"/api/games/{game.pk}/"))
        while True:  # ann's moves until one hands the turn to the computer
            answer = client.post(f"/api/games/{game.pk}/actions/",
                                 {"seq": view["seq"], "action": view["legal_actions"][0]},
                                 format="json")
            assert answer.status_code == 201, answer.content
            if body(answer)["awaiting"].get("player") == 1:
                break
            view = body(answer)["view"]
    shown = body(answer)["view"]
    assert shown["seq"] > body(answer)["seq"]  # the computer's events came after the move's
    assert bot_events(game, "easy") and shown == body(client.get(f"/api/games/{game.pk}/"))


@pytest.mark.django_db
def test_the_task_run_twice_moves_once(users):
    ann = users[0]
    game = bot_seat_game(ann)
    my_move(game, ann)
    game.refresh_from_db()
    seq = game.seq
    assert awaited(game)[0] == 1
    assert bot_tasks.bot_move.apply(args=[game.pk, seq]).get() is True
    assert bot_tasks.bot_move.apply(args=[game.pk, seq]).get() is False
    assert len(bot_events(game, "easy")) == 1
    [moved] = bot_events(game, "easy")
    assert moved.seq == seq and moved.idempotency_key == f"bot:{game.pk}:{seq}:1"


@pytest.mark.django_db
def test_two_runs_that_both_see_the_position_write_one_move(users):
    # the second run checked the seq before the first one committed: the game's lock
    # and the idempotency key leave one move
    ann = users[0]
    game = bot_seat_game(ann)
    my_move(game, ann)
    game.refresh_from_db()
    seq = game.seq
    first = bots.bot_move(game.pk, seq)
    again = services.action_submit(game=game.pk, user=seat_user(game, 1),
                                   action=first.events[0].payload, expected_seq=seq,
                                   idempotency_key=bots.bot_key(game.pk, seq, 1))
    assert again.repeated and Event.objects.filter(game=game).count() == first.seq


@pytest.mark.django_db
def test_a_bot_plays_the_same_move_for_the_same_seed(users):
    ann, bob = users[:2]
    games = [bot_seat_game(ann, level="medium"), bot_seat_game(bob, level="medium")]
    for game, user in zip(games, (ann, bob), strict=True):
        my_move(game, user)
        game.refresh_from_db()
        bots.bot_move(game.pk, game.seq)
    first, second = (bot_events(g, "medium")[0].payload for g in games)
    assert first == second


@pytest.mark.django_db
def test_nothing_is_enqueued_when_people_are_awaited_and_the_bot_is_when_it_is(
        users, django_capture_on_commit_callbacks):
    ann = users[0]
    with mock.patch("games.enqueue.enqueue") as enqueue, \
            django_capture_on_commit_callbacks(execute=True):
        game = bot_seat_game(ann)  # ann (seat 0) to play
    assert not [c for c in enqueue.call_args_list if c.args[0] is bot_tasks.bot_move]
    with mock.patch("games.enqueue.enqueue") as enqueue, \
            django_capture_on_commit_callbacks(execute=True):
        my_move(game, ann)
    game.refresh_from_db()
    assert [c.args for c in enqueue.call_args_list if c.args[0] is bot_tasks.bot_move] == [
        (bot_tasks.bot_move, game.pk, game.seq)]


@pytest.mark.django_db
def test_a_move_between_people_asks_nothing_more_of_the_computer_players(
        users, django_capture_on_commit_callbacks):
    """Whether a computer is to move next comes with the move's read of the
    game's seats: a game of people asks nothing more, and enqueues nothing."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann, bob = users[:2]
    created = create(client_for(ann), game="pond", seats=2)
    client_for(bob).post(f"/api/games/{created['id']}/join/", format="json")
    game = Game.objects.get(pk=created["id"])
    # the queries captured around the commit callbacks too
    with CaptureQueriesContext(connection) as queries, \
            mock.patch("games.enqueue.enqueue") as enqueue, \
            django_capture_on_commit_callbacks(execute=True):
        my_move(game, seat_user(game, awaited(game)[0]))
    assert not [c for c in enqueue.call_args_list if c.args[0] is bot_tasks.bot_move]
    # asked with the move's read of the game, its seats and its clocks, and no more (the
    # turn's end knows from it which clock a computer holds, to be mailed nothing)
    asked = [q["sql"] for q in queries.captured_queries if "bots_bot" in q["sql"]]
    assert len(asked) == 1 and 'FROM "games_game" g ' in asked[0]
    assert 'JOIN "games_clock" k ' in asked[0]
    assert not any('FROM "games_clock"' in q["sql"] for q in queries.captured_queries)


@pytest.mark.django_db
def test_no_bot_move_while_chance_is_pending_then_one_once_it_is_drawn(
        users, settings, django_capture_on_commit_callbacks):
    settings.MARRAM_DRAW_INLINE = False
    ann = users[0]
    game = bot_seat_game(ann, game="marram", options={"variant": "animals"})
    for _ in range(80):  # until a move calls for the fly: 20 tiles on the board
        seat, wait = awaited(game)
        if wait["kind"] == "chance":
            break
        if seat == 1:
            assert bots.bot_move(game.pk, game.seq) is not None
        else:
            services.action_submit(game=game, user=ann, expected_seq=game.seq,
                                   action=engine.legal_actions(game_state_get(game))[0])
    else:
        raise AssertionError("the fly never came")
    before = Event.objects.filter(game=game).count()
    assert bots.bot_move(game.pk, game.seq) is None  # the task, had it been enqueued
    assert Event.objects.filter(game=game).count() == before
    with mock.patch("games.enqueue.enqueue") as enqueue, \
            django_capture_on_commit_callbacks(execute=True):
        services.chance_resolve(game)
    game.refresh_from_db()
    bot_calls = [c.args for c in enqueue.call_args_list if c.args[0] is bot_tasks.bot_move]
    if 1 in game.projection["to_act"]:  # the fly's guesses: the bot's task is enqueued
        assert bot_calls == [(bot_tasks.bot_move, game.pk, game.seq)]
        assert bots.bot_move(game.pk, game.seq) is not None
    else:
        assert bot_calls == []


@pytest.mark.django_db
def test_the_sweep_moves_a_bot_whose_task_was_lost(users, settings):
    ann = users[0]
    game = bot_seat_game(ann)
    my_move(game, ann)  # its task went nowhere (no worker here)
    game.refresh_from_db()
    before = game.seq
    with eager_tasks(settings):
        assert notes.outbox_sweep()  # the mail's sweep leaves it alone...
        assert Game.objects.get(pk=game.pk).seq == before
        assert bot_tasks.bots_sweep.apply().get() == 1  # ...the bots' moves it
    assert Game.objects.get(pk=game.pk).seq > before
    assert bot_tasks.bots_sweep.apply().get() == 0  # now ann is awaited


@pytest.mark.django_db
def test_a_bot_gets_no_mail_and_no_clock_runs_against_it(users, monkeypatch):
    now = freeze_time(monkeypatch)
    ann = users[0]
    game = bot_seat_game(ann, days_per_move=1)
    bot = seat_user(game, 1)
    for _ in range(4):
        my_move(game, ann)
        game.refresh_from_db()
        bots.bot_move(game.pk, game.seq)
    assert Notification.objects.filter(game=game, user=ann).exists()
    assert not Notification.objects.filter(user=bot).exists()
    assert Clock.objects.get(game=game, seat=1).bank is None
    # a bot awaited for a week (its tasks lost) is neither reminded nor timed out
    my_move(game, ann)
    now.advance(days=7)
    assert notes.clocks_check() == {"reminded": 0, "timed_out": 0}
    services.game_resign(game=game, user=ann)
    assert not Notification.objects.filter(user=bot).exists()
    assert Notification.objects.filter(game=game, user=ann, kind="game_over").exists()


# ---------------------------------------------------------------- takeover


@pytest.mark.django_db
def test_a_seat_out_of_time_twice_is_taken_over_by_the_chosen_bot(users, monkeypatch):
    now = freeze_time(monkeypatch)
    ann, bob, cyd = users[:3]
    with dealt_from(SEED):
        created = create(client_for(ann), game="marram", seats=3, days_per_move=1,
                         takeover="medium")
        for user in (bob, cyd):
            client_for(user).post(f"/api/games/{created['id']}/join/", format="json")
    game = Game.objects.get(pk=created["id"])
    assert game.status == "running" and GameBots.objects.get(game=game).takeover == "medium"
    sleeper = awaited(game)[0]  # never plays
    person = seat_user(game, sleeper)
    now.advance(days=2, seconds=1)
    assert notes.clocks_check()["timed_out"] == 1
    while awaited(game)[0] != sleeper:
        my_move(game, seat_user(game, awaited(game)[0]))
    now.advance(days=1, seconds=1)
    assert notes.clocks_check()["timed_out"] == 1  # the second: the bot takes the seat
    game.refresh_from_db()
    assert game.status == "running" and game.projection["resigned"] == []
    seat = Seat.objects.get(game=game, index=sleeper)
    name = f"{person.get_username()} (computer, medium)"
    assert seat.user.bot.level == "medium" and seat.name == name
    takeover = Takeover.objects.get(game=game)
    assert (takeover.seat, takeover.player, takeover.bot.level) == (sleeper, person, "medium")
    tail = Event.objects.filter(game=game).order_by("-seq").first()
    assert tail.type == "timeout" and tail.actor is None
    clock = Clock.objects.get(game=game, seat=sleeper)
    assert clock.user_id == seat.user_id and clock.bank is None
    # the bot plays the seat from now on: the moves are the bot's, the player is mailed
    # no more
    mails = Notification.objects.filter(user=person).count()
    while awaited(game)[0] != sleeper:
        my_move(game, seat_user(game, awaited(game)[0]))
    while awaited(game)[0] == sleeper:
        assert bots.bot_move(game.pk, game.seq) is not None
    moved = bot_events(game, "medium")
    assert moved and all(e.payload["player"] == sleeper and e.seq > takeover.seq
                         for e in moved)
    assert Notification.objects.filter(user=person).count() == mails
    # the game page names the seat as the bot's
    page = Client()
    page.force_login(bob)
    assert name in page.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db
def test_without_the_option_a_second_timeout_still_resigns(users, monkeypatch):
    now = freeze_time(monkeypatch)
    ann, bob, cyd = users[:3]
    with dealt_from(SEED):
        created = create(client_for(ann), game="marram", seats=3, days_per_move=1)
        for user in (bob, cyd):
            client_for(user).post(f"/api/games/{created['id']}/join/", format="json")
    game = Game.objects.get(pk=created["id"])
    sleeper = awaited(game)[0]
    now.advance(days=2, seconds=1)
    notes.clocks_check()
    while awaited(game)[0] != sleeper:
        my_move(game, seat_user(game, awaited(game)[0]))
    now.advance(days=1, seconds=1)
    notes.clocks_check()
    game.refresh_from_db()
    assert game.projection["resigned"] == [sleeper] and not Takeover.objects.exists()


@pytest.mark.django_db
def test_the_takeover_takes_the_chosen_level_when_a_computer_of_it_is_seated(users):
    created = create(client_for(users[0]), game="marram", seats=4, bots=["medium"],
                     takeover="medium")
    for user in users[1:3]:
        client_for(user).post(f"/api/games/{created['id']}/join/", format="json")
    game = Game.objects.get(pk=created["id"])
    assert game.status == "running"
    taking = takeover_bot(game, 0)
    assert taking.level == "medium" and taking.user.get_username() == "Tern 2 (computer, medium)"


# ---------------------------------------------------------------- the pages



@pytest.mark.django_db
def test_the_home_page_starts_a_game_against_the_computer_at_once(users):
    ann = users[0]
    client = signed_in(ann)
    home = client.get("/").content.decode()
    assert "Play against the computer" in home
    # a select of the games, and of the levels (medium by default)
    assert '<option value="pond"' in home and '<option value="medium" selected>' in home
    answer = client.post("/play/computer/", {"game": "pond", "computer_1": "strong"})
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    assert game.status == "running" and game.game == "pond"
    assert game.options == read_options(registry.get("pond"), {}, 2)  # the defaults
    assert sorted(s.user.get_username() for s in game.seats.all()) == [
        "Skua (computer, strong)", "ann"]
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Skua (computer, strong)" in page
    # the game is in my games, with the computer named as such
    assert "Skua (computer, strong)" in client.get("/games/").content.decode()


@pytest.mark.django_db
def test_play_against_the_computer_with_the_games_options_and_three_computers(users):
    answer = signed_in(users[0]).post("/play/computer/", {
        "game": "marram", "marram__variant": "pitchfork", "marram__length": "short",
        "computer_1": "easy", "computer_2": "strong", "computer_3": "medium",
        # another game's option, which the page's script would not send: not Marram's
        "pond__options": "small"})
    game = Game.objects.get()
    assert answer.status_code == 302 and game.status == "running"
    assert game.options == read_options(registry.get("marram"),
                                        {"variant": "pitchfork", "length": "short"}, 4)
    assert sorted(s.user.bot.level for s in game.seats.all() if hasattr(s.user, "bot")) == [
        "easy", "medium", "strong"]


@pytest.mark.django_db
def test_play_against_two_computers_of_one_level(users):
    answer = signed_in(users[0]).post("/play/computer/", {
        "game": "animals_on_board", "computer_1": "medium", "computer_2": "medium"})
    game = Game.objects.get()
    assert answer.status_code == 302 and game.status == "running" and game.seat_count == 3
    assert sorted(s.user.bot.level for s in game.seats.all() if hasattr(s.user, "bot")) == [
        "medium", "medium"]


@pytest.mark.parametrize("form, status", [
    ({"game": "pond", "computer_1": "grandmaster"}, 400),
    ({"game": "chess", "computer_1": "easy"}, 400),
    ({"game": "pond"}, 400),
    ({"game": "pond", "computer_1": "easy", "seats": "3"}, 400),  # a field it does not take
    # Pond is played by two: one computer player beside the player
    ({"game": "pond", "computer_1": "easy", "computer_2": "strong"}, 400),
    ({"game": "pond", "computer_1": "easy", "pond__options": "huge"}, 400),
    # Marram's Animals is long only
    ({"game": "marram", "computer_1": "easy", "marram__variant": "animals",
      "marram__length": "short"}, 400),
])
@pytest.mark.django_db
def test_a_bad_play_against_the_computer_changes_nothing(users, form, status):
    answer = signed_in(users[0]).post("/play/computer/", form)
    assert answer.status_code == status
    assert "Nothing was changed" in answer.content.decode()
    assert not Game.objects.exists() and not Bot.objects.exists()


@pytest.mark.django_db
def test_play_against_the_computer_asks_to_sign_in(users):
    answer = Client().post("/play/computer/", {"game": "pond", "computer_1": "easy"})
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_lobby_seats_bots_and_offers_the_takeover(users):
    ann = users[0]
    client = signed_in(ann)
    lobby = client.get("/lobby/").content.decode()
    assert "Computer players" in lobby and "A player out of time twice" in lobby
    answer = client.post("/lobby/", {"game": "marram", "marram__variant": "classic",
                                     "marram__length": "long", "seats": 4,
                                     "bots": ["easy", "strong"], "takeover": "medium"})
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    assert game.status == "open" and game.seats.count() == 3
    assert GameBots.objects.get(game=game).takeover == "medium"
    listed = signed_in(users[1]).get("/lobby/").content.decode()
    assert "Plover (computer, easy)" in listed and "Skua (computer, strong)" in listed
    # all the seats to bots: the game starts at once
    answer = client.post("/lobby/", {"game": "pond", "seats": 2, "bots": ["medium"]})
    started = Game.objects.get(game="pond")
    assert started.status == "running"


@pytest.mark.parametrize("form, says", [
    ({"game": "pond", "seats": 2, "bots": ["easy", "medium"]}, "takes at most 1 computer"),
    ({"game": "pond", "seats": 2, "bots": ["best"]}, "Select a valid choice"),
    ({"game": "marram", "seats": 2, "takeover": "easy"}, "only in a game of 3 or more"),
    ({"game": "pond", "seats": 2, "bots": ["easy"], "emails": "zed@example.org"},
     "none left to invite"),
])
@pytest.mark.django_db
def test_the_lobby_refuses_bots_that_do_not_fit_and_changes_nothing(users, form, says):
    answer = signed_in(users[0]).post("/lobby/", form)
    assert answer.status_code == 400 and says in answer.content.decode()
    assert not Game.objects.exists() and not Bot.objects.exists()


@pytest.mark.django_db
def test_an_open_game_left_to_its_bots_is_abandoned(users):
    ann = users[0]
    created = create(client_for(ann), game="marram", seats=3, bots=["easy"])
    left = client_for(ann).post(f"/api/games/{created['id']}/leave/", format="json")
    assert left.status_code == 200 and body(left)["status"] == "abandoned"
    listed = body(client_for(users[1]).get("/api/games/?list=open"))
    assert listed["count"] == 0


@pytest.mark.django_db
def test_the_strong_bot_plays_marram_through_the_service(users):
    ann = users[0]
    game = bot_seat_game(ann, game="marram", level="strong")
    for _ in range(4):  # four moves (a turn is two), whoever begins
        seat, _ = awaited(game)
        if seat == 1:
            assert bots.bot_move(game.pk, game.seq) is not None
        else:
            my_move(game, ann)
    moves = bot_events(game, "strong")
    assert moves and all(e.payload["player"] == 1 for e in moves)
    assert {e.actor.get_username() for e in moves} == {"Skua (computer, strong)"}
