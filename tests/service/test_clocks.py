"""Time limits, on a clock the tests move by hand: each seat banks 2 days a move
to begin with (days_per_move = 1 here), gains a day for each turn played in
time, holds at most 3; reminders under a day; a timeout, then a resignation at
the second in a row; vacations stop the clock."""

from datetime import timedelta

import pytest

from games import clocks, services
from games.models import Clock, Event, Game
from games.selectors import game_state_get
from notifications import services as notes
from notifications import vacations
from notifications.models import Notification
from tests.service.conftest import custom_game, make_user, seat_user, tile
from tests.service.mail_kit import awaited, freeze_time, play_turn
from web.errors import Conflict, Invalid

DAY = timedelta(days=1)


@pytest.fixture
def now(monkeypatch):
    return freeze_time(monkeypatch)


@pytest.fixture
def game(users, now) -> Game:
    """Two players, a day a move, started at now."""
    game = services.game_create(user=users[0], variant="classic", length="long", seats=2,
                                days_per_move=1)
    services.game_join(game=game, user=users[1])
    game.refresh_from_db()
    return game


def clock(game: Game, seat: int) -> Clock:
    return Clock.objects.get(game=game, seat=seat)


def left(game: Game, seat: int, at) -> timedelta:
    return clocks.clock_remaining(clock(game, seat), at)


@pytest.mark.django_db
def test_each_seat_starts_with_two_days_and_the_first_clock_runs(game, now):
    assert [(c.bank, c.started_at) for c in Clock.objects.filter(game=game)] == [
        (2 * DAY, now.value), (2 * DAY, None)]
    assert left(game, 0, now.advance(hours=5)) == 2 * DAY - timedelta(hours=5)


@pytest.mark.django_db
def test_a_turn_in_time_banks_what_is_left_plus_a_day_up_to_three(game, now):
    now.advance(hours=10)
    play_turn(game)  # seat 0: 2 days - 10 hours + 1 day
    assert clock(game, 0).bank == 3 * DAY - timedelta(hours=10)
    assert clock(game, 0).started_at is None and clock(game, 1).started_at == now.value
    now.advance(hours=1)
    play_turn(game)  # seat 1: 2 days - 1 hour + 1 day
    assert clock(game, 1).bank == 3 * DAY - timedelta(hours=1)
    play_turn(game)  # seat 0 at once: 3 days - 10 hours + 1 day, capped at 3 days
    assert clock(game, 0).bank == 3 * DAY


@pytest.mark.django_db
def test_the_first_move_of_two_keeps_the_clock_running(game, now):
    from engine.marram import legal_actions

    now.advance(hours=3)
    action = legal_actions(game_state_get(game))[0]
    services.action_submit(game=game, user=seat_user(game, 0), action=action,
                           expected_seq=game.seq)
    assert clock(game, 0).started_at == now.value - timedelta(hours=3)  # still this turn's


@pytest.mark.django_db
def test_a_pass_forced_within_the_turn_keeps_the_clock_running(now):
    # bob lays G4; his sand tiles fit nowhere, so the server passes for him, which
    # deals him a fresh hand for the same (second) move: still his turn, his clock
    ann, bob = make_user("ann"), make_user("bob")
    grass, sand = tile("GGGGGGGG"), tile("SSSSSSSS")
    tiles = {"S0": grass, **{f"G{i}": grass for i in range(1, 10)}, "S1": sand, "S2": sand}
    deck = ["G1", "G2", "G3", "G4", "S1", "S2", "G5", "G6", "G7", "G8", "G9"]
    game = custom_game([ann, bob], tiles, deck)
    place = {"type": "place", "tile": "G1", "face": "front", "at": [1, 0], "rotation": 0}
    for seq, (tile_id, x) in enumerate((("G1", 1), ("G2", 2))):
        services.action_submit(game=game, user=ann,
                               action={**place, "tile": tile_id, "at": [x, 0]}, expected_seq=seq)
    started = clock(game, 1).started_at
    assert started == now.value
    now.advance(hours=2)
    services.action_submit(game=game, user=bob, action={**place, "tile": "G4", "at": [3, 0]},
                           expected_seq=2)
    tail = list(Event.objects.filter(game=game).order_by("-seq")[:2])[::-1]
    assert [(e.type, e.payload["player"], e.actor) for e in tail] == [
        ("place", 1, bob), ("pass", 1, None)]
    assert awaited(game)[1] == {"kind": "move", "player": 1, "move": 2}
    assert clock(game, 1).started_at == started  # the same turn: not restarted


@pytest.mark.django_db
def test_a_reminder_goes_once_when_less_than_a_day_is_left(game, now):
    now.advance(hours=23)  # 25 hours left
    assert notes.clocks_check() == {"reminded": 0, "timed_out": 0}
    now.advance(hours=2)  # 23 hours left
    assert notes.clocks_check() == {"reminded": 1, "timed_out": 0}
    assert notes.clocks_check() == {"reminded": 0, "timed_out": 0}
    [reminder] = Notification.objects.filter(kind="reminder")
    assert (reminder.user, reminder.seat) == (seat_user(game, 0), 0)
    assert notes.notification_deliver(reminder.pk) == "sent"
    reminder.refresh_from_db()
    assert reminder.subject == f"Marram game {game.pk}: 23 hours left for your move"
    assert "is running down: 23 hours left" in reminder.body_text


@pytest.mark.django_db
def test_time_running_out_is_a_timeout_event_and_the_turn_passes(game, now):
    now.advance(days=2, seconds=-1)  # a second left
    assert notes.clocks_check()["timed_out"] == 0
    now.advance(seconds=1)  # none left
    assert notes.clocks_check()["timed_out"] == 1
    last = Event.objects.filter(game=game).order_by("-seq").first()
    assert (last.type, last.payload, last.actor) == ("timeout", {"type": "timeout", "player": 0},
                                                     None)
    assert awaited(game)[0] == 1
    # a day for the next turn; miss that too and the seat is gone
    assert (clock(game, 0).bank, clock(game, 0).timeouts_in_row) == (DAY, 1)
    assert notes.clocks_check()["timed_out"] == 0  # nothing twice


@pytest.mark.django_db
def test_a_second_timeout_in_a_row_resigns_the_seat(game, now):
    now.advance(days=2, seconds=1)
    notes.clocks_check()
    play_turn(game)  # seat 1 plays at once
    now.advance(days=1, seconds=1)
    assert notes.clocks_check()["timed_out"] == 1
    game.refresh_from_db()
    tail = list(Event.objects.filter(game=game).order_by("-seq")[:2])[::-1]
    assert [(e.type, e.payload["player"], e.actor) for e in tail] == [
        ("timeout", 0, None), ("resign", 0, None)]
    assert game.status == Game.Status.FINISHED and game.projection["winners"] == [1]
    assert Clock.objects.filter(game=game, started_at__isnull=False).count() == 0
    assert set(Notification.objects.filter(game=game, kind="game_over")
               .values_list("seat", flat=True)) == {0, 1}


@pytest.mark.django_db
def test_a_move_between_two_timeouts_breaks_the_row(game, now):
    from engine.marram import legal_actions

    now.advance(days=2, seconds=1)
    notes.clocks_check()  # seat 0 times out
    play_turn(game)  # seat 1
    action = legal_actions(game_state_get(game))[0]
    moved = services.action_submit(game=game, user=seat_user(game, 0), action=action,
                                   expected_seq=game.seq)  # seat 0 makes one of its two moves...
    assert awaited(game)[0] == 0
    now.advance(days=1, seconds=1)
    notes.clocks_check()  # ...and runs out on the second: a timeout, no resignation
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    # then seat 1 moves, or in about one deal in 800 has no tile that fits: a pass
    after = [(e.type, e.payload["player"]) for e in Event.objects.filter(
        game=game, seq__gte=moved.seq).order_by("seq")]
    assert after in ([("timeout", 0)], [("timeout", 0), ("pass", 1)])
    assert clock(game, 0).timeouts_in_row == 1


@pytest.mark.django_db
def test_a_vacation_stops_the_clock(game, now):
    ann = seat_user(game, 0)
    now.advance(hours=1)
    vacation = vacations.vacation_start(user=ann, days=3)
    assert vacation.ends_at == now.value + 3 * DAY
    now.advance(days=3, hours=23)  # 1 hour played, 3 days away, 23 hours more
    assert left(game, 0, now.value) == timedelta(hours=24)
    assert notes.clocks_check() == {"reminded": 0, "timed_out": 0}
    now.advance(hours=24, seconds=-1)
    assert notes.clocks_check()["timed_out"] == 0  # a second left
    now.advance(seconds=1)
    assert notes.clocks_check()["timed_out"] == 1


@pytest.mark.django_db
def test_a_turn_ended_after_a_vacation_banks_the_days_away(game, now):
    ann, bob = seat_user(game, 0), seat_user(game, 1)
    vacations.vacation_start(user=bob, days=2)  # not his turn: changes nothing for ann
    now.advance(hours=1)
    vacations.vacation_start(user=ann, days=1)
    now.advance(days=1, hours=2)  # back after a day, then 2 hours more
    play_turn(game)  # 3 hours played: 2 days - 3 hours + 1 day
    assert clock(game, 0).bank == 3 * DAY - timedelta(hours=3)
    assert clock(game, 1).started_at == now.value


@pytest.mark.django_db
def test_back_early_from_vacation_the_clock_runs_again(game, now):
    ann = seat_user(game, 0)
    vacations.vacation_start(user=ann, days=5)
    now.advance(days=1)
    vacations.vacation_stop(user=ann)
    now.advance(days=2)
    assert left(game, 0, now.value) == timedelta(0)
    assert notes.clocks_check()["timed_out"] == 1


@pytest.mark.django_db
def test_vacation_days_are_fourteen_a_year(users, now):
    ann = users[0]
    vacations.vacation_start(user=ann, days=10)
    with pytest.raises(Conflict):
        vacations.vacation_start(user=ann, days=1)
    now.advance(days=10)
    assert vacations.vacation_start(user=ann).ends_at == now.value + 4 * DAY  # what is left
    now.advance(days=4)
    with pytest.raises(Invalid, match="no vacation days left this year"):
        vacations.vacation_start(user=ann)
    now.value = now.value.replace(year=now.value.year + 1, month=1, day=2)
    assert vacations.vacation_left(ann, on=now.value) == 14 * DAY


@pytest.mark.django_db
def test_an_untimed_game_never_runs_out(users, now):
    game = services.game_create(user=users[0], variant="classic", length="long", seats=2)
    services.game_join(game=game, user=users[1])
    assert clock(game, 0).bank is None and clock(game, 0).started_at == now.value
    now.advance(days=400)
    assert notes.clocks_check() == {"reminded": 0, "timed_out": 0}
