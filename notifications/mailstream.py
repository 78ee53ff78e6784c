"""Taking a reply off the wire without holding its attachments.

A reply with a phone's photo is 5 to 35 MB; what the site reads of it is its
headers and its text. ``MailSkimmer`` is fed the message a line at a time, as
SMTP's DATA brings it, follows its MIME structure (boundaries, each part's
headers) and keeps the headers of every part and the bodies of the text parts
(text/plain and text/html that are not attachments), up to ``TEXT_KEPT`` bytes
each and ``KEPT`` bytes in all; every other body (images, PDFs, a quoted or
reported message) is counted and dropped as it passes. What it keeps is itself
a well-formed message, the dropped parts empty, which ``mailparse`` reads as it
would the whole.

``SkimmingSMTP`` is aiosmtpd's SMTP server with its DATA command reading into a
skimmer instead of a list of every line: a connection holds at most ``KEPT``
bytes of a message, whatever its size, up to the ``MAX_MESSAGE_BYTES`` it takes
(a larger one is refused with 552 once it has been read, as RFC 5321 asks).
"""

from __future__ import annotations

import asyncio
import logging
from email import policy
from email.parser import BytesHeaderParser

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 50 * 1024 * 1024
"""The largest message taken: a 25 MB attachment is 34 MB in base64, and the
common providers' limits are 25 to 35 MB."""
TEXT_KEPT = 512 * 1024
"""The most of one text part's body kept."""
KEPT = 2 * 1024 * 1024
"""The most of a message kept: headers and text parts."""
HEADERS_KEPT = 256 * 1024
"""The most of one part's headers kept (a long Received chain fits)."""
MAX_DEPTH = 60
"""Multiparts nested deeper than this make a message unreadable (no client
nests more than a handful)."""

_TEXT = ("text/plain", "text/html")
_REPORTS = ("message/delivery-status", "message/global-delivery-status")
"""A bounce's delivery report (RFC 3464, 6533): a few lines, kept whole."""


class Unreadable(Exception):
    """The message's structure is one nothing should read (nested too deep)."""


class MailSkimmer:
    def __init__(self) -> None:
        self.size = 0
        self._kept: list[bytes] = []
        self._kept_size = 0
        self._boundaries: list[bytes] = []
        self._in_headers = True
        self._headers: list[bytes] = []
        self._headers_size = 0
        self._keep_body = False
        self._body_size = 0
        self.too_deep = False

    def _keep(self, line: bytes) -> None:
        self._kept.append(line)
        self._kept_size += len(line)

    def _part_begins(self) -> None:
        self._in_headers, self._headers, self._headers_size = True, [], 0
        self._keep_body = False

    def _headers_end(self, blank: bytes) -> None:
        head = b"".join(self._headers)
        for line in self._headers:
            self._keep(line)
        self._keep(blank)
        self._in_headers = False
        self._body_size = 0
        part = BytesHeaderParser(policy=policy.compat32).parsebytes(head + b"\r\n")
        kind = part.get_content_type()
        if part.get_content_maintype() == "multipart":
            boundary = part.get_param("boundary")
            if isinstance(boundary, str) and boundary:
                self._boundaries.append(b"--" + boundary.encode("utf-8", "surrogateescape"))
                if len(self._boundaries) > MAX_DEPTH:
                    self.too_deep = True
            self._keep_body = False  # the preamble
            return
        disposition = str(part.get("Content-Disposition", "")).split(";")[0].strip().lower()
        self._keep_body = kind in _TEXT and disposition != "attachment" or kind in _REPORTS

    def _boundary(self, line: bytes) -> bool:
        """Whether the line opens or closes a part of an open multipart."""
        if not line.startswith(b"--") or not self._boundaries:
            return False
        stripped = line.rstrip(b"\r\n").rstrip(b" \t")
        for depth in range(len(self._boundaries) - 1, -1, -1):
            boundary = self._boundaries[depth]
            if stripped == boundary + b"--":
                del self._boundaries[depth:]
                self._keep(line)
                self._in_headers, self._keep_body = False, False  # the epilogue
                return True
            if stripped == boundary:
                del self._boundaries[depth + 1:]
                self._keep(line)
                self._part_begins()
                return True
        return False

    def feed(self, line: bytes) -> None:
        """One line of the message, its line end included."""
        self.size += len(line)
        if self.too_deep:
            return
        if self._boundary(line):
            return
        if self._in_headers:
            if line in (b"\r\n", b"\n"):
                self._headers_end(line)
            elif self._headers_size + len(line) <= HEADERS_KEPT \
                    and self._kept_size + self._headers_size + len(line) <= KEPT:
                self._headers.append(line)
                self._headers_size += len(line)
            return
        if self._keep_body and self._body_size + len(line) <= TEXT_KEPT \
                and self._kept_size + len(line) <= KEPT:
            self._keep(line)
            self._body_size += len(line)

    def close(self) -> bytes:
        """What was kept, as a message."""
        if self.too_deep:
            raise Unreadable(f"multiparts nested more than {MAX_DEPTH} deep")
        if self._in_headers and self._headers:  # headers only, no body
            self._headers_end(b"\r\n")
        return b"".join(self._kept)


class SkimmingSMTP(SMTP):
    """aiosmtpd's SMTP whose DATA keeps a skimmed message (``MailSkimmer``): the
    envelope's ``content`` and ``original_content`` are the kept bytes, and
    ``envelope.size`` the size the client sent."""

    async def smtp_DATA(self, arg: str) -> None:
        if await self.check_helo_needed():
            return
        if await self.check_auth_needed("DATA"):
            return
        assert self.envelope is not None
        if not self.envelope.rcpt_tos:
            await self.push("503 Error: need RCPT command")
            return
        if arg:
            await self.push("501 Syntax: DATA")
            return
        await self.push("354 End data with <CR><LF>.<CR><LF>")
        skimmer = MailSkimmer()
        limit = self.data_size_limit
        too_much = too_long = False
        fragments: list[bytes] = []
        while self.transport is not None:
            try:
                line = await self._reader.readuntil(b"\r\n")
            except asyncio.CancelledError:
                log.info("connection lost during DATA")
                self._writer.close()
                raise
            except asyncio.LimitOverrunError as error:
                too_long = True  # a line over RFC 5321's 1000 octets: refused at the end
                fragments.clear()
                line = await self._reader.read(error.consumed)
            if not fragments and line == b".\r\n":
                break
            if not line.endswith(b"\r\n"):
                fragments.append(line)
                continue
            if fragments:
                fragments.append(line)
                line = b"".join(fragments)
                fragments.clear()
                if len(line) > self.line_length_limit:
                    too_long = True
            if too_much or too_long:
                continue
            if line.startswith(b"."):  # RFC 5321 4.5.2: the client doubled a leading dot
                line = line[1:]
            skimmer.feed(line)
            if limit and skimmer.size > limit:
                too_much = True
        if too_long or too_much:
            await self.push("500 Line too long (see RFC5321 4.5.3.1.6)" if too_long
                            else "552 Error: Too much mail data")
            self._set_post_data_state()
            return
        try:
            content = skimmer.close()
        except Unreadable as error:
            log.warning("refused a message from %s: %s", self.envelope.mail_from, error)
            self._set_post_data_state()
            await self.push("554 5.6.0 The message could not be read; it will not be accepted")
            return
        self.envelope.content = self.envelope.original_content = content
        # an attribute of this listener's own, which aiosmtpd's Envelope does not declare
        self.envelope.size = skimmer.size  # type: ignore[attr-defined]
        status = await self._call_handler_hook("DATA")
        self._set_post_data_state()
        await self.push("250 OK" if status is None or not isinstance(status, str) else status)


class SkimmingController(Controller):
    """aiosmtpd's Controller serving ``SkimmingSMTP``."""

    def factory(self) -> SMTP:
        return SkimmingSMTP(self.handler, **self.SMTP_kwargs)
