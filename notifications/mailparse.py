"""Reading a reply: who sent it, to which address, whether a person wrote it, and
the line that holds the move.

Every way in (the SMTP listener, a provider's webhook, the site's JSON webhook)
hands a whole message here, with its envelope when it has one, and the same
code reads it:

- the body: the text part, or the HTML part when there is no text part or it
  says nothing; attachments are never read;
- the characters: the part's charset, except that the labels mail clients and
  browsers read as windows-1252 (iso-8859-1, us-ascii, ...) are read so, as
  Outlook and Windows write under them; 8-bit text labelled ASCII or not at all
  is UTF-8 when it is valid UTF-8;
- ``format=flowed`` (RFC 3676): soft line breaks joined again, ``delsp=yes``
  honoured, so a long line from Apple Mail, iPhone or Thunderbird is one line;
- HTML: the quoted part cut away in the tree (``blockquote``, Gmail's
  ``gmail_quote``, Outlook's ``divRplyFwdMsg`` and all after it, Apple's and
  Thunderbird's ``type=cite``, Yahoo's and Proton's quotes) with the clients'
  signatures, then made text by inscriptis (entities decoded; ``head``,
  ``style``, ``title`` and scripts dropped; blocks on lines of their own);
- an inline PGP signature's armour taken off;
- the first line that is not quoted, nor an "On ... wrote:" line above a quote
  (in the languages below, wrapped over two lines too), nor a PGP or Outlook
  separator; a signature ("-- ") or an "Original Message" line ends the search.

Whether it was written by a machine (``automatic``, with the reason) reads
every common sign: RFC 3834's ``Auto-Submitted``, ``X-Autoreply``,
``X-Autorespond``, ``X-Auto-Response-Suppress``, ``Precedence: bulk/junk/list``,
a mailing list's ``List-Id``, a delivery or read report (``multipart/report``),
the empty envelope sender (``MAIL FROM:<>``, or a ``Return-Path: <>`` written
at delivery), the robots' own addresses (MAILER-DAEMON, MicrosoftExchange...,
no-reply) and the subjects of autoresponders and bounces.
"""

from __future__ import annotations

import codecs
import hashlib
import re
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # lxml is imported where an HTML body is read
    from lxml.html import HtmlElement

# "On Tue, 3 Jun 2025, ann <ann@example.org> wrote:" and its cousins in other
# languages: the line a mail client writes above the quoted text. The verb may be
# followed by the address or a date ("... schrieb am 3. Juni 2025 09:12 MESZ:").
_ATTRIBUTION_VERBS = (
    r"wrote|writes|schrieb|schreef|skrev|skriver|escribió|escreveu|scrisse|ha scritto|"
    r"a écrit|écrit|napisał\(a\)|napisał|napisała|napsal|kirjoitti|írta|написал|написала|"
    r"yazdı|έγραψε|が書きました|写道|寫道|작성"
)
_ATTRIBUTION = re.compile(rf"(?:^|[\s,>)]|\b)(?:{_ATTRIBUTION_VERBS})\b.*:\s*$|"
                          rf"(?:{_ATTRIBUTION_VERBS})\s*:\s*$", re.I)
# Lines after which only the quoted mail follows (Outlook, Samsung, K-9, Apple's
# forwarded mail, ...), in a few languages.
_QUOTE_HEADS = re.compile(
    r"^\s*(?:-{2,}\s*(?:original message|ursprüngliche nachricht|message d'origine|"
    r"mensaje original|messaggio originale|oorspronkelijk bericht|originalmeddelande|"
    r"mensagem original|forwarded message|original message)\s*-{2,}|_{10,})\s*$", re.I)
_HEADER_BLOCK = re.compile(r"^\s*\*?(?:from|von|de|van|da|från|od|fra)\s*\*?\s*:", re.I)
_HEADER_NEXT = re.compile(r"^\s*\*?(?:sent|date|gesendet|datum|envoyé|enviado|fecha|"
                          r"verzonden|inviato|skickat|wysłano|to|an|à|para|aan|a|till|do)\s*"
                          r"\*?\s*:", re.I)
_PGP_BEGIN = "-----BEGIN PGP SIGNED MESSAGE-----"
_PGP_SIGNATURE = "-----BEGIN PGP SIGNATURE-----"
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_INVISIBLE[0xA0] = " "
# C1 control characters are never written: where they stand, windows-1252 text
# was decoded as ISO-8859-1 before it reached us (a provider's parsed text).
_C1 = re.compile("[\x80-\x9f]")


def _windows_1252_again(text: str) -> str:
    return _C1.sub(lambda found: bytes([ord(found.group())]).decode("cp1252", "replace"), text)

# Labels read as windows-1252, after the WHATWG Encoding Standard (what browsers
# and mail clients do): text written by Windows under these labels holds curly
# quotes and dashes in 0x80-0x9f, which ISO-8859-1 has as control characters.
_WINDOWS_1252 = frozenset({
    "iso-8859-1", "iso8859-1", "iso_8859-1", "iso88591", "latin-1", "latin1", "l1",
    "cp819", "ibm819", "iso-ir-100", "csisolatin1", "windows-1252", "cp1252", "x-cp1252",
    "iso_8859-1:1987", "us-ascii", "ascii", "ansi_x3.4-1968", "us", "iso646-us",
})
_ASCII = frozenset({"us-ascii", "ascii", "ansi_x3.4-1968", "us", "iso646-us", ""})

_AUTOMATIC_LOCAL_PARTS = re.compile(
    r"^(?:mailer-daemon|postmaster|noreply|no-reply|no_reply|donotreply|do-not-reply|"
    r"bounces?|bounce[-+].*|microsoftexchange[0-9a-f]*|auto-?reply|autoresponder)$", re.I)
_AUTOMATIC_SUBJECTS = re.compile(
    r"^\s*(?:auto(?:matic)?[- ]?(?:reply|response|answer)|autoreply|autorespond|auto:|"
    r"out of (?:the )?office|abwesenheitsnotiz|automatische antwort|réponse automatique|"
    r"respuesta automática|risposta automatica|automatisch antwoord|"
    r"undeliverable:|undelivered mail|delivery status notification|"
    r"mail delivery (?:failed|failure|system)|returned mail|failure notice|"
    r"non remis|unzustellbar)", re.I)
_AUTOMATIC_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress",
                      "X-Failed-Recipients", "List-Id")

MAX_TEXT = 256 * 1024
"""The most of a body's characters read (the move is on its first lines)."""


@dataclass(frozen=True)
class Envelope:
    """The SMTP envelope: ``mail_from`` is '' for the null sender (``MAIL FROM:<>``,
    bounces and automatic replies) and None when the way in did not say."""

    mail_from: str | None = None
    rcpt_tos: tuple[str, ...] = ()


@dataclass(frozen=True)
class ParsedMail:
    sender: str
    """The address in From:, lower-cased ('' if there is none)."""
    recipients: list[str]
    message_id: str
    subject: str
    text: str
    """The reply's own text: decoded, unwrapped, from HTML if need be, quotes cut."""
    automatic: bool
    """A bounce or an auto-reply: never answered, or two robots would talk forever."""
    automatic_reason: str = ""
    envelope: Envelope = field(default_factory=Envelope)
    """As it came over SMTP (or as a provider told it)."""


# ---------------------------------------------------------------- characters


def part_text(part: Message) -> str:
    """A text part's characters, decoded as mail clients decode them."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        payload = str(part.get_payload() or "").encode("utf-8", "surrogateescape")
    payload = payload[:MAX_TEXT * 4]
    label = str(part.get_param("charset") or "").strip().lower()
    if label in _ASCII:
        try:  # 8-bit text labelled ASCII (or nothing): UTF-8 when it is
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            return payload.decode("cp1252", errors="replace")
    if label in _WINDOWS_1252:
        return payload.decode("cp1252", errors="replace")
    try:
        codec = codecs.lookup(label).name
    except LookupError:  # a charset nobody knows: UTF-8, what it most likely is
        codec = "utf-8"
    return payload.decode(codec, errors="replace")


# ---------------------------------------------------------------- format=flowed


def flowed_decode(text: str, *, delsp: bool = False) -> str:
    """RFC 3676: join each line ending in a space (a soft break) to the next of
    the same quote depth; remove space-stuffing, and with ``delsp`` the space
    the break added. Quoted lines keep their ``>`` marks."""
    out: list[str] = []
    paragraph: str | None = None
    depth_of_paragraph = 0

    def close() -> None:
        nonlocal paragraph
        if paragraph is not None:
            quote = ">" * depth_of_paragraph
            out.append(f"{quote} {paragraph}" if quote else paragraph)
            paragraph = None

    for line in text.replace("\r\n", "\n").split("\n"):
        stripped = line.lstrip(">")
        depth = len(line) - len(stripped)
        if stripped.startswith(" "):
            stripped = stripped[1:]  # space-stuffed
        flowed = stripped.endswith(" ") and stripped != "-- "
        if flowed and delsp:
            stripped = stripped[:-1]
        if paragraph is not None and depth != depth_of_paragraph:
            close()
        if paragraph is None:
            paragraph, depth_of_paragraph = stripped, depth
        else:
            paragraph += stripped
        if not flowed:
            close()
    close()
    return "\n".join(out)


# ---------------------------------------------------------------- HTML

# The quoted mail in the clients' HTML: removed with what it holds.
_HTML_QUOTES = (
    "//blockquote", "//*[@type='cite']",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' gmail_quote ')]",
    "//*[contains(@class, 'gmail_attr')]", "//*[contains(@class, 'moz-cite-prefix')]",
    "//*[contains(@class, 'yahoo_quoted')]", "//*[contains(@class, 'protonmail_quote')]",
    "//*[contains(@class, 'gmail_signature')]", "//*[contains(@class, 'moz-signature')]",
    "//*[contains(@class, 'protonmail_signature_block')]", "//*[@id='Signature']",
    "//*[@id='ms-outlook-mobile-signature']", "//*[@id='composer_signature']",
    "//*[@id='signature']", "//*[contains(@class, 'x_gmail_quote')]",
)
# Outlook's heads of the quoted mail: removed with everything after them.
_HTML_QUOTE_HEADS = ("//*[@id='divRplyFwdMsg']", "//*[@id='appendonsend']",
                     "//*[@id='mail-editor-reference-message-container']",
                     "//*[@id='x_divRplyFwdMsg']")


def _cut_from(element: HtmlElement) -> None:
    """Remove ``element`` and everything after it in the document."""
    node: HtmlElement | None = element
    while node is not None and (parent := node.getparent()) is not None:
        for following in list(node.itersiblings()):
            parent.remove(following)
        node = parent
    parent = element.getparent()
    if parent is not None:  # (the callers cut only an element in the document)
        parent.remove(element)


def html_tree(html: str) -> HtmlElement | None:
    """The HTML's tree, or None for an empty or unparsable document."""
    from lxml import etree
    from lxml.html import document_fromstring

    html = re.sub(r"^\s*<\?xml[^>]*>", "", html[:MAX_TEXT * 4])
    if not html.strip():
        return None
    try:
        return document_fromstring(html)
    except (etree.ParserError, ValueError):
        return None


def html_reply_text(html: str) -> str:
    """The reply's own text in an HTML body: the quotes and signatures cut away
    in the tree, then the rest made text."""
    from inscriptis import Inscriptis

    tree = html_tree(html)
    if tree is None:
        return ""
    for path in _HTML_QUOTE_HEADS:
        for element in tree.xpath(path)[:1]:
            if element.getparent() is not None:
                _cut_from(element)
    for path in _HTML_QUOTES:
        for element in tree.xpath(path):
            if element.getparent() is not None:
                element.getparent().remove(element)
    text: str = Inscriptis(tree).get_text()
    return text


# ---------------------------------------------------------------- the body


def _flowed(part: Message, text: str) -> str:
    if str(part.get_param("format") or "").lower() != "flowed":
        return text
    return flowed_decode(text, delsp=str(part.get_param("delsp") or "").lower() == "yes")


def _pgp_unarmoured(text: str) -> str:
    """The text inside an inline PGP signature (RFC 4880's cleartext framework),
    its dash-escaping undone."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == _PGP_BEGIN]
    if not starts:
        return text
    inner = lines[starts[0] + 1:]
    while inner and inner[0].strip():  # the armour headers (Hash: ...) up to a blank line
        inner.pop(0)
    kept = []
    for line in inner:
        if line.strip() == _PGP_SIGNATURE:
            break
        kept.append(line[2:] if line.startswith("- ") else line)
    return "\n".join(kept)


def _text_parts(message: Message) -> tuple[Message | None, Message | None]:
    """The first text/plain and text/html parts that are the body, not attachments
    nor a quoted or reported message."""
    plain = html = None
    stack = [message]
    while stack:
        part = stack.pop(0)
        kind = part.get_content_type()
        if part.is_multipart():
            parts = [p for p in part.get_payload() if isinstance(p, Message)]  # all are
            if kind in ("multipart/signed", "multipart/encrypted"):
                stack[:0] = parts[:1]  # the signed part, not the signature
            else:
                stack[:0] = parts
            continue
        if kind.startswith("message/"):
            continue
        disposition = str(part.get("Content-Disposition", "")).split(";")[0].strip().lower()
        if disposition == "attachment":
            continue
        if kind == "text/plain" and plain is None:
            plain = part
        elif kind == "text/html" and html is None:
            html = part
    return plain, html


def reply_text(message: Message) -> str:
    """The reply's own words: the text part (or the HTML part when the text part
    has no line to read), decoded, unwrapped and without its quotes."""
    plain, html = _text_parts(message)
    text = ""
    if plain is not None:
        text = _pgp_unarmoured(_flowed(plain, part_text(plain)[:MAX_TEXT]).translate(_INVISIBLE))
    if html is not None and not move_line(text):
        text = _pgp_unarmoured(html_reply_text(part_text(html)).translate(_INVISIBLE))
    return _windows_1252_again(text.replace("\r\n", "\n"))


# ---------------------------------------------------------------- automatic mail


def _headers(message: Message, name: str) -> list[str]:
    """The values of the headers named so, decoded; a value the standard
    library will not decode (an encoded CR/LF in a display name, say) as its
    raw text instead, so that one odd header does not make the mail unreadable."""
    try:
        return [str(value) for value in message.get_all(name, [])]
    except Exception:  # the header parser raises ValueError, IndexError, ... on hostile input
        return [value for key, value in message.raw_items() if key.lower() == name.lower()]


def _header(message: Message, name: str) -> str:
    return next(iter(_headers(message, name)), "")


def automatic_reason(message: Message, sender: str, envelope: Envelope) -> str:
    """Why the mail was written by a machine ('' when nothing says so)."""
    auto = _header(message, "Auto-Submitted").strip().lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto[:40]}"
    for name in _AUTOMATIC_HEADERS:
        if _headers(message, name):
            return f"{name} header"
    precedence = _header(message, "Precedence").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    if message.get_content_type() == "multipart/report":
        return "a delivery or read report (multipart/report)"
    if envelope.mail_from == "":
        return "the envelope's sender is empty (MAIL FROM:<>)"
    if any(value.strip() == "<>" for value in _headers(message, "Return-Path")):
        return "Return-Path: <>"
    if not sender:
        return "no sender"
    if _AUTOMATIC_LOCAL_PARTS.match(sender.rpartition("@")[0]):
        return f"sent by {sender.rpartition('@')[0][:40]}"
    subject = _header(message, "Subject")
    if _AUTOMATIC_SUBJECTS.match(subject):
        return "the subject of an automatic reply"
    return ""


# ---------------------------------------------------------------- the mail


def message_of(raw: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(raw)


def mail_parse(raw: bytes | Message, envelope: Envelope | None = None) -> ParsedMail:
    """Read a whole message: its bytes, or a message parsed already (a provider's,
    normalised by django-anymail)."""
    envelope = envelope or Envelope()
    if isinstance(raw, Message):
        message = raw
        try:
            data = raw.as_bytes(policy=policy.default.clone(linesep="\r\n"))
        except Exception:  # a header the generator will not write: what it holds counts
            data = repr(raw.items()).encode("utf-8", "surrogateescape")
    else:
        message, data = message_of(raw), raw
    sender = parseaddr(_header(message, "From"))[1].strip().lower()
    recipients = [
        address for _, address in getaddresses(
            [value for field_ in ("Delivered-To", "To", "Cc") for value in
             _headers(message, field_)]
        ) if address
    ]
    # Without a Message-ID the same bytes count as the same message.
    message_id = _header(message, "Message-ID").strip() or (
        "<sha256-" + hashlib.sha256(data).hexdigest() + "@no-message-id>")
    reason = automatic_reason(message, sender, envelope)
    return ParsedMail(
        sender=sender,
        recipients=recipients,
        message_id=message_id,
        subject=_header(message, "Subject").strip(),
        text=reply_text(message),
        automatic=bool(reason),
        automatic_reason=reason,
        envelope=envelope,
    )


# ---------------------------------------------------------------- the line


def _is_attribution(line: str) -> bool:
    return bool(_ATTRIBUTION.search(line))


def _quoted_or_blank(line: str | None) -> bool:
    return line is None or not line.strip() or line.lstrip().startswith(">")


def move_line(text: str) -> str:
    """The first line that is neither empty, nor quoted, nor the "... wrote:" line
    above a quote (one line, or two when the client wrapped it). A signature
    ("-- "), an "Original Message" line or an Outlook header block ("From: ...",
    then "Sent: ...") ends the search."""
    lines = text.replace("\r\n", "\n").split("\n")
    skip = 0
    for i, raw in enumerate(lines):
        if skip:
            skip -= 1
            continue
        line = raw.strip()
        following = lines[i + 1].strip() if i + 1 < len(lines) else None
        if not line or line.startswith(">") or _is_attribution(line):
            continue
        if line in ("--", "-- ") or _QUOTE_HEADS.match(line):
            return ""
        if _HEADER_BLOCK.match(line) and following is not None and _HEADER_NEXT.match(following):
            return ""
        # an attribution wrapped by the client: "On ... marram <" / "marram@x> wrote:"
        after = lines[i + 2] if i + 2 < len(lines) else None
        if following and _is_attribution(following) and _quoted_or_blank(after) \
                and not _is_attribution(f"{line}") and _looks_like_attribution_start(line):
            skip = 1
            continue
        return line
    return ""


_ATTRIBUTION_START = re.compile(
    r"^(?:on|am|le|el|op|il|em|den|w dniu|dne|on the|at)\b|<\s*$|\d{1,2}:\d{2}|\d{4}", re.I)


def _looks_like_attribution_start(line: str) -> bool:
    return bool(_ATTRIBUTION_START.search(line))


_MOVE_END = re.compile(r"[\s.!\u3002\u2026]+$")


def move_words(line: str) -> str:
    """The move a line writes, for every game alike: without the full stops or
    exclamation marks a phone puts after it (iOS writes one after a double space)."""
    return _MOVE_END.sub("", line.strip())
