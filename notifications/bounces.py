"""Mail that comes back: bounces of our own mail, and unsubscribing by mail.

Each mail of the outbox is sent with a return path of its own (VERP): the
envelope's sender is ``bounce+<row id>.<sig>@REPLY_DOMAIN``, the signature made
from the row and the address it went to (``signing.bounce_address``), while
From: stays the site's. A mail server that cannot deliver it sends the
delivery report (RFC 3464: ``multipart/report`` with a
``message/delivery-status`` part) to that address, which REPLY_DOMAIN's MX
brings to the SMTP listener; the listener hands it here (``returned_mail_handle``).

A report is read for each recipient's Action and Status: ``failed`` with a
5.x.x status is a hard bounce, a 4.x.x status (``delayed``, or a ``failed``
after the queue gave up) a soft one, ``delivered`` or ``relayed`` no bounce. A
bounce that is not a report (an old MTA's text) counts when it came from the
null sender and its text holds a status code. Anything else sent to a return
path (an auto-reply, say) is no bounce and is ignored.

An address stops getting mail (``BouncingAddress``) after ``HARD_BOUNCES`` hard
bounces in ``WINDOW``, or at once after one that says the mailbox or its domain
does not exist (``AT_ONCE``: 5.1.1, 5.1.10). The outbox then skips every mail
to it (``services._skip_reason``) until its player asks to try it again, from
their mail settings, or an admin does; a player who changes their address has
their mail sent to the new one. Soft bounces are recorded and never stop mail.

Unsubscribing: List-Unsubscribe names ``unsubscribe+<user>.<sig>@REPLY_DOMAIN``
beside the one-click URL; any mail to it turns that user's mail off.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import policy
from email.message import Message
from email.parser import BytesParser, Parser

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from notifications import signing
from notifications.mailsafe import header_text
from notifications.models import BouncingAddress, MailBounce, Notification, Policy

logger = logging.getLogger(__name__)

HARD_BOUNCES = 3
WINDOW = timedelta(days=14)
AT_ONCE = frozenset({"5.1.1", "5.1.10"})
"""The mailbox does not exist; the domain takes no mail (a null MX, RFC 7505)."""

STATUS = re.compile(r"(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.])")
"""An enhanced status code (RFC 3463) in a report or a server's answer: 5.1.1."""
_REPORT_TYPES = ("message/delivery-status", "message/global-delivery-status")


@dataclass(frozen=True)
class Report:
    """One recipient's part of a delivery report."""

    action: str
    status: str
    recipients: tuple[str, ...]
    diagnostic: str


# ---------------------------------------------------------------- reading a report


def _fields_blocks(part: Message) -> list[Message]:
    """The blocks of fields of a delivery-status part (the first is about the
    message, each other about one recipient)."""
    payload = part.get_payload()
    if isinstance(payload, list):  # the standard library splits message/delivery-status
        return [block for block in payload if isinstance(block, Message)]
    raw = part.get_payload(decode=True)
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(payload or "")
    return [Parser(policy=policy.default).parsestr(block.strip() + "\n")
            for block in re.split(r"\r?\n\s*\r?\n", text) if block.strip()]


def _address(value: str) -> str:
    """The address of a recipient field (``rfc822; ann@example.org``)."""
    return value.partition(";")[2].strip().strip("<>").strip().lower() if ";" in value \
        else value.strip().strip("<>").strip().lower()


def delivery_reports(message: Message) -> list[Report]:
    """Each recipient's part of the delivery reports the message holds."""
    found = []
    for part in message.walk():
        if part.get_content_type() not in _REPORT_TYPES:
            continue
        for block in _fields_blocks(part):
            action = str(block.get("Action", "")).strip().lower()
            status = STATUS.search(str(block.get("Status", "")))
            if not action and status is None:
                continue  # the block about the message, not a recipient
            recipients = tuple(filter(None, (_address(str(block.get(name, "")))
                                             for name in ("Final-Recipient",
                                                          "Original-Recipient"))))
            found.append(Report(action, ".".join(status.groups()) if status else "",
                                recipients,
                                header_text(str(block.get("Diagnostic-Code", "")), 300)))
    return found


def _text(message: Message) -> str:
    parts = []
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            raw = part.get_payload(decode=True)
            if isinstance(raw, bytes):
                parts.append(raw[:64 * 1024].decode("utf-8", "replace"))
    return "\n".join(parts)


def bounce_read(message: Message, *, null_sender: bool) -> tuple[str, str, str] | None:
    """What the mail says of a delivery: (kind, status, diagnostic) of a bounce,
    the worst of its recipients'; None when it is no bounce."""
    reports = delivery_reports(message)
    worst: tuple[str, str, str] | None = None
    for report in reports:
        if report.action in ("delivered", "relayed", "expanded"):
            continue
        if report.status.startswith("5") and report.action in ("failed", ""):
            return MailBounce.Kind.HARD, report.status, report.diagnostic
        if report.status.startswith("4") or report.action in ("delayed", "failed"):
            worst = worst or (MailBounce.Kind.SOFT, report.status, report.diagnostic)
    if reports or not null_sender:
        return worst
    # an MTA that writes no report: its text, from the null sender, with a status in it
    text = _text(message)
    status = STATUS.search(text)
    if status is None or status.group(1) == "2":
        return None
    line = next((line for line in text.splitlines() if status.group() in line), "")
    kind = MailBounce.Kind.HARD if status.group(1) == "5" else MailBounce.Kind.SOFT
    return kind, ".".join(status.groups()), header_text(line, 300)


# ---------------------------------------------------------------- recording


def returned_mail_handle(raw: bytes, recipients: list[str], *, mail_from: str | None) -> str:
    """Handle a mail to our own addresses that are not reply addresses: a bounce
    to a return path, or a mail to an unsubscribe address. What became of it, in
    a word for the log."""
    outcomes = []
    message = None
    for recipient in recipients:
        if signing.unsubscribe_address_read(recipient) is not None:
            outcomes.append(unsubscribe_by_mail(recipient))
        elif signing.bounce_id(recipient) is not None:
            if message is None:
                message = BytesParser(policy=policy.default).parsebytes(raw)
            outcomes.append(bounce_record(message, raw, recipient, null_sender=mail_from == ""))
        else:
            outcomes.append("ignored")
    return ", ".join(outcomes) or "ignored"


def bounce_record(message: Message, raw: bytes, recipient: str, *, null_sender: bool,
                  now: datetime | None = None) -> str:
    """Record the bounce a mail to the return path ``recipient`` is, and stop
    mail to its address once it bounces for good. 'hard', 'soft', 'suspended'
    (hard, and the address gets no more mail), 'duplicate' or 'ignored'."""
    now = now or timezone.now()
    row_id = signing.bounce_id(recipient)
    row = (Notification.objects.filter(pk=row_id).select_related("user").first()
           if row_id is not None else None)
    if row is None:
        logger.info("a bounce to %s names no mail of ours", recipient)
        return "ignored"
    read = bounce_read(message, null_sender=null_sender)
    if read is None:
        logger.info("mail to the return path %s is no bounce", recipient)
        return "ignored"
    kind, status, diagnostic = read
    candidates = [row.user.email if row.user is not None else "", row.to_email,
                  *(address for report in delivery_reports(message)
                    for address in report.recipients)]
    bound = signing.bounce_address_read(recipient, candidates)
    if bound is None:  # not signed by us, or for an address we cannot name
        logger.warning("a bounce to %s does not match its signature", recipient)
        return "ignored"
    _, address = bound
    message_id = header_text(str(message.get("Message-ID", "") or ""), 250) or (
        "<sha256-" + hashlib.sha256(raw).hexdigest() + "@no-message-id>")
    return bounce_store(MailBounce(message_id=message_id, address=address, user=row.user,
                                   notification=row, kind=kind, status=status,
                                   diagnostic=diagnostic, received_at=now))


def bounce_store(bounce: MailBounce) -> str:
    """Keep a bounce however it was learnt (a delivery report to the return path,
    or a provider's event: notifications.provider_events), mark its mail, and
    stop mail to its address once it bounces for good. 'hard', 'soft',
    'suspended' (hard, and the address gets no more mail) or 'duplicate' (its
    ``message_id`` was kept before)."""
    kind, status, diagnostic = bounce.kind, bounce.status, bounce.diagnostic
    with transaction.atomic():
        try:
            with transaction.atomic():
                bounce.save(force_insert=True)
        except IntegrityError:
            return "duplicate"
        if bounce.notification_id is not None:
            mail = Notification.objects.filter(pk=bounce.notification_id)
            if kind == MailBounce.Kind.HARD:
                mail.filter(status=Notification.Status.SENT).update(
                    status=Notification.Status.BOUNCED,
                    note=f"bounced: {status} {diagnostic}".strip()[:200])
            else:
                mail.update(note=f"delayed: {status} {diagnostic}".strip()[:200])
        suspended = _suspend_if_due(bounce, bounce.received_at)
    logger.info("%s bounce of mail %s to %s (%s)%s", kind, bounce.notification_id,
                bounce.address, status, ": no more mail to it" if suspended else "")
    return "suspended" if suspended else kind


def _suspend_if_due(bounce: MailBounce, now: datetime) -> bool:
    """Stop mail to the bounce's address if it bounces for good now; whether it
    was stopped by this bounce."""
    if bounce.kind != MailBounce.Kind.HARD:
        return False
    counted = MailBounce.objects.filter(address=bounce.address, kind=MailBounce.Kind.HARD,
                                        counted=True, received_at__gte=now - WINDOW)
    many = counted.count()
    if bounce.status in AT_ONCE:
        reason = f"{bounce.status}: the mailbox or its domain does not exist"
    elif many >= HARD_BOUNCES:
        reason = f"{many} hard bounces in {WINDOW.days} days, the last {bounce.status}"
    else:
        return False
    if bounce.diagnostic:
        reason += f" ({bounce.diagnostic})"
    first = counted.order_by("received_at").values_list("received_at", flat=True).first()
    try:
        with transaction.atomic():
            _, made = BouncingAddress.objects.get_or_create(
                address=bounce.address,
                defaults={"user": bounce.user, "since": first or now,
                          "reason": reason[:300], "suspended_at": now})
    except IntegrityError:  # another bounce stopped it at the same moment
        return False
    return made


def bouncing_clear(*, address: str) -> bool:
    """Send mail to ``address`` again (its player fixed it, or an admin says so):
    its bounces so far no longer count. Whether it was stopped."""
    address = address.strip().lower()
    with transaction.atomic():
        deleted, _ = BouncingAddress.objects.filter(address=address).delete()
        MailBounce.objects.filter(address=address, counted=True).update(counted=False)
    return bool(deleted)


# ---------------------------------------------------------------- unsubscribing


def unsubscribe_by_mail(recipient: str) -> str:
    """Any mail to a user's unsubscribe address turns their mail off."""
    from notifications.services import mail_settings_update

    user_id = signing.unsubscribe_address_read(recipient)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    if user is None:
        return "ignored"
    mail_settings_update(user=user, policy=Policy.OFF)
    logger.info("user %s unsubscribed by mail", user.pk)
    return "unsubscribed"
