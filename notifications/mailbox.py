"""A mail box inside the site, for trying reply-by-mail with ``./dev run`` alone.

Each player reads the mail the site sent to their address (the outbox keeps
every one, with its subject, bodies, reply address and Message-ID) and answers
one as a mail client would. The answer goes in through
``inbound.inbound_reply_handle``, the one entrance of the SMTP listener and the
webhook, with the player's own address as its sender: whatever a real reply
would do, this does, and the site's answer arrives in the same box.

Only where ``MARRAM_MAIL_INBOX_PAGE`` is on, never in production: there mail
goes to real mail boxes and comes back through the listener or the webhook.

Mail to an address can also be read without signing in (``?to=address``): the
mail a player needs before they can sign in (the password reset, which the
development mail backend keeps, notifications.devmail) and the mail to an
address with no account (an invitation, an answer to a stranger). Only where,
besides, the mail backend is the development one, so that no mail leaves the
machine: where mail is really sent, it is read in the mail box it went to.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from email.utils import format_datetime, make_msgid

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from notifications import board_mail, devmail, inbound
from notifications.mailsafe import address_problem
from notifications.models import InboundMail, Notification
from web.errors import Invalid, NotFound

SHOWN = 50


def mailbox_enabled() -> bool:
    return bool(getattr(settings, "MARRAM_MAIL_INBOX_PAGE", False))


def mailbox_by_address_enabled() -> bool:
    """Whether mail may be read by address, without signing in: the mail page is on
    and no mail leaves the machine (the development mail backend)."""
    return mailbox_enabled() and settings.EMAIL_BACKEND == devmail.BACKEND


@dataclass(frozen=True)
class ShownMail:
    """A mail as the page shows it: one of the outbox's (``mail``) or one the
    development backend kept."""

    key: str
    subject: str
    sent_at: datetime | None
    body_text: str
    mail: Notification | None = None
    picture: dict[str, str] | None = None

    @property
    def reply_to(self) -> str:
        return self.mail.reply_to if self.mail is not None else ""

    @property
    def in_reply_to(self) -> str:
        return self.mail.in_reply_to if self.mail is not None else ""


def _shown(outbox: list[Notification], kept: list[devmail.KeptMail]) -> list[ShownMail]:
    shown = [ShownMail(key=str(n.pk), subject=n.subject, sent_at=n.sent_at,
                       body_text=n.body_text, mail=n, picture=board_mail.picture_shown(n))
             for n in outbox]
    shown += [ShownMail(key=f"kept-{k.key}", subject=k.subject, sent_at=k.sent_at,
                        body_text=k.body_text) for k in kept]
    shown.sort(key=lambda m: m.sent_at.timestamp() if m.sent_at else 0.0, reverse=True)
    return shown[:SHOWN]


def mailbox_shown(user: User) -> list[ShownMail]:
    """What the user's mail box shows, newest first: the outbox's mail to them
    (``mailbox_mails``) and what the development backend kept for their address."""
    return _shown(list(mailbox_mails(user)[:SHOWN]), devmail.kept_mails(_address(user)))


def mailbox_shown_to(address: str) -> list[ShownMail]:
    """The mail to an address that may be read without signing in, newest first:
    the outbox's mail to it that is no account's (an invitation, an answer to a
    mail from it that found no account) and what the development backend kept
    (the password reset). An account's own mail needs its sign-in."""
    address = address.strip()
    if address_problem(address):
        raise Invalid(f"{address[:80]!r} is not an address", code="bad_address")
    outbox = (Notification.objects.filter(user__isnull=True, to_email__iexact=address,
                                          status=Notification.Status.SENT)
              .order_by("-sent_at", "-pk"))
    return _shown(list(outbox[:SHOWN]), devmail.kept_mails(address))


def _address(user: User) -> str:
    return (getattr(user, "email", "") or "").strip()


def mailbox_mails(user: User) -> QuerySet[Notification]:
    """The mail sent to the user's address, newest first: theirs, and answers to
    a mail from that address that found no account."""
    address = _address(user)
    if not address:
        return Notification.objects.none()
    mine = Q(user=user) | Q(user__isnull=True, to_email__iexact=address)
    return (Notification.objects.filter(mine, status=Notification.Status.SENT)
            .order_by("-sent_at", "-pk"))


def mailbox_mail_get(user: User, mail_id: int) -> Notification:
    found = mailbox_mails(user).filter(pk=mail_id).select_related("game").first()
    if found is None:
        raise NotFound(f"you have no mail {mail_id}", code="no_such_mail")
    return found


def mailbox_replies(user: User) -> QuerySet[InboundMail]:
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


def mailbox_reply_send(*, user: User, mail: Notification, to: str, subject: str,
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
