"""Time limits: a time bank per seat, vacations that stop it, and timeouts.

A game with ``days_per_move`` = d gives each seat 2d to begin with. A seat's clock
runs while the game waits for that seat and stops when the game no longer does;
when several seats are awaited at once (they choose in secret at the same time)
each one's clock runs until its own action is in. A turn played in time adds d
to the bank, which never holds more than 3d. While chance is being drawn no
clock runs. Days the player has declared as vacation do not count.

When a bank runs out the clock check appends the game's timeout events (what
they cost is the game's rule) and gives the seat d for its next turn; a second
timeout in a row appends its resignation after them. Every change to a game is
an event appended through games.services, under the game's row lock.

Untimed games keep clocks too, without a bank: they record when each turn began,
which is when a "your turn" mail is due.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import DateTimeField, ExpressionWrapper, F, Sum
from django.utils import timezone

from bots import services as bot_services
from bots.selectors import bot_user_ids
from engine.protocol import AnyGame
from games import rawsql
from games import services as game_services
from games.batch import Batch
from games.errors import Conflict, Invalid
from games.models import Event, Game, Seat
from games.selectors import game_state_get, rules_of
from notifications.models import Clock, Vacation
from notifications.selectors import mail_settings_get

REMINDER_BEFORE = timedelta(hours=24)


def _day_count(game: Game, days: int) -> timedelta | None:
    return None if not game.days_per_move else timedelta(days=days * game.days_per_move)


def runners_of(rules: AnyGame, state: Any) -> tuple[int, ...]:
    """The seats whose clocks run: those the game waits for."""
    return rules.awaiting(state).players


def turn_goes_on(events: Sequence[Event], seat: int, timeouts: set[str]) -> bool:
    """Whether the seat's turn carried on through these events: it is still
    awaited after them and none is the server's (chance) or a timeout of the seat:
    they are its own moves (the first of two in a turn, or a pass forced on it
    that deals a fresh hand for the same move), or other seats' (someone leaving,
    or choosing in secret at the same time). Then its clock does not change and no
    mail is due, and a move costs no query here."""
    for event in events:
        player = event.payload.get("player")
        if player is None or (player == seat and event.type in timeouts):
            return False
    return True


def _vacations(user_id: int | None, start: datetime, end: datetime) -> list[Vacation]:
    if user_id is None:
        return []
    return list(Vacation.objects.filter(user_id=user_id, ends_at__gt=start, starts_at__lt=end))


def clock_remaining(
    clock: Clock, now: datetime, vacations: Iterable[Vacation] | None = None
) -> timedelta | None:
    """Time left in the bank at ``now`` (None in an untimed game). It may be
    negative if the check has not caught up with the clock yet."""
    if clock.bank is None:
        return None
    if clock.started_at is None:
        return clock.bank
    if vacations is None:
        vacations = _vacations(clock.user_id, clock.started_at, now)
    paused = sum((v.overlap(clock.started_at, now) for v in vacations), timedelta(0))
    return clock.bank - (now - clock.started_at - paused)


def _acted_since(clock: Clock, leaving: set[str]) -> bool:
    return Event.objects.filter(
        game_id=clock.game_id, seq__gte=clock.started_seq, actor__isnull=False,
        payload__player=clock.seat,
    ).exclude(type__in=leaving).exists()


def _leaving(rules: AnyGame, state: Any, seat: int) -> set[str]:
    return {e["type"] for e in rules.resign(state, seat)}


def _stop(clock: Clock, game: Game, now: datetime, *, timed_out: bool,
          leaving: set[str]) -> None:
    if timed_out:
        # Two timeouts in a row resign the seat; a turn with a move in it breaks the row.
        clock.timeouts_in_row = 1 if _acted_since(clock, leaving) else clock.timeouts_in_row + 1
    else:
        clock.timeouts_in_row = 0
    if clock.bank is not None:
        if timed_out:
            clock.bank = _day_count(game, 1)  # enough for one turn: miss it too and the seat goes
        else:
            # the clocks' query says whether a vacation overlaps the turn: most never do
            vacations = None if getattr(clock, "vacationed", True) else ()
            left = max(clock_remaining(clock, now, vacations), timedelta(0))
            clock.bank = min(left + _day_count(game, 1), _day_count(game, 3))
    clock.started_at = None


# Read on the last move of every turn: one statement, none of the ORM's building.
_CLOCKS_OF_GAME = """
SELECT {clock_columns}, EXISTS (
    SELECT 1 FROM notifications_vacation v
    WHERE v.user_id = c.user_id AND v.ends_at > c.started_at AND v.starts_at < %s
) AS vacationed, EXISTS (
    SELECT 1 FROM bots_bot b WHERE b.user_id = c.user_id
) AS is_bot
FROM notifications_clock c WHERE c.game_id = %s
"""


def clocks_follow(
    game: Game, events: Sequence[Event], state: Any, *, now: datetime, writes: Batch
) -> tuple[list[Clock], list[Clock], bool]:
    """Bring the game's clocks up to date after ``events`` (called under the game's
    lock, in the transaction that appends them): the changes are queued on
    ``writes``. Returns the clocks that have just started (the seats whose turn
    has just begun); all the game's clocks; and whether they were made just now
    (the game has just begun)."""
    sql = _CLOCKS_OF_GAME.format(clock_columns=rawsql.columns(Clock, "c"))
    clocks = {c.seat: c for c in rawsql.fetch(Clock, sql, [now, game.pk])}
    fresh = not clocks
    if fresh:
        users = dict(Seat.objects.filter(game=game).values_list("index", "user_id"))
        bots = bot_user_ids(users.values())  # a computer player's clock never runs out
        clocks = {s: Clock(game=game, seat=s, user_id=users.get(s),
                           bank=None if users.get(s) in bots else _day_count(game, 2))
                  for s in range(game.seat_count)}
        for clock in clocks.values():
            clock.is_bot = clock.user_id in bots  # type: ignore[attr-defined]
    rules = rules_of(game)
    runners = runners_of(rules, state)
    changed: list[Clock] = []
    for seat, clock in clocks.items():
        if not clock.running:
            continue
        timeouts = {e["type"] for e in rules.timeout(state, seat)}
        if seat not in runners or not turn_goes_on(events, seat, timeouts):
            timed_out = any(e.type in timeouts and e.payload.get("player") == seat
                            for e in events)
            _stop(clock, game, now, timed_out=timed_out,
                  leaving=_leaving(rules, state, seat) if timed_out else set())
            changed.append(clock)
    started = []
    for seat in runners:
        clock = clocks[seat]
        if not clock.running:
            clock.started_at, clock.started_seq = now, game.seq
            started.append(clock)
            if clock not in changed:
                changed.append(clock)
    if fresh:
        writes.insert(list(clocks.values()))
    else:
        for clock in changed:
            writes.update(clock, ["bank", "started_at", "started_seq", "timeouts_in_row"])
    return started, list(clocks.values()), fresh


def clocks_due(now: datetime) -> list[Clock]:
    """Running clocks that may be within a day of running out. Vacations only add
    time, so this is a superset of what needs a reminder or a timeout."""
    due = ExpressionWrapper(F("started_at") + F("bank"), output_field=DateTimeField())
    return list(
        Clock.objects.filter(started_at__isnull=False, bank__isnull=False)
        .annotate(due=due)
        .filter(due__lte=now + REMINDER_BEFORE)
        .order_by("due")
    )


def clock_expire(*, game_id: int, seat: int, now: datetime | None = None):
    """Append the timeout (and, at the second in a row, the resignation) of a seat
    whose bank is empty. Nothing if its time is not up after all."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.RUNNING:
            return None
        clock = Clock.objects.filter(game=game, seat=seat).first()
        if clock is None or not clock.running:
            return None
        left = clock_remaining(clock, now)
        if left is None or left > timedelta(0):
            return None
        leaving = _leaving(rules_of(game), game_state_get(game), seat)
        second = clock.timeouts_in_row >= 1 and not _acted_since(clock, leaving)
        bot = bot_services.takeover_bot(game, seat) if second else None
        if bot is not None:  # the game's option: a computer player takes the seat instead
            bot_services.seat_take_over(game=game, seat=seat, bot=bot)
            clock.user_id, clock.bank, clock.timeouts_in_row = bot.user_id, None, 0
            clock.save(update_fields=["user", "bank", "timeouts_in_row"])
        return game_services.game_timeout(
            game=game, seat=seat, expected_seq=game.seq, resign=second and bot is None
        )


# ---------------------------------------------------------------- vacations


def _year_bounds(year: int) -> tuple[datetime, datetime]:
    tz = timezone.get_current_timezone()
    return (datetime(year, 1, 1, tzinfo=tz), datetime(year + 1, 1, 1, tzinfo=tz))


def vacation_left(user: AbstractBaseUser, *, on: date | datetime) -> timedelta:
    """Vacation time left in the calendar year of ``on``: the allowance less every
    vacation begun that year (planned length, or actual if stopped early)."""
    start, end = _year_bounds(on.year)
    taken = Vacation.objects.filter(user=user, starts_at__gte=start, starts_at__lt=end).aggregate(
        taken=Sum(F("ends_at") - F("starts_at")))["taken"] or timedelta(0)
    return max(timedelta(days=mail_settings_get(user).vacation_days_per_year) - taken, timedelta(0))


def vacation_current(user: AbstractBaseUser, now: datetime) -> Vacation | None:
    return Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).first()


def vacation_start(
    *, user: AbstractBaseUser, days: int | None = None, now: datetime | None = None
) -> Vacation:
    """Stop the player's clocks from now for ``days`` (by default all the days left
    this year)."""
    now = now or timezone.now()
    if vacation_current(user, now) is not None:
        raise Conflict("you are already on vacation; stop it first", code="on_vacation")
    left = vacation_left(user, on=now)
    if left <= timedelta(0):
        raise Invalid("you have no vacation days left this year", code="no_vacation_left")
    if days is not None and days < 1:
        raise Invalid("a vacation is at least one day", code="bad_days", field="days")
    length = left if days is None else min(timedelta(days=days), left)
    return Vacation.objects.create(user=user, starts_at=now, ends_at=now + length)


def vacation_stop(*, user: AbstractBaseUser, now: datetime | None = None) -> Vacation | None:
    """End the current vacation now; the days not used are kept."""
    now = now or timezone.now()
    current = vacation_current(user, now)
    if current is None:
        return None
    current.ends_at = now
    current.save(update_fields=["ends_at"])
    return current
