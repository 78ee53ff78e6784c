"""Posting to a game's chat, and muting it.

A message is plain text: at most MAX_LENGTH characters, control characters
other than line breaks refused, shown escaped everywhere (pages, mail, admin).
A player may post THROTTLE_COUNT messages in THROTTLE_WINDOW to one game. Each
other player is mailed the message through the outbox unless they muted the
game's chat, their mail is off, or they read a daily digest; the mail's
reply address takes a line ``say ...`` back into the chat
(``chat_post_by_mail``, which notifications.inbound calls by name). Each is
pushed it too, whatever their mail (notifications.push: a row written for a
mail policy that sends none is kept as not sent, for its push), unless they
muted the chat. The game's open pages show a message as it is posted
(games.panels)."""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from chat.models import MAX_LENGTH, Message, Mute
from games.models import Game, Seat
from games.panels import panels_changed
from notifications import emails, push, signing
from notifications.models import Notification, Policy
from notifications.selectors import mail_settings_get
from notifications.services import notifications_queue
from web.errors import Forbidden, Invalid, NotFound, TryLater

THROTTLE_COUNT = 5
THROTTLE_WINDOW = timedelta(minutes=1)
KIND = "chat"
"""The outbox rows' kind (the outbox sends any kind it is given a subject for)."""
SAY = re.compile(r"say\s+(.+)", re.IGNORECASE | re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _game_and_seat(game_id: int, user: User) -> tuple[Game, Seat]:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(f"there is no game {game_id}", code="no_such_game")
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise Forbidden("only the game's players can use its chat", code="not_a_player")
    return game, seat


def _clean(text: object) -> str:
    if not isinstance(text, str):
        raise Invalid("a message is text", field="text")
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise Invalid("the message is empty", code="empty", field="text")
    if len(text) > MAX_LENGTH:
        raise Invalid(f"a message is at most {MAX_LENGTH} characters; this one has "
                      f"{len(text)}", code="too_long", field="text")
    if _CONTROL.search(text):
        raise Invalid("a message is plain text: no control characters", field="text")
    return text


def chat_post(*, game_id: int, user: User, text: object,
              via: str = Message.Via.PAGE) -> Message:
    text = _clean(text)
    with transaction.atomic():
        game, _ = _game_and_seat(game_id, user)
        if game.status == Game.Status.ABANDONED:
            raise Invalid("this game was abandoned: its chat is closed", code="game_abandoned")
        # the player's row locked: simultaneous posts count one after the other
        get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).exists()
        since = timezone.now() - THROTTLE_WINDOW
        recent = Message.objects.filter(game=game, user=user, created_at__gte=since)
        if recent.count() >= THROTTLE_COUNT:
            raise TryLater(f"at most {THROTTLE_COUNT} messages a minute to one game: wait a "
                           "little", retry_after=int(THROTTLE_WINDOW.total_seconds()))
        message = Message.objects.create(game=game, user=user, text=text, via=via)
        _mail_the_others(game, message)
        panels_changed(game.pk)  # the game's open pages show it
    return message


def _mail_the_others(game: Game, message: Message) -> None:
    muted = set(Mute.objects.filter(game=game).values_list("user_id", flat=True))
    rows = []
    sender = message.user.get_username()
    for seat in game.seats.select_related("user").exclude(user=message.user):
        user = seat.user
        if user is None or hasattr(user, "bot") or user.pk in muted:
            continue
        row = push.words(Notification(user=user, game=game, seat=seat.index, kind=KIND,
                                      dedup_key=f"chat:{message.pk}:{user.pk}"),
                         f"{sender} in {emails.subject_stem(game)}", message.text)
        policy = mail_settings_get(user).policy
        if policy in (Policy.OFF, Policy.DIGEST):  # their policy: no mail for a chat line
            if push.push_on():  # but its push, which their push settings decide on
                row.status = Notification.Status.SKIPPED
                row.note = "the player's policy: no mail for a chat line"
                rows.append(row)
            continue
        reply_to = (signing.reply_address(game.pk, seat.index, game.seq)
                    if seat.index is not None else "")
        context = {**emails.links(user_id=user.pk, game=game), "user": user, "sender": sender,
                   "text": message.text, "reply_to": reply_to}
        # the game's subject stem first: its mail stays one conversation
        row.subject = emails.subject_for(game, f"{sender} says "
                                         f"{message.text.splitlines()[0][:60]}")
        row.body_text = render_to_string("chat/email/message.txt", context).strip() + "\n"
        row.body_html = render_to_string("chat/email/message.html", context)
        row.reply_to = reply_to
        rows.append(row)
    if rows:
        notifications_queue(rows)


def chat_line(line: str) -> str | None:
    """The message of a reply's first line ``say ...``; None for any other line."""
    found = SAY.fullmatch(line.strip())
    return found.group(1).strip() if found else None


def chat_post_by_mail(*, game_id: int, user: User, line: str) -> Message:
    """A ``say ...`` line replied to a mail of the game (the reply address is checked
    by the caller, notifications.inbound)."""
    return chat_post(game_id=game_id, user=user, text=chat_line(line) or "",
                     via=Message.Via.MAIL)


def chat_mute_set(*, game_id: int, user: User, muted: bool) -> bool:
    game, _ = _game_and_seat(game_id, user)
    if muted:
        Mute.objects.get_or_create(game=game, user=user)
    else:
        Mute.objects.filter(game=game, user=user).delete()
    return muted


def chat_messages(*, game_id: int, user: User, limit: int = 100) -> list[Message]:
    """The game's latest messages, oldest first, for one of its players."""
    game, _ = _game_and_seat(game_id, user)
    latest = list(Message.objects.filter(game=game).select_related("user")
                  .order_by("-created_at", "-id")[:limit])
    return latest[::-1]
