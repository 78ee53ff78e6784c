"""Receive replies by SMTP: ``manage.py mail_listener --host 127.0.0.1 --port 8025``.

Point REPLY_DOMAIN's MX (or the site's MTA, as a transport for that domain) at
it. Only reply addresses (``move+...@REPLY_DOMAIN``) are accepted at RCPT, so
it relays nothing (the site's own return paths, ``bounce+...``, and unsubscribe
addresses are taken too: ``notifications.bounces``). A message is acknowledged
(250) once it has been handled and committed. If handling fails for a reason
that may pass (the database is down or unreachable) the sender is told to try
later (451), and the sending MTA's
retry is safe: a Message-ID is handled once. Any other failure would recur on
every retry, so it is refused for good (554) and the sender's MTA stops trying.

Mail of up to ``MAX_MESSAGE_BYTES`` (50 MiB: a phone's photos attached) is
taken; its attachments are dropped as they arrive and only its headers and text
are kept (``notifications.mailstream``). The envelope goes with the message:
its MAIL FROM (empty for bounces and automatic replies, which are never
answered) and its RCPT TO.
"""

from __future__ import annotations

import logging
import signal
import threading
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import InterfaceError, OperationalError, close_old_connections

from notifications import signing
from notifications.bounces import returned_mail_handle
from notifications.inbound import inbound_mail_handle
from notifications.mailstream import MAX_MESSAGE_BYTES, SkimmingController

logger = logging.getLogger(__name__)
TRANSIENT = (OperationalError, InterfaceError, OSError)
"""Failures a later try may not meet: the database down, restarting, unreachable."""


def _handle(raw: bytes, recipients: list[str], mail_from: str) -> str:
    close_old_connections()
    try:
        returned = [a for a in recipients if signing.is_return_address(a)]
        if returned:  # a bounce, an unsubscribe: not a reply
            outcome = returned_mail_handle(raw, returned, mail_from=mail_from)
            recipients = [a for a in recipients if a not in returned]
            if not recipients:
                return outcome
        return inbound_mail_handle(raw, recipients, mail_from=mail_from).outcome
    finally:
        close_old_connections()


class ReplyHandler:
    """aiosmtpd handler: accept mail for reply addresses and hand it to the service."""

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        if not (signing.is_reply_address(address) or signing.is_return_address(address)):
            return "550 5.1.1 Not a Marram reply address"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", errors="replace")
        try:
            outcome = await sync_to_async(_handle, thread_sensitive=True)(
                raw, list(envelope.rcpt_tos), _null_or_address(envelope.mail_from))
        except TRANSIENT:
            logger.exception("could not handle a reply from %s now", envelope.mail_from)
            return "451 4.3.0 Could not handle the message now; try again later"
        except Exception:  # the message itself: the same bytes would fail again
            logger.exception("could not handle a reply from %s", envelope.mail_from)
            return "554 5.6.0 The message could not be read; it will not be accepted"
        logger.info("reply from %s to %s: %s", envelope.mail_from, envelope.rcpt_tos, outcome)
        return "250 Message accepted"


def _null_or_address(mail_from: str | None) -> str:
    """MAIL FROM's address: '' for the null sender ``<>``."""
    return (mail_from or "").strip().strip("<>").strip()


def listener(host: str, port: int) -> SkimmingController:
    return SkimmingController(ReplyHandler(), hostname=host, port=port,
                              data_size_limit=MAX_MESSAGE_BYTES)


class Command(BaseCommand):
    help = "Receive move replies by SMTP and play them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8025)

    def handle(self, *args: Any, host: str, port: int, **options: Any) -> None:
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        controller = listener(host, port)
        controller.start()
        self.stdout.write(f"mail_listener: SMTP on {host}:{port} for *@{settings.REPLY_DOMAIN}",
                          ending="\n")
        self.stdout.flush()
        try:
            stop.wait()
        finally:
            controller.stop()
