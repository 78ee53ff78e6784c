"""The mail backend of the development setup (``./dev run`` with no ``EMAIL_HOST``):
mail goes nowhere. Each mail is printed on the console as a reader wants it in the
server's log: its headers that matter, its text part, and one line naming its
other parts (the HTML, the board picture) with their sizes, never their base64.
Each one the outbox did not write (the password reset, which Django sends
itself) is kept as a file in ``MARRAM_DEV_MAIL_DIR``, the newest KEPT of them, for
the mail page (notifications.mailbox), which shows a mail's text with its board
picture: the outbox's own rows are read there from the database.

settings.py chooses this backend only outside production and only when no
``EMAIL_HOST`` is set; the mail page reads mail by address only where it is the
backend (``mailbox.mailbox_by_address_enabled``), that is where no mail leaves
the machine.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.message import EmailMessage as ParsedMessage
from email.parser import BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from pathlib import Path

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.console import EmailBackend as ConsoleBackend
from django.db import DatabaseError

from notifications.models import Notification

logger = logging.getLogger(__name__)

BACKEND = "notifications.devmail.DevelopmentMailBackend"
KEPT = 200
"""Kept mails, at most: the oldest go as new ones come."""


class DevelopmentMailBackend(ConsoleBackend):
    """The console backend, printing each mail's text part and a line on its other
    parts, that also keeps, for the mail page, the mails the outbox did not write."""

    def write_message(self, message: EmailMessage) -> None:
        self.stream.write(summary(message))

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = super().send_messages(email_messages)
        for message in email_messages:
            try:
                keep(message)
            except (OSError, DatabaseError):  # the mail is printed: the page misses it
                logger.exception("mail to %s not kept for the mail page", message.to)
        return sent


def summary(message: EmailMessage) -> str:
    """What the console shows of a mail: its headers that matter, its text part and
    one line on its other parts, ending in a rule."""
    made = message.message()
    heads = [("Date", str(made["Date"] or "")),
             ("From", message.extra_headers.get("From", message.from_email)),
             ("To", ", ".join(message.to)), ("Cc", ", ".join(message.cc)),
             ("Reply-To", ", ".join(message.reply_to)), ("Subject", message.subject)]
    text, others = None, []
    for part in made.walk():
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        data = part.get_payload(decode=True) or b""
        if text is None and kind == "text/plain" and not part.get_filename():
            text = data.decode(part.get_content_charset() or "utf-8", errors="replace")
            continue
        name = f" {part.get_filename()}" if part.get_filename() else ""
        others.append(f"{kind}{name} ({len(data) / 1024:.1f} kB)")
    lines = [f"{name}: {value}" for name, value in heads if value]
    lines += ["", (text or "(no text part)").rstrip("\n"), ""]
    if others:
        lines.append(f"Not shown: {'; '.join(others)}")
    return "\n".join(lines) + "\n" + "-" * 79 + "\n"


def _folder() -> Path:
    return Path(settings.MARRAM_DEV_MAIL_DIR)


def keep(message: EmailMessage) -> Path | None:
    """Write ``message`` to the kept mail unless it is one of the outbox's; its file."""
    made = message.message()
    message_id = str(made["Message-ID"] or "")
    if message_id and Notification.objects.filter(message_id=message_id).exists():
        return None
    folder = _folder()
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{time.time_ns():020d}-{hashlib.sha256(message_id.encode()).hexdigest()[:12]}.eml"
    path = folder / name
    path.write_bytes(made.as_bytes(linesep="\n"))
    for old in sorted(folder.glob("*.eml"))[:-KEPT]:
        old.unlink(missing_ok=True)
    return path


@dataclass(frozen=True)
class KeptMail:
    key: str
    subject: str
    sent_at: datetime | None
    body_text: str


def kept_mails(address: str) -> list[KeptMail]:
    """The kept mails to ``address`` (any case), newest first."""
    address = address.strip().lower()
    folder = _folder()
    if not address or not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("*.eml"), reverse=True):
        try:
            parsed = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        except OSError:  # gone meanwhile
            continue
        assert isinstance(parsed, ParsedMessage)
        to = {a.lower() for _, a in getaddresses([str(v) for v in parsed.get_all("To", [])])}
        if address in to:
            found.append(_kept(path, parsed))
    return found


def _kept(path: Path, parsed: ParsedMessage) -> KeptMail:
    body = parsed.get_body(preferencelist=("plain",))
    try:
        sent_at: datetime | None = parsedate_to_datetime(str(parsed["Date"]))
    except (TypeError, ValueError):
        sent_at = None
    return KeptMail(key=path.stem, subject=str(parsed["Subject"] or ""), sent_at=sent_at,
                    body_text=body.get_content() if body is not None else "")
