"""The computer players' accounts: one a level, shared by every game, made on
first use."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from bots.models import Bot, Level
from games.errors import Invalid

NAMES = {"easy": "Plover", "medium": "Tern", "strong": "Skua"}
"""Each level's account is "<name> (computer, <level>)": a username nobody can sign
up with (spaces and brackets are refused), marked as a computer wherever a seat's
name is shown."""


def bot_username(level: str) -> str:
    return f"{NAMES[level]} (computer, {level})"


def bot_account(level: str) -> AbstractBaseUser:
    """The account of the computer player of ``level``, made on first use."""
    found = Bot.objects.select_related("user").filter(level=level).first()
    if found is not None:
        return found.user
    if level not in NAMES:
        raise Invalid(f"no computer level {level!r}: the levels are {', '.join(Level.values)}",
                      code="unknown_level", field="bots")
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(bot_username(level), email="")
            user.set_unusable_password()
            user.save(update_fields=["password"])
            Bot.objects.create(user=user, level=level)
            return user
    except IntegrityError:  # made at the same moment by another request
        return Bot.objects.select_related("user").get(level=level).user
