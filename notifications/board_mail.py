"""The board picture in a mail that asks for a move: what the body says of it,
and the PNG itself, inline.

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
from email.mime.image import MIMEImage
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.mail.message import SafeMIMEMultipart

from engine import marram as engine
from engine.marram.notation import format_action
from engine.marram.state import GameState
from games.models import Event, Game
from notifications import signing
from notifications.board_picture import Picture, board_picture, layout
from notifications.models import Notification

SAMPLE_MOVES = 8


def picture_cid(game_id: int, seq: int, seat: int) -> str:
    return f"board.{game_id}.{seq}.{seat}@{settings.REPLY_DOMAIN}"


def state_at(game: Game, seq: int) -> GameState:
    """The game after its first ``seq`` events."""
    events = Event.objects.filter(game=game, seq__lt=seq).order_by("seq")
    return engine.record.replay_events(engine.config_from_json(game.config),
                                       list(events.values_list("payload", flat=True))).state


def sample_moves(state: GameState) -> list[str]:
    """A few legal moves in the notation, spread over every tile in the hand (and
    the flips) and over each one's places: the first ones would all be one tile at
    one place."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in engine.legal_actions(state):
        groups.setdefault(action.get("tile") or action["type"], []).append(action)
    quota = dict.fromkeys(groups, 0)
    while sum(quota.values()) < min(SAMPLE_MOVES, sum(map(len, groups.values()))):
        for key, actions in groups.items():  # one more for each group, in turn
            if quota[key] < len(actions) and sum(quota.values()) < SAMPLE_MOVES:
                quota[key] += 1
    return [format_action(actions[i * len(actions) // quota[key]])
            for key, actions in groups.items() for i in range(quota[key])]


def turn_details(game: Game, state: GameState, seat: int, seq: int) -> dict[str, Any]:
    """What a mail asking the seat for its move shows besides the words: the hand,
    some moves and the picture's place in the HTML."""
    plan = layout(state, seat)
    return {
        "hand": list(state.hands[seat]),
        "moves": sample_moves(state),
        "picture": {"cid": picture_cid(game.pk, seq, seat), "alt": plan.alt(state),
                    "width": plan.width, "height": plan.height},
    }


def picture_alt(n: Notification) -> str:
    """The words the mail's HTML gives its board picture; '' if it shows none."""
    found = _IMG.search(n.body_html) if n.reply_to else None
    return html.unescape(found.group(1)) if found else ""


_IMG = re.compile(r'<img src="cid:board\.[^"]*" alt="([^"]*)"')


def picture_for(n: Notification) -> tuple[str, Picture] | None:
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
    return cid, board_picture(state_at(n.game, bound.seq), bound.seat)


class MailWithPictures(EmailMultiAlternatives):
    """A text and HTML mail whose HTML may show images sent with it (``related``:
    ``(content id, PNG bytes)``)."""

    def __init__(self, *args: Any, related: list[tuple[str, bytes]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.related = list(related or [])

    def _create_alternatives(self, msg: Any) -> Any:
        msg = super()._create_alternatives(msg)
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
