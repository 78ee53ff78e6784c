"""Moves by mail: a reply to a signed address plays the move its first line writes.

Mail arrives from the SMTP listener (``manage.py mail_listener``, the message and
its envelope), a hosted provider's webhook (``/mail/inbound/<provider>/``, read by
django-anymail) or the site's own JSON webhook (``/mail/inbound/``); each is one
whole message read by ``mailparse.mail_parse`` (``inbound_mail_handle``), and all
end in ``inbound_reply_handle``. Mail written by a machine (an auto-reply, a
bounce, a read receipt) is recorded and never answered. Each Message-ID is handled
once (a unique row), and the move is submitted with an idempotency key made from it, so a message
delivered twice plays once. Whatever goes wrong is answered in plain words and
changes nothing: a forged or altered address, a stale one (the game has moved
on), a sender who is not the seat's player, a line that is not a move, a move
the rules refuse.

Who sent a mail rests on its From line and on the signed address, which only
the player it was mailed to has seen. Checking SPF/DKIM is the receiving MTA's
or the hosted provider's job: point them at this only after those checks.

A From line can be forged, so a refusal is never mailed to it: it goes to the
player the reply address was mailed to, or, when the address is not one we
signed, to nobody. At most ANSWERS_PER_HOUR refusals are mailed an hour for
the mail of one sender, and as many to one player; what a stranger wrote
(their subject, their text) is not repeated to the player, and what a player
wrote is repeated only as one bounded line without control characters.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import timedelta
from email.message import Message
from email.utils import parseaddr
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from engine.errors import IllegalAction, NotationError
from games import services as game_services
from games.models import Game, Seat
from games.selectors import rules_of
from notifications import board_mail, emails, signing
from notifications.mailparse import Envelope, ParsedMail, mail_parse, move_line, move_words
from notifications.mailsafe import header_text, plain_text
from notifications.models import InboundMail, Notification
from notifications.services import game_visit_forget, next_turn_mail, notifications_queue
from web.errors import ServiceError, StaleSeq

logger = logging.getLogger(__name__)
Outcome = InboundMail.Outcome

ANSWERS_PER_HOUR = 10
"""Refusals mailed in an hour, at most, for one sender's mail and to one player."""
SUBJECT_ECHOED = 150


@dataclass(frozen=True)
class InboundResult:
    outcome: str
    """played, refused, ignored or duplicate."""
    code: str = ""
    message: str = ""
    answered: bool = False
    """Whether an answer was mailed (to the seat's player)."""


class _Refusal(Exception):
    """Why a reply is not played, and to whom that is told: the player the reply
    address was mailed to (None: nobody); ``stranger`` when the mail came from
    another address than theirs."""

    def __init__(self, code: str, message: str, *, player: User | None = None,
                 stranger: bool = False) -> None:
        super().__init__(message)
        self.code, self.message = code, message
        self.player, self.stranger = player, stranger


def idempotency_key_for(message_id: str) -> str:
    return "mail:" + hashlib.sha256(message_id.encode()).hexdigest()[:40]


def inbound_mail_handle(raw: bytes | Message, recipients: list[str] | None = None, *,
                        mail_from: str | None = None) -> InboundResult:
    """Handle one message: its RFC 5322 bytes, or a message parsed already (a
    provider's). ``recipients`` and ``mail_from`` are the SMTP envelope's (''
    for the null sender ``<>``, None when unknown); without recipients the
    To/Cc/Delivered-To headers are read."""
    return inbound_parsed_handle(mail_parse(raw, Envelope(mail_from, tuple(recipients or ()))))


def inbound_parsed_handle(mail: ParsedMail) -> InboundResult:
    candidates = [*mail.envelope.rcpt_tos, *mail.recipients]
    recipient = next((a for a in candidates if signing.is_reply_address(a)),
                     candidates[0] if candidates else "")
    return inbound_reply_handle(recipient=recipient, sender=mail.sender,
                                message_id=mail.message_id, text=mail.text,
                                subject=mail.subject, automatic=mail.automatic,
                                automatic_reason=mail.automatic_reason)


def inbound_reply_handle(
    *, recipient: str, sender: str, message_id: str, text: str, subject: str = "",
    automatic: bool = False, automatic_reason: str = "",
) -> InboundResult:
    """Play the move a reply holds, or refuse it and say why by mail."""
    # Whatever arrives (NUL, CR/LF, a megabyte of subject) is made storable here,
    # the one entrance of the listener, the webhook and the mail page.
    sender = parseaddr(header_text(sender, 1000))[1].strip().lower()
    recipient, message_id = header_text(recipient, 250), header_text(message_id, 250)
    subject, text = header_text(subject, SUBJECT_ECHOED), plain_text(text)
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = InboundMail.objects.create(
                    message_id=message_id[:250], sender=sender[:250], recipient=recipient[:250],
                    outcome=Outcome.IGNORED)
        except IntegrityError:
            return InboundResult("duplicate", "duplicate", "this message was handled before")
        if automatic or not sender or not signing.is_reply_address(recipient):
            record.code = "not_a_reply_address" if sender and not automatic else "automatic"
            record.detail = header_text(automatic_reason or ("no sender" if not sender else ""),
                                        200)
            record.save(update_fields=["code", "detail"])
            return InboundResult(Outcome.IGNORED, record.code)
        try:
            answer = _play(record, sender, text)
        except _Refusal as refusal:
            record.outcome, record.code, record.detail = Outcome.REFUSED, refusal.code, \
                refusal.message
            record.answered = _refusal_answer(record, refusal, subject)
            record.save(update_fields=["outcome", "code", "detail", "game", "move", "answered"])
            return InboundResult(Outcome.REFUSED, refusal.code, refusal.message,
                                 record.answered)
        if "command" in answer:  # done, and seen where it was done: no answer by mail
            record.outcome, record.code = Outcome.PLAYED, "command"
            record.save(update_fields=["outcome", "code", "game", "move"])
            return InboundResult(Outcome.PLAYED, "command", record.move)
        record.outcome, record.answered = Outcome.PLAYED, True
        record.save(update_fields=["outcome", "game", "move", "answered"])
        _answer(record, _re(subject), template="reply_played",
                kind=Notification.Kind.REPLY_PLAYED, context=answer, user_id=answer["user_id"],
                to_email=record.sender, seat=answer["seat"], seq=answer["seq"],
                reply_to=answer["reply_to"])
        return InboundResult(Outcome.PLAYED, "played", answer["played"], True)


def _refusal_answer(record: InboundMail, refusal: _Refusal, subject: str) -> bool:
    """Mail the refusal to the player the reply address was mailed to, unless
    that is nobody or too many went out this hour; whether it was mailed."""
    player, game = refusal.player, record.game
    if player is None or game is None:  # (the game is known once the player is: _play)
        return False
    since = timezone.now() - timedelta(hours=1)
    by_sender = InboundMail.objects.filter(sender=record.sender, outcome=Outcome.REFUSED,
                                           answered=True, received_at__gte=since)
    to_player = Notification.objects.filter(user=player, kind=Notification.Kind.REPLY_REFUSED,
                                            created_at__gte=since)
    if by_sender.count() >= ANSWERS_PER_HOUR or to_player.count() >= ANSWERS_PER_HOUR:
        logger.info("refusal of %s not mailed: %s refusals an hour at most", record.message_id,
                    ANSWERS_PER_HOUR)
        return False
    if refusal.stranger:  # their subject and text are not repeated to the player
        title = rules_of(game).title
        _answer(record, f"{title} game {game.pk}: a mail to your reply address was not played",
                template="reply_refused", kind=Notification.Kind.REPLY_REFUSED,
                context={"reason": refusal.message, "stranger": record.sender},
                user_id=player.pk, to_email=player.email, thread=False)
    else:
        _answer(record, _re(subject), template="reply_refused",
                kind=Notification.Kind.REPLY_REFUSED,
                context={"reason": refusal.message, "move": record.move}, user_id=player.pk,
                to_email=player.email)
    return True


def _re(subject: str) -> str:
    return subject if subject.lower().startswith("re:") else f"Re: {subject or 'your move'}"


def _play(record: InboundMail, sender: str, text: str) -> dict[str, Any]:
    """Check the reply and submit its move; _Refusal with the reason otherwise."""
    try:
        bound = signing.reply_address_read(record.recipient)
    except signing.BadAddress as bad:  # not an address we mailed to anyone: nobody to tell
        raise _Refusal(bad.code, bad.message) from None
    game = Game.objects.filter(pk=bound.game_id).first()
    seat = Seat.objects.filter(game=game, index=bound.seat).select_related("user").first()
    if game is None or seat is None or seat.user is None:
        raise _Refusal("no_such_seat", f"game {bound.game_id} has no seat {bound.seat} any more")
    record.game = game
    player = seat.user
    if not sender or sender != (player.email or "").strip().lower():
        raise _Refusal(
            "wrong_sender",
            f"this reply address belongs to {seat.name}'s seat in game {game.pk}; a move "
            "through it must come from the address that player's mail went to, and this "
            f"mail came from {sender}", player=player, stranger=True)
    line = move_line(text)
    if bound.command and line.split(" ", 1)[0].lower() not in settings.MARRAM_MAIL_COMMANDS:
        line = f"{bound.command} {line}"  # an address for one command (say+: the chat)
    record.move = header_text(line, 200)
    command = settings.MARRAM_MAIL_COMMANDS.get(line.split(" ", 1)[0].lower())
    if command is not None:  # another app's line ("say ..." posts to the game's chat)
        try:
            import_string(command)(game_id=game.pk, user=player, line=line)
        except ServiceError as error:
            raise _Refusal(error.code, error.message, player=player) from None
        return {"command": command}
    try:
        rules = rules_of(game)
        # read alike in every game: without the full stop a phone puts after it
        action = dict(rules.parse_action(move_words(record.move), bound.seat))
    except NotationError as error:
        raise _Refusal("unreadable", f"the first line of your reply is not a move: {error}",
                       player=player) from None
    try:
        result = game_services.action_submit(
            game=game, user=player, action=action, expected_seq=bound.seq,
            idempotency_key=idempotency_key_for(record.message_id))
    except StaleSeq:
        raise _Refusal(
            "stale", "the game has moved on since the mail you answered, so its reply address "
            "no longer plays; answer the latest mail, or open the game page",
            player=player) from None
    except IllegalAction as error:
        raise _Refusal(error.code, f"the rules do not allow that move: {error.message}",
                       player=player) from None
    except ServiceError as error:
        raise _Refusal(error.code, error.message, player=player) from None
    # played by mail: a page seen before is no sign that the player is looking now
    game_visit_forget(user_id=player.pk, game_id=game.pk)
    names = game.config_players()
    played, *after = result.events
    state = board_mail.state_at(game, result.seq)
    yours = bound.seat in rules.awaiting(state).players
    return {
        "user_id": seat.user_id,
        "seat": bound.seat,
        "seq": result.seq,
        "played": rules.format_action(played.payload),
        "after": [rules.describe_event(e.payload, names, forced=e.actor_id is None)
                  for e in after],
        "awaiting": emails.awaiting_words(game, state, bound.seat) if yours else "",
        "finished": result.status == Game.Status.FINISHED,
        "reply_to": signing.reply_address(game.pk, bound.seat, result.seq) if yours else "",
        "next_mail": next_turn_mail(player),
        # the second move of the turn: the hand, moves and board as a turn mail shows them
        **(board_mail.turn_details(game, state, bound.seat, result.seq) if yours else {}),
    }


def _answer(record: InboundMail, subject: str, *, template: str, kind: str,
            context: dict[str, Any], user_id: int, to_email: str, seat: int | None = None,
            seq: int | None = None, reply_to: str = "", thread: bool = True) -> None:
    """Queue the answer to a reply, to the player ``user_id`` (``to_email``, their
    address now, is for the admin: the mail goes to the address their account has
    when it is sent); with ``thread``, as an answer to the reply."""
    context = {**context, **emails.links(user_id=user_id, game=record.game)}
    text, html = emails.render_bodies(template=template, context=context)
    notifications_queue([Notification(
        user_id=user_id, to_email=to_email, game=record.game, seat=seat, seq=seq, kind=kind,
        dedup_key=f"answer:{hashlib.sha256(record.message_id.encode()).hexdigest()}",
        subject=subject, body_text=text, body_html=html,
        in_reply_to=record.message_id if thread else "", reply_to=reply_to,
    )], may_exist=True)
