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
an event appended through games.services (a player's move lock-free, the
server's changes, the timeouts among them, under the game's row lock: see
there).

Untimed games keep clocks too, without a bank: they record when each turn began,
which is when a "your turn" mail is due.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import DateTimeField, ExpressionWrapper, F

from engine.protocol import AnyGame
from games import store
from games.models import Clock, Event, Game, Seat, Vacation
from games.seating import seat_players
from games.selectors import rules_of
from games.store import Batch

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
    return _bank_left(clock, clock.bank, now, vacations)


def _bank_left(clock: Clock, bank: timedelta, now: datetime,
               vacations: Iterable[Vacation] | None) -> timedelta:
    """``clock_remaining`` of a clock with a bank (``bank``, the clock's own)."""
    if clock.started_at is None:
        return bank
    if vacations is None:
        vacations = _vacations(clock.user_id, clock.started_at, now)
    paused = sum((v.overlap(clock.started_at, now) for v in vacations), timedelta(0))
    return bank - (now - clock.started_at - paused)


def _acted_since(clock: Clock, leaving: set[str]) -> bool:
    return Event.objects.filter(
        game_id=clock.game_id, seq__gte=clock.started_seq, actor__isnull=False,
        payload__player=clock.seat,
    ).exclude(type__in=leaving).exists()


def _leaving(rules: AnyGame, state: Any, seat: int) -> set[str]:
    return {e["type"] for e in rules.resign(state, seat)}


def _stop(clock: Clock, game: Game, now: datetime, *, timed_out: bool,
          leaving: set[str], vacationed: bool) -> None:
    """Stop the clock: its turn is over, by a timeout (``timed_out``) or not. A
    timed game's bank then gains a turn's days (up to three turns'), or holds
    one turn's after a timeout. ``vacationed``: whether a vacation of the
    player touches the turn (else none is read)."""
    if timed_out:
        # Two timeouts in a row resign the seat; a turn with a move in it breaks the row.
        clock.timeouts_in_row = 1 if _acted_since(clock, leaving) else clock.timeouts_in_row + 1
    else:
        clock.timeouts_in_row = 0
    day = _day_count(game, 1)
    if clock.bank is not None and day is not None:  # only a timed game's clocks have banks
        if timed_out:
            clock.bank = day  # enough for one turn: miss it too and the seat goes
        else:
            vacations = None if vacationed else ()
            left = max(_bank_left(clock, clock.bank, now, vacations), timedelta(0))
            clock.bank = min(left + day, 3 * day)
    clock.started_at = None


@dataclass
class ClockChange:
    """What appending some events did to the game's clocks."""

    started: list[Clock]
    """The clocks that have just started: the seats whose turn has just begun."""
    clocks: list[Clock]
    """All the game's clocks, one a seat."""
    beginning: bool
    """Whether the clocks were made just now: the game has just begun."""
    computer_seats: frozenset[int]
    """The seats whose clocks computers hold: they are mailed nothing."""


def _turn_goes_on(rules: AnyGame, events: Sequence[Event], state: Any,
                  awaited_before: tuple[int, ...]) -> bool:
    """Whether no clock changes: the game awaits the same seats as before these
    events, and they are those seats' own (no chance, no timeout)."""
    if not events or not awaited_before:
        return False
    if rules.awaiting(state).players != awaited_before:
        return False
    return all(turn_goes_on(events, seat, {e["type"] for e in rules.timeout(state, seat)})
               for seat in awaited_before) and all(
        e.payload.get("player") in awaited_before for e in events)


def _first_clocks(game: Game) -> store.ClocksRead:
    """The clocks of a game that has just begun, one a seat, not stored yet: a
    computer's has no bank (it never runs out)."""
    users = dict(Seat.objects.filter(game=game).values_list("index", "user_id"))
    bots = seat_players().clockless(users.values())
    clocks = [Clock(game=game, seat=s, user_id=users.get(s),
                    bank=None if users.get(s) in bots else _day_count(game, 2))
              for s in range(game.seat_count)]
    return store.ClocksRead(clocks, computer_seats=frozenset(
        c.seat for c in clocks if c.user_id in bots), vacationed=frozenset())


def clocks_follow(
    game: Game, events: Sequence[Event], state: Any, *, awaited_before: tuple[int, ...],
    now: datetime, writes: Batch, read: store.ClocksRead | None = None,
) -> ClockChange | None:
    """Bring the game's clocks up to date after ``events`` (called by games.services
    as it writes them, with no lock for a player's move: see there): the changes
    are queued on ``writes``, stored with the events or not at all.
    ``awaited_before`` are the seats the game awaited before the events;
    ``read``, the game's clocks if the caller's read has them (a player's move,
    a draw: games.store.game_for_move), else they are read here when a turn
    ends. None when no clock changes (the first move of a turn, or a seat
    acting while others still choose)."""
    rules = rules_of(game)
    if _turn_goes_on(rules, events, state, awaited_before):
        return None
    if read is None:
        read = store.game_clocks(game, now)
    fresh = not read.clocks
    if fresh:
        read = _first_clocks(game)
    clocks = {c.seat: c for c in read.clocks}
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
                  leaving=_leaving(rules, state, seat) if timed_out else set(),
                  vacationed=seat in read.vacationed)
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
    return ClockChange(started=started, clocks=list(clocks.values()), beginning=fresh,
                       computer_seats=read.computer_seats)


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


def clock_running_out(game: Game, seat: int, now: datetime) -> Clock | None:
    """The seat's clock if it runs and its bank is empty at ``now`` (vacations
    counted): the seat has run out of time."""
    clock = Clock.objects.filter(game=game, seat=seat).first()
    if clock is None or not clock.running:
        return None
    left = clock_remaining(clock, now)
    if left is None or left > timedelta(0):
        return None
    return clock


def second_timeout(clock: Clock, rules: AnyGame, state: Any) -> bool:
    """Whether a timeout now would be the seat's second in a row: it timed out
    last turn and has not acted since (leaving aside)."""
    leaving = _leaving(rules, state, clock.seat)
    return clock.timeouts_in_row >= 1 and not _acted_since(clock, leaving)
