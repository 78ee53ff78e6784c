"""A player's vacations: days on which their clocks stand still (games.clocks
counts them), taken from a yearly allowance kept with their mail settings."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.contrib.auth.models import User
from django.db.models import F, Sum
from django.utils import timezone

from games.models import Vacation
from notifications.selectors import mail_settings_get
from web.errors import Conflict, Invalid


def _year_bounds(year: int) -> tuple[datetime, datetime]:
    tz = timezone.get_current_timezone()
    return (datetime(year, 1, 1, tzinfo=tz), datetime(year + 1, 1, 1, tzinfo=tz))


def vacation_left(user: User, *, on: date | datetime) -> timedelta:
    """Vacation time left in the calendar year of ``on``: the allowance less every
    vacation begun that year (planned length, or actual if stopped early)."""
    start, end = _year_bounds(on.year)
    taken = Vacation.objects.filter(user=user, starts_at__gte=start, starts_at__lt=end).aggregate(
        taken=Sum(F("ends_at") - F("starts_at")))["taken"] or timedelta(0)
    return max(timedelta(days=mail_settings_get(user).vacation_days_per_year) - taken, timedelta(0))


def vacation_current(user: User, now: datetime) -> Vacation | None:
    return Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).first()


def vacation_start(
    *, user: User, days: int | None = None, now: datetime | None = None
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


def vacation_stop(*, user: User, now: datetime | None = None) -> Vacation | None:
    """End the current vacation now; the days not used are kept."""
    now = now or timezone.now()
    current = vacation_current(user, now)
    if current is None:
        return None
    current.ends_at = now
    current.save(update_fields=["ends_at"])
    return current
