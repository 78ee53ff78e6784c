"""The computer players' accounts: numbered within each level, shared by every
game, each made the first time a game needs it. A game seats an account once
(games.models.Seat: one seat an account), so a game with two medium computers
seats the medium accounts 1 and 2."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from bots.models import Bot, Level
from web.errors import Invalid

NAMES = {"easy": "Plover", "medium": "Tern", "strong": "Skua"}
"""Each level's accounts are "<name> (computer, <level>)", then "<name> 2
(computer, <level>)" and so on: usernames nobody can sign up with (spaces and
brackets are refused), marked as a computer wherever a seat's name is shown."""


def bot_username(level: str, number: int = 1) -> str:
    name = NAMES[level] if number == 1 else f"{NAMES[level]} {number}"
    return f"{name} (computer, {level})"


def bot_of(level: str, number: int = 1) -> Bot:
    """The ``number``-th account of the computer player of ``level``, made on first use."""
    found = Bot.objects.select_related("user").filter(level=level, number=number).first()
    if found is not None:
        return found
    if level not in NAMES:
        raise Invalid(f"no computer level {level!r}: the levels are {', '.join(Level.values)}",
                      code="unknown_level", field="bots")
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(bot_username(level, number), email="")
            user.set_unusable_password()
            user.save(update_fields=["password"])
            return Bot.objects.create(user=user, level=level, number=number)
    except IntegrityError:  # made at the same moment by another request
        return Bot.objects.select_related("user").get(level=level, number=number)


def bot_account(level: str, number: int = 1) -> User:
    """The account of ``bot_of(level, number)``."""
    return bot_of(level, number).user


def bot_accounts(levels: Sequence[str]) -> list[User]:
    """An account for each of ``levels`` (in order), none twice: a level's first
    computer in the list is its account 1, its second account 2, and so on."""
    seen: Counter[str] = Counter()
    accounts = []
    for level in levels:
        seen[level] += 1
        accounts.append(bot_account(level, seen[level]))
    return accounts


def bot_not_among(level: str, user_ids: Iterable[int | None]) -> Bot:
    """The first account of ``level`` that is none of ``user_ids`` (the game's
    seats): made if every one there is sits there already."""
    taken = {pk for pk in user_ids if pk is not None}
    numbers = dict(Bot.objects.filter(level=level).values_list("number", "user_id"))
    number = 1
    while numbers.get(number) in taken:
        number += 1
    return bot_of(level, number)
