"""Moves by mail: a reply to a signed address plays the move its first line writes.

Mail arrives from the SMTP listener (``manage.py mail_listener``, raw bytes) or a
hosted provider's webhook (``/mail/inbound/``, already parsed); both end in
``inbound_reply_handle``. Each Message-ID is handled once (a unique row), and
the move is submitted with an idempotency key made from it, so a message
delivered twice plays once. Whatever goes wrong is answered in plain words and
changes nothing: a forged or altered address, a stale one (the game has moved
on), a sender who is not the seat's player, a line that is not a move, a move
the rules refuse.

Who sent a mail rests on its From line and on the signed address, which only
the player it was mailed to has seen. Checking SPF/DKIM is the receiving MTA's
or the hosted provider's job: point them at this only after those checks.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from email.utils import parseaddr
from typing import Any

from django.db import IntegrityError, transaction

from engine import marram as engine
from engine.marram.notation import NotationError, describe_event, format_action, parse_action
from games import services as game_services
from games.errors import ServiceError, StaleSeq
from games.models import Game, Seat
from notifications import board_mail, emails, signing
from notifications.mailparse import mail_parse, move_line
from notifications.models import InboundMail, Notification
from notifications.services import notifications_queue

logger = logging.getLogger(__name__)
Outcome = InboundMail.Outcome


@dataclass(frozen=True)
class InboundResult:
    outcome: str
    """played, refused, ignored or duplicate."""
    code: str = ""
    message: str = ""


class _Refusal(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def idempotency_key_for(message_id: str) -> str:
    return "mail:" + hashlib.sha256(message_id.encode()).hexdigest()[:40]


def inbound_mail_handle(raw: bytes, recipients: list[str] | None = None) -> InboundResult:
    """Handle one raw message (RFC 5322 bytes). ``recipients`` are the SMTP
    envelope's; without them the To/Cc/Delivered-To headers are read."""
    mail = mail_parse(raw)
    candidates = [*(recipients or []), *mail.recipients]
    recipient = next((a for a in candidates if signing.is_reply_address(a)),
                     candidates[0] if candidates else "")
    return inbound_reply_handle(recipient=recipient, sender=mail.sender,
                                message_id=mail.message_id, text=mail.text,
                                subject=mail.subject, automatic=mail.automatic)


def inbound_reply_handle(
    *, recipient: str, sender: str, message_id: str, text: str, subject: str = "",
    automatic: bool = False,
) -> InboundResult:
    """Play the move a reply holds, or refuse it and say why by mail."""
    sender = parseaddr(sender)[1].strip().lower()
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
            record.save(update_fields=["code"])
            return InboundResult(Outcome.IGNORED, record.code)
        try:
            answer = _play(record, sender, text)
        except _Refusal as refusal:
            record.outcome, record.code, record.detail = Outcome.REFUSED, refusal.code, \
                refusal.message
            record.save(update_fields=["outcome", "code", "detail", "game", "move"])
            _answer(record, subject, template="reply_refused", kind=Notification.Kind.REPLY_REFUSED,
                    context={"reason": refusal.message, "move": record.move})
            return InboundResult(Outcome.REFUSED, refusal.code, refusal.message)
        record.outcome = Outcome.PLAYED
        record.save(update_fields=["outcome", "game", "move"])
        _answer(record, subject, template="reply_played", kind=Notification.Kind.REPLY_PLAYED,
                context=answer, user_id=answer["user_id"], seat=answer["seat"],
                seq=answer["seq"], reply_to=answer["reply_to"])
        return InboundResult(Outcome.PLAYED, "played", answer["played"])


def _play(record: InboundMail, sender: str, text: str) -> dict[str, Any]:
    """Check the reply and submit its move; _Refusal with the reason otherwise."""
    try:
        bound = signing.reply_address_read(record.recipient)
    except signing.BadAddress as bad:
        raise _Refusal(bad.code, bad.message) from None
    game = Game.objects.filter(pk=bound.game_id).first()
    seat = Seat.objects.filter(game=game, index=bound.seat).select_related("user").first()
    if game is None or seat is None or seat.user is None:
        raise _Refusal("no_such_seat", f"game {bound.game_id} has no seat {bound.seat} any more")
    record.game = game
    if not sender or sender != (seat.user.email or "").strip().lower():
        raise _Refusal(
            "wrong_sender",
            f"this reply address belongs to {seat.name}'s seat in game {game.pk}; a move "
            "through it must come from the address that player's mail went to")
    record.move = move_line(text)[:200]
    try:
        action = parse_action(record.move, bound.seat)
    except NotationError as error:
        raise _Refusal("unreadable", f"the first line of your reply is not a move: {error}") \
            from None
    try:
        result = game_services.action_submit(
            game=game, user=seat.user, action=action, expected_seq=bound.seq,
            idempotency_key=idempotency_key_for(record.message_id))
    except StaleSeq:
        raise _Refusal(
            "stale", "the game has moved on since the mail you answered, so its reply address "
            "no longer plays; answer the latest mail, or open the game page") from None
    except engine.IllegalAction as error:
        raise _Refusal(error.code, f"the rules do not allow that move: {error.message}") \
            from None
    except ServiceError as error:
        raise _Refusal(error.code, error.message) from None
    names = list(engine.config_from_json(game.config).players)
    played, *after = result.events
    yours = result.awaiting.get("player") == bound.seat and result.status == Game.Status.RUNNING
    return {
        "user_id": seat.user_id,
        "seat": bound.seat,
        "seq": result.seq,
        "played": format_action(played.payload),
        "after": [describe_event(e.payload, names, forced=e.actor_id is None)
                  for e in after],
        "awaiting": emails.awaiting_words(result.awaiting) if yours else "",
        "finished": result.status == Game.Status.FINISHED,
        "reply_to": signing.reply_address(game.pk, bound.seat, result.seq) if yours else "",
        # the second move of the turn: the hand, moves and board as a turn mail shows them
        **(board_mail.turn_details(game, board_mail.state_at(game, result.seq), bound.seat,
                                   result.seq) if yours else {}),
    }


def _answer(record: InboundMail, subject: str, *, template: str, kind: str,
            context: dict[str, Any], user_id: int | None = None, seat: int | None = None,
            seq: int | None = None, reply_to: str = "") -> None:
    context = {**context, **emails.links(user_id=user_id, game=record.game)}
    text, html = emails.render_bodies(template=template, context=context)
    subject = subject if subject.lower().startswith("re:") else f"Re: {subject or 'your move'}"
    notifications_queue([Notification(
        user_id=user_id, to_email=record.sender, game=record.game, seat=seat, seq=seq, kind=kind,
        dedup_key=f"answer:{hashlib.sha256(record.message_id.encode()).hexdigest()}",
        subject=subject[:200], body_text=text, body_html=html, in_reply_to=record.message_id,
        reply_to=reply_to,
    )], may_exist=True)
