"""A mail box inside the site, for trying reply-by-mail with ``./dev run`` alone.

Each player reads the mail the site sent to their address (the outbox keeps
every one, with its subject, bodies, reply address and Message-ID) and answers
one as a mail client would. The answer goes in through
``inbound.inbound_reply_handle``, the one entrance of the SMTP listener and the
webhook, with the player's own address as its sender: whatever a real reply
would do, this does, and the site's answer arrives in the same box.

Only where ``MARRAM_MAIL_INBOX_PAGE`` is on, never in production: there mail
goes to real mail boxes and comes back through the listener or the webhook.
"""

from __future__ import annotations

from email.utils import format_datetime, make_msgid

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet

from games.errors import Invalid, NotFound
from notifications import inbound
from notifications.models import InboundMail, Notification

SHOWN = 50


def mailbox_enabled() -> bool:
    return bool(getattr(settings, "MARRAM_MAIL_INBOX_PAGE", False))


def _address(user: AbstractBaseUser) -> str:
    return (getattr(user, "email", "") or "").strip()


def mailbox_mails(user: AbstractBaseUser) -> QuerySet[Notification]:
    """The mail sent to the user's address, newest first: theirs, and answers to
    a mail from that address that found no account."""
    address = _address(user)
    if not address:
        return Notification.objects.none()
    mine = Q(user=user) | Q(user__isnull=True, to_email__iexact=address)
    return (Notification.objects.filter(mine, status=Notification.Status.SENT)
            .order_by("-sent_at", "-pk"))


def mailbox_mail_get(user: AbstractBaseUser, mail_id: int) -> Notification:
    found = mailbox_mails(user).filter(pk=mail_id).select_related("game").first()
    if found is None:
        raise NotFound(f"you have no mail {mail_id}", code="no_such_mail")
    return found


def mailbox_replies(user: AbstractBaseUser) -> QuerySet[InboundMail]:
    """What the site received from the user's address, newest first."""
    address = _address(user).lower()
    if not address:
        return InboundMail.objects.none()
    return InboundMail.objects.filter(sender=address).order_by("-received_at", "-pk")


def reply_subject(mail: Notification) -> str:
    return mail.subject if mail.subject.lower().startswith("re:") else f"Re: {mail.subject}"


def reply_quote(mail: Notification) -> str:
    """The body a mail client starts a reply with: room for the answer on top,
    then the mail quoted."""
    when = format_datetime(mail.sent_at) if mail.sent_at else "an earlier day"
    quoted = "\n".join(f"> {line}" if line else ">" for line in mail.body_text.splitlines())
    return f"\n\nOn {when}, {settings.DEFAULT_FROM_EMAIL} wrote:\n{quoted}\n"


def mailbox_reply_send(*, user: AbstractBaseUser, mail: Notification, to: str, subject: str,
                       text: str) -> inbound.InboundResult:
    """Send the user's reply to ``to``, as a mail from their address arriving at
    the site: through the inbound path, like any reply."""
    sender = _address(user)
    if not sender:
        raise Invalid("your account has no email address, so no mail can come from it; "
                      "mail is sent to and answered from that address", code="no_address")
    return inbound.inbound_reply_handle(
        recipient=to.strip(), sender=sender, subject=subject or reply_subject(mail),
        message_id=make_msgid(idstring="mailbox", domain=settings.REPLY_DOMAIN), text=text)
