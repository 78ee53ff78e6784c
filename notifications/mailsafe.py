"""What may go into a mail we send, from text we were sent.

Everything a stranger's mail carries (its From, Subject, Message-ID, body) can
hold bytes that make a header illegal or a mail impossible to send: CR/LF (a
header injection, and Django refuses the header), NUL (PostgreSQL refuses the
text), a domain label too long for IDNA. A mail the outbox can never send
would be retried until it is given up; these functions keep such values out.
"""

from __future__ import annotations

import re

# Every control character (C0, DEL, C1) and the Unicode line and paragraph
# separators, which some mail clients and parsers treat as line ends.
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROLS_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SPACES = re.compile(r"\s+")
# RFC 5322 atext, the characters of a dot-atom local part (quoted local parts,
# which are legal but next to unused, are refused rather than risked).
_ATOM = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$")
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$")
_MESSAGE_ID = re.compile(r"^<[\x21-\x3b\x3d\x3f-\x7e]+@[\x21-\x3b\x3d\x3f-\x7e]+>$")

MAX_ADDRESS = 254  # RFC 5321's 256-octet path, less its angle brackets
MAX_LOCAL_PART = 64
MAX_LABEL = 63
MAX_MESSAGE_ID = 250


def header_text(value: str, limit: int) -> str:
    """One line of text fit for a header: control characters and line breaks
    become spaces, runs of spaces one, cut to ``limit`` characters."""
    return _SPACES.sub(" ", _CONTROLS.sub(" ", value)).strip()[:limit].rstrip()


def plain_text(value: str) -> str:
    """A body without NUL or other control characters; line breaks and tabs stay."""
    return _CONTROLS_BUT_LINES.sub("", value.replace("\r\n", "\n").replace("\r", "\n"))


def message_id_or_empty(value: str) -> str:
    """``value`` if it is a Message-ID we may repeat in In-Reply-To and
    References (``<left@right>``, printable ASCII, bounded), else ''."""
    value = value.strip()
    return value if len(value) <= MAX_MESSAGE_ID and _MESSAGE_ID.match(value) else ""


def address_problem(address: str) -> str:
    """Why mail to ``address`` cannot be delivered, in words for the admin; ''
    when it may be. Only the syntax is checked: label lengths, the characters
    SMTP and IDNA accept, no line breaks; not whether the mailbox exists."""
    if not address:
        return "no address"
    if _CONTROLS.search(address) or _SPACES.search(address):
        return "the address holds a line break, a control character or a space"
    if len(address) > MAX_ADDRESS:
        return f"the address is longer than {MAX_ADDRESS} characters"
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        return "the address is not of the form name@domain"
    if len(local) > MAX_LOCAL_PART:
        return f"the part before the @ is longer than {MAX_LOCAL_PART} characters"
    if not all(_ATOM.match(word) for word in local.split(".")):
        return "the part before the @ holds characters an address cannot have"
    if any(len(label) > MAX_LABEL for label in domain.split(".")):
        return f"a label of the domain is longer than {MAX_LABEL} characters"
    try:  # what sending does with it (IDNA also refuses empty labels)
        ascii_domain = domain.encode("idna").decode("ascii")
    except UnicodeError:
        return "the domain is not a valid domain name"
    labels = ascii_domain.split(".")
    if len(labels) < 2 and ascii_domain.lower() != "localhost":
        return "the domain has no dot"
    for label in labels:
        if len(label) > MAX_LABEL:  # an international label can grow in its ASCII form
            return f"a label of the domain is longer than {MAX_LABEL} characters"
        if not _LABEL.match(label):
            return f"the domain label '{label[:MAX_LABEL]}' is not a valid name"
    return ""
