"""Reading a reply: who sent it, to which address, and the line that holds the move."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr

from django.utils.html import strip_tags

# "On Tue, 3 Jun 2025, ann <ann@example.org> wrote:" and its cousins in other
# languages: the line a mail client writes above the quoted text.
_ATTRIBUTION = re.compile(r"(wrote|schrieb|a écrit|escribió|scrisse|schreef)\s*:\s*$", re.I)
_AUTOMATIC_SENDERS = ("mailer-daemon@", "postmaster@", "noreply@", "no-reply@")


@dataclass(frozen=True)
class ParsedMail:
    sender: str
    """The address in From:, lower-cased ('' if there is none)."""
    recipients: list[str]
    message_id: str
    subject: str
    text: str
    automatic: bool
    """A bounce or an auto-reply: never answered, or two robots would talk forever."""


def _text_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain", "html"))
    if body is None:
        return ""
    try:
        content = body.get_content()
    except (LookupError, UnicodeError):  # an unknown or lying charset
        payload = body.get_payload(decode=True) or b""
        content = payload.decode("utf-8", errors="replace")
    if body.get_content_subtype() == "html":
        content = strip_tags(re.sub(r"(?i)<br\s*/?>|</p>|</div>", "\n", content))
    return content


def _is_automatic(message: EmailMessage, sender: str) -> bool:
    auto = (_header(message, "Auto-Submitted") or "no").strip().lower()
    precedence = _header(message, "Precedence").strip().lower()
    return (
        auto != "no"
        or precedence in ("bulk", "junk", "list")
        or not sender
        or sender.startswith(_AUTOMATIC_SENDERS)
    )


def _headers(message: EmailMessage, name: str) -> list[str]:
    """The values of the headers named so, decoded; a value the standard
    library will not decode (an encoded CR/LF in a display name, say) as its
    raw text instead, so that one odd header does not make the mail unreadable."""
    try:
        return [str(value) for value in message.get_all(name, [])]
    except Exception:  # the header parser raises ValueError, IndexError, ... on hostile input
        return [value for key, value in message.raw_items() if key.lower() == name.lower()]


def _header(message: EmailMessage, name: str) -> str:
    return next(iter(_headers(message, name)), "")


def mail_parse(raw: bytes) -> ParsedMail:
    message = BytesParser(policy=policy.default).parsebytes(raw)
    sender = parseaddr(_header(message, "From"))[1].strip().lower()
    recipients = [
        address for _, address in getaddresses(
            [value for field in ("Delivered-To", "To", "Cc") for value in _headers(message, field)]
        ) if address
    ]
    # Without a Message-ID the same bytes count as the same message.
    message_id = _header(message, "Message-ID").strip() or (
        "<sha256-" + hashlib.sha256(raw).hexdigest() + "@no-message-id>")
    return ParsedMail(
        sender=sender,
        recipients=recipients,
        message_id=message_id,
        subject=_header(message, "Subject").strip(),
        text=_text_of(message),
        automatic=_is_automatic(message, sender),
    )


def move_line(text: str) -> str:
    """The first line that is neither empty, nor quoted, nor the "... wrote:" line
    above a quote. A signature ("-- ") ends the search."""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(">") or _ATTRIBUTION.search(line):
            continue
        if line in ("--", "-- "):
            return ""
        return line
    return ""
