"""The board picture in the mails that ask for a move.

A "your turn" mail is a text part (the notation) and an HTML part showing a PNG
of the board inline (``cid:``), with the open places' positions written in and
the hand's tiles, front and back. The answer to the first move of a turn, made
by mail, is the same for the second move. Pixels are checked where the layout
(notifications.board_picture's docstring) puts them.
"""

from __future__ import annotations

import email
import io
import re
from email.message import Message

import pytest
from django.core import mail
from PIL import Image

from engine import marram as engine
from engine.marram.notation import format_action, parse_action
from engine.marram.view import face_view, tile_view
from games.selectors import game_state_get
from notifications import services as notes
from notifications.inbound import inbound_mail_handle
from notifications.models import Notification
from notifications.signing import reply_address
from tests.service.conftest import play, seat_user, start_game
from tests.service.mail_kit import awaited, reply_bytes
from ui.marram import board_picture as bp

SEED = "5a1d0ce5" * 8


def deliver_all() -> None:
    for pk in Notification.objects.filter(status="pending").order_by("pk") \
            .values_list("pk", flat=True):
        notes.notification_deliver(pk)


def mime_of(sent) -> Message:
    """The message as it goes over the wire, read back."""
    return email.message_from_bytes(sent.message().as_bytes())


def parts_of(message: Message) -> tuple[str, str, dict[str, bytes]]:
    """The text, the HTML and the inline images by Content-ID of a mail, checking
    its shape: alternative(text, related(html, png...))."""
    assert message.get_content_type() == "multipart/alternative"
    text_part, related = message.get_payload()
    assert text_part.get_content_type() == "text/plain"
    assert related.get_content_type() == "multipart/related"
    html_part, *images = related.get_payload()
    assert html_part.get_content_type() == "text/html"
    found = {}
    for image in images:
        assert image.get_content_type() == "image/png"
        assert image["Content-Disposition"].startswith("inline")
        found[image["Content-ID"].strip("<>")] = image.get_payload(decode=True)
    return (text_part.get_payload(decode=True).decode(),
            html_part.get_payload(decode=True).decode(), found)


def shown_picture(html: str, images: dict[str, bytes]) -> Image.Image:
    """The PNG the HTML's <img> shows, decoded; its alt text must say something."""
    [(cid, alt)] = re.findall(r'<img src="cid:([^"]+)" alt="([^"]*)"', html)
    assert len(alt) > 20 and "Open places" in alt, alt
    assert cid in images, (cid, list(images))
    picture = Image.open(io.BytesIO(images[cid]))
    assert picture.format == "PNG"
    picture.load()
    assert 200 <= picture.width <= 2000 and 200 <= picture.height <= 2000, picture.size
    assert len(images[cid]) < 120_000
    return picture.convert("RGB")


def listed_moves(text: str) -> list[str]:
    block = text.split("down):\n", 1)[1].split("\n\n", 1)[0]  # the intro may be wrapped
    return [line.strip() for line in block.splitlines() if line.startswith("  ")]


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def near(pixel, colour: str, tolerance: int = 14) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, rgb(colour), strict=True))


def check_pixels(picture: Image.Image, state, seat: int) -> None:
    """Worked out from the geometry: each laid tile's corners show the terrain of
    its corner arcs; each open place is a pale square with its position written
    in dark green in its middle."""
    opens = sorted({tuple(a["at"]) for a in engine.legal_actions(state) if a["type"] == "place"})
    assert opens
    cells = [*state.board, *opens]
    x0, y0 = min(c[0] for c in cells), min(c[1] for c in cells)
    tile = bp.TILE_PX

    def pixel(pos, ux: float, uy: float):
        """The pixel at tile units (ux, uy) of a position's square."""
        left = bp.BOARD_LEFT + (pos[0] - x0) * tile
        top = bp.BOARD_TOP + (pos[1] - y0) * tile
        return picture.getpixel((int(left + ux * tile / 100), int(top + uy * tile / 100)))

    # corner arcs 0 NW, 2 NE, 4 SE, 6 SW; 10 units in from the corner lies inside
    # the corner's wedge, clear of beasts (which run from side midpoints) and items
    insets = {0: (10, 10), 2: (90, 10), 4: (90, 90), 6: (10, 90)}
    checked = 0
    for pos, placed in state.board.items():
        terrain = tile_view(state, pos, placed)["terrain"]
        for arc, (ux, uy) in insets.items():
            expected = bp.GRASS if terrain[arc] == "G" else bp.SAND
            got = pixel(pos, ux, uy)
            assert near(got, expected), (pos, arc, terrain, got, expected)
            checked += 1
    assert checked == 4 * len(state.board)
    for pos in opens:
        assert near(pixel(pos, 12, 50), bp.OPEN_FILL), pos  # the pale square, beside the label
        label = [pixel(pos, ux, uy) for ux in range(30, 71, 2) for uy in range(42, 59, 2)]
        assert any(near(p, bp.OPEN_INK, 40) for p in label), pos  # the written position


def check_hand(picture: Image.Image, state, seat: int) -> None:
    """Below the board, each tile of the hand, front then back as printed: the
    corners of each face show the terrain of its corner arcs."""
    plan = bp.layout(state, seat)
    hand = state.hands[seat]
    assert hand
    tile = bp.TILE_PX
    insets = {0: (10, 10), 2: (90, 10), 4: (90, 90), 6: (10, 90)}
    for i, tile_id in enumerate(hand):
        for j, face in enumerate(("front", "back")):
            left = bp.MARGIN + i * (2 * tile + bp.HAND_GAP + bp.HAND_SPACING) \
                + j * (tile + bp.HAND_GAP)
            terrain = face_view(state.config.catalogue[tile_id], face)["terrain"]
            for arc, (ux, uy) in insets.items():
                got = picture.getpixel((int(left + ux * tile / 100),
                                        int(plan.hand_top + uy * tile / 100)))
                expected = bp.GRASS if terrain[arc] == "G" else bp.SAND
                assert near(got, expected), (tile_id, face, arc, got, expected)


@pytest.fixture
def game(users):
    """ann and bob a few turns in, ann to move."""
    ann, bob = users[:2]
    game = start_game([ann, bob], seed=SEED)
    return play(game, until=lambda s: len(s.board) >= 9 and engine.awaiting(s) ==
                {"kind": "move", "player": 0, "move": 1},
                choose=lambda actions: next((a for a in actions if a["type"] == "place"),
                                            actions[0]))


@pytest.mark.django_db
def test_a_your_turn_mail_shows_the_board_with_open_places_and_the_hand(game):
    ann = seat_user(game, 0)
    deliver_all()
    [sent] = [m for m in mail.outbox if m.to == [ann.email] and "your move" in m.subject]
    state = game_state_get(game)
    text, html, images = parts_of(mime_of(sent))
    # the text part keeps the notation
    assert f"Your hand: {', '.join(state.hands[0])}" in text
    moves = listed_moves(text)
    legal = {format_action(a) for a in engine.legal_actions(state)}
    assert len(moves) == 8 and set(moves) <= legal, moves
    assert len({m.split()[1] for m in moves}) > 1  # spread over the hand, not one tile
    picture = shown_picture(html, images)
    plan = bp.layout(state, 0)
    assert picture.size == (plan.width, plan.height)
    # the hand is in the picture's words too
    assert all(t in html for t in state.hands[0])
    check_pixels(picture, state, 0)
    check_hand(picture, state, 0)


@pytest.mark.django_db
def test_the_answer_to_a_first_move_by_mail_gives_the_hand_moves_and_board_for_the_second(game):
    ann = seat_user(game, 0)
    deliver_all()
    [turn] = [m for m in mail.outbox if m.to == [ann.email] and "your move" in m.subject]
    first = listed_moves(parts_of(mime_of(turn))[0])[-1]  # as a player would: from the mail
    mail.outbox.clear()

    result = inbound_mail_handle(reply_bytes(
        sender=ann.email, to=turn.reply_to[0], body=f"{first}\n\n> It is your turn\n",
        message_id="<first@client.example>"))
    assert (result.outcome, result.message) == ("played", parse_and_format(first))
    assert awaited(game) == (0, {"kind": "move", "player": 0, "move": 2})
    state = game_state_get(game)
    answer = Notification.objects.get(in_reply_to="<first@client.example>")
    assert notes.notification_deliver(answer.pk) == "sent"
    [sent] = mail.outbox
    assert sent.reply_to == [reply_address(game.pk, 0, game.seq)]
    text, html, images = parts_of(mime_of(sent))
    # the game's own words for the turn (the Marram adapter's turn_mail)
    assert "It is your turn: move 2 of 2. Reply with your move on the first line." in text
    assert f"Your hand: {', '.join(state.hands[0])}" in text
    moves = listed_moves(text)
    legal = {format_action(a) for a in engine.legal_actions(state)}
    assert moves and set(moves) <= legal, moves
    picture = shown_picture(html, images)
    check_pixels(picture, state, 0)
    check_hand(picture, state, 0)

    # and the second move, from that answer, plays
    second = inbound_mail_handle(reply_bytes(
        sender=ann.email, to=sent.reply_to[0], body=moves[0],
        message_id="<second@client.example>"))
    assert second.outcome == "played"
    assert awaited(game)[0] == 1


def parse_and_format(line: str) -> str:
    return format_action(parse_action(line, 0))


@pytest.mark.django_db
def test_mails_that_ask_for_no_move_carry_no_picture(game):
    bob = seat_user(game, 1)
    deliver_all()
    started = [m for m in mail.outbox if m.to == [bob.email] and "begun" in m.subject]
    assert started
    message = mime_of(started[0])
    assert message.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in message.get_payload()] == ["text/plain", "text/html"]
