"""The board picture in a mail that asks for a move (for a game whose UI draws
one, ``ui.GameUI.mail_picture``): what the body says of it, and the PNG itself,
inline.

A mail that waits for a move carries the signed reply address of the seq it
was written at, so the picture can always be drawn again, at sending or for
the mail page, from the game's events up to that seq: the board the body tells
of, however long the mail waited. The HTML part shows it by ``cid:``; the
message is then ``multipart/alternative`` of the text and a
``multipart/related`` holding the HTML and the PNG, which is how mail clients
expect an inline image.
"""

from __future__ import annotations

import html
import re
from email.header import Header
from email.mime.image import MIMEImage
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.mail.message import SafeMIMEMultipart

from games.game_ui import ui_for
from games.models import Game
from games.selectors import game_replay, game_state_get, rules_of
from notifications import signing
from notifications.models import Notification


def picture_cid(game_id: int, seq: int, seat: int) -> str:
    return f"board.{game_id}.{seq}.{seat}@{settings.REPLY_DOMAIN}"


def state_at(game: Game, seq: int) -> Any:
    """The game after its first ``seq`` events: as a move reads it when that is
    the game as its row was read (a mail's picture, drawn as it is sent, after
    its words were written from that state), else replayed."""
    if seq == game.seq:
        return game_state_get(game)
    return game_replay(game, stop=seq).state


def turn_details(game: Game, state: Any, seat: int, seq: int) -> dict[str, Any]:
    """What a mail asking the seat for its move shows besides the words: what the
    game's UI adds (the hand, some moves, the picture's place in the HTML), or
    else a few of its legal actions in the notation."""
    rules = rules_of(game)
    show = ui_for(game.game).mail_turn
    if show is None:
        asked = rules.turn_mail(state, seat)
        return {"moves": list(asked.examples) if asked is not None else []}
    details = show(rules, state, seat)
    if "picture" in details:
        details["picture"] = {**details["picture"], "cid": picture_cid(game.pk, seq, seat)}
    return details


def picture_alt(n: Notification) -> str:
    """The words the mail's HTML gives its board picture; '' if it shows none."""
    shown = picture_shown(n)
    return shown["alt"] if shown else ""


def picture_shown(n: Notification) -> dict[str, str] | None:
    """How the mail's HTML shows its board picture (``alt``, and ``width`` and
    ``height`` in pixels, '' if it gives none); None if it shows none."""
    found = _IMG.search(n.body_html) if n.reply_to else None
    if found is None:
        return None
    return {"alt": html.unescape(found.group(1)), "width": found.group(2) or "",
            "height": found.group(3) or ""}


_IMG = re.compile(r'<img src="cid:board\.[^"]*" alt="([^"]*)"'
                  r'(?: width="(\d{1,5})" height="(\d{1,5})")?')


def picture_for(n: Notification) -> tuple[str, bytes] | None:
    """The board picture a mail's HTML shows, drawn again; None if it shows none."""
    if not (n.reply_to and n.game_id and "cid:board." in n.body_html):
        return None
    try:
        bound = signing.reply_address_read(n.reply_to)
    except signing.BadAddress:
        return None
    cid = picture_cid(bound.game_id, bound.seq, bound.seat)
    if f"cid:{cid}" not in n.body_html:
        return None
    game = n.game
    if game is None:  # never: the mail has a game_id
        return None
    draw = ui_for(game.game).mail_picture
    if draw is None:
        return None
    return cid, draw(state_at(game, bound.seq), bound.seat)


class MailWithPictures(EmailMultiAlternatives):
    """A text and HTML mail whose HTML may show images sent with it (``related``:
    ``(content id, PNG bytes)``). Its subject is folded as RFC 2047 asks, from
    the Subject line itself: Django's starts an encoded subject on the next line,
    which a reader unfolds with a space in front of it."""

    metadata: dict[str, str]
    """What anymail sends the provider with the mail (its own attribute's name), when
    set."""

    def __init__(self, *args: Any, related: list[tuple[str, bytes]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.related = list(related or [])

    def message(self) -> Any:
        msg = super().message()
        if "Subject" in msg:  # folded from the header's own line, with no leading space
            subject = str(self.subject)
            charset = "us-ascii" if subject.isascii() else (
                self.encoding or settings.DEFAULT_CHARSET)
            msg.replace_header("Subject", Header(subject, charset, header_name="Subject"))
        return msg

    def _create_alternatives(self, msg: Any) -> Any:
        # Django's own hook, which django-stubs leaves out: msg is its MIME message
        msg = super()._create_alternatives(msg)  # type: ignore[misc]
        if not (self.related and self.alternatives):
            return msg
        parts = msg.get_payload()
        related = SafeMIMEMultipart(_subtype="related",
                                    encoding=self.encoding or settings.DEFAULT_CHARSET)
        related.attach(parts[-1])  # the HTML
        for cid, png in self.related:
            image = MIMEImage(png, "png")
            image.add_header("Content-ID", f"<{cid}>")
            image.add_header("Content-Disposition", "inline", filename="board.png")
            related.attach(image)
        parts[-1] = related
        return msg
