"""The mail the site sends, as it reaches an SMTP server: the outbox delivers
each row through Django's SMTP backend to a real server of the test's
(aiosmtpd), and every header and line is read back from the bytes it got.

A game's mails keep one conversation (a subject stem, References, Outlook's
Thread-Topic and Thread-Index); each says who may answer it automatically
(nobody), which list it is and how to leave it; its Date is in +0000, its
Reply-To has a name, its footer a "-- " separator and its text lines at most
78 characters; a mail that asks for no move has a reply address that posts to
the game's chat."""

from __future__ import annotations

import base64
import re
import textwrap
import threading
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr, parsedate_to_datetime

import pytest
from aiosmtpd.controller import Controller

from chat.models import Message
from games import services
from notifications import services as notes
from notifications import signing
from notifications.inbound import inbound_mail_handle
from notifications.mailtext import mail_text
from notifications.models import Notification
from tests.service.conftest import make_user, seat_user, start_game, start_game_of
from tests.service.mail_kit import MAIL_DEAL, first_move_text, reply_bytes
from tests.service.test_celery_worker import free_port


class Sink:
    """An SMTP server's handler keeping each message with its envelope."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.received: list[tuple[str, list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        with self.lock:
            self.received.append((envelope.mail_from, list(envelope.rcpt_tos),
                                  envelope.original_content or envelope.content))
        return "250 Message accepted"

    def messages(self) -> list[EmailMessage]:
        with self.lock:
            return [message_from_bytes(raw, policy=policy.default)
                    for _, _, raw in self.received]


@pytest.fixture(scope="module")
def sink_server() -> Iterator[tuple[Sink, int]]:
    sink, port = Sink(), free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    yield sink, port
    controller.stop()


@pytest.fixture
def sink(sink_server, settings) -> Sink:
    """Mail goes out by SMTP to the test's server."""
    found, port = sink_server
    found.received.clear()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    return found


def deliver() -> list[str]:
    """Deliver every pending mail of the outbox, as a drain does."""
    pending = Notification.objects.filter(status="pending").exclude(
        kind__in=("webhook_turn", "webhook_test")).order_by("pk")
    return [notes.notification_deliver(pk) for pk in pending.values_list("pk", flat=True)]


def text_of(message: EmailMessage) -> str:
    return message.get_body(("plain",)).get_content().replace("\r\n", "\n")


def raw_of(sink: Sink, message_id: str) -> bytes:
    return next(raw for _, _, raw in sink.received
                if f"Message-ID: {message_id}".encode() in raw)


def to(sink: Sink, user) -> list[EmailMessage]:
    return [m for m in sink.messages() if m["To"] == user.email]


# ---------------------------------------------------------------- one conversation


@pytest.mark.django_db
def test_a_games_mails_keep_one_subject_stem_and_one_conversation(sink, settings):
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = start_game([ann, bob, cyd], seed=MAIL_DEAL)
    from chat.services import chat_post

    assert set(deliver()) == {"sent"}  # your move, the game has begun
    chat_post(game_id=game.pk, user=ann, text="good luck, all")
    services.game_resign(game=game, user=bob)
    services.game_resign(game=game, user=cyd)  # the game is over
    assert "sent" in deliver()
    stem = f"Marram game {game.pk}"
    mails = sink.messages()
    subjects = {m["Subject"] for m in mails}
    assert {f"{stem}: your move", f"{stem}: the game has begun", f"{stem}: the game is over",
            f"{stem}: ann says good luck, all"} <= subjects, subjects
    roots = set()
    for mail in mails:
        assert mail["Subject"].startswith(f"{stem}: ")
        assert mail["Thread-Topic"] == stem
        assert f"<game-{game.pk}@{settings.REPLY_DOMAIN}>" in mail["References"].split()
        index = base64.b64decode(mail["Thread-Index"])
        assert len(index) == 27  # the game's header block, one child block
        roots.add(index[:22])
    assert len(roots) == 1  # the same conversation in Outlook
    # another game is another conversation
    other = start_game([make_user("dee"), make_user("eve")])
    deliver()
    [theirs] = {base64.b64decode(m["Thread-Index"])[:22] for m in sink.messages()
                if m["Thread-Topic"] == f"Marram game {other.pk}"}
    assert theirs not in roots


@pytest.mark.django_db
def test_an_answer_references_the_turn_mail_it_answers(sink, settings):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=MAIL_DEAL)
    deliver()
    [turn] = to(sink, ann)
    reply_to = parseaddr(turn["Reply-To"])[1]
    raw = reply_bytes(sender=ann.email, to=reply_to, body=first_move_text(game),
                      message_id="<ann-reply@client.example>",
                      subject=f"Re: {turn['Subject']}", In_Reply_To=turn["Message-ID"],
                      References=f"{turn['References']} {turn['Message-ID']}")
    assert inbound_mail_handle(raw).outcome == "played"
    sink.received.clear()
    deliver()
    [answer] = to(sink, ann)
    assert answer["Subject"] == f"Re: Marram game {game.pk}: your move"
    assert answer["In-Reply-To"] == "<ann-reply@client.example>"
    assert answer["References"].split() == [
        f"<game-{game.pk}@{settings.REPLY_DOMAIN}>", turn["Message-ID"],
        "<ann-reply@client.example>"]
    assert answer["Auto-Submitted"] == "auto-replied"


# ---------------------------------------------------------------- the headers


@pytest.mark.django_db
def test_every_mail_carries_the_headers_clients_and_servers_go_by(sink, settings):
    settings.MARRAM_SITE_NAME = "Dune Club"
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=MAIL_DEAL)
    deliver()
    [turn] = to(sink, ann)
    [begun] = to(sink, bob)
    raw = raw_of(sink, turn["Message-ID"]).decode()
    for mail in (turn, begun):
        assert mail["X-Auto-Response-Suppress"] == "OOF, AutoReply"
        assert mail["Auto-Submitted"] == "auto-generated"
        assert mail["List-Id"] == f'Dune Club <dune-club.{settings.REPLY_DOMAIN}>'
        # the one-click URL (RFC 8058) and a mailto: beside it
        links = [address.strip("<>") for address in
                 re.findall(r"<[^>]+>", mail["List-Unsubscribe"])]
        assert links[0].startswith(f"{settings.MARRAM_BASE_URL}/notifications/unsubscribe/")
        assert links[1].startswith("mailto:unsubscribe+") and \
            links[1].endswith(f"@{settings.REPLY_DOMAIN}?subject=unsubscribe")
        user = ann if mail is turn else bob
        assert signing.unsubscribe_address_read(links[1][7:].split("?")[0]) == user.pk
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert parseaddr(mail["From"])[1] == parseaddr(settings.DEFAULT_FROM_EMAIL)[1]
    # Date in +0000: "-0000" says the zone is unknown (RFC 5322 3.3)
    date = re.search(r"^Date: (.*)$", raw, re.M).group(1).strip()
    assert date.endswith(" +0000"), date
    assert parsedate_to_datetime(date).utcoffset().total_seconds() == 0
    # Reply-To with a name: the game's, and "chat" for the mail that asks no move
    [(name, address)] = getaddresses([turn["Reply-To"]])
    assert (name, address) == (f"Marram game {game.pk}",
                               signing.reply_address(game.pk, 0, game.seq))
    [(name, address)] = getaddresses([begun["Reply-To"]])
    assert name == f"Marram game {game.pk} chat"
    assert address == signing.command_address(game.pk, 1, "say")
    # the footer's separator is "-- ", so clients leave it out of quotes
    for mail in (turn, begun):
        text = text_of(mail)
        assert "\n-- \nMail settings: " in text
        assert text.index("\n-- \n") > text.index(f"/games/{game.pk}/")


@pytest.mark.django_db
def test_text_lines_are_wrapped_at_78_and_no_example_or_address_is_broken(sink):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of("pond", [ann, bob], seed=MAIL_DEAL)
    deliver()
    [turn] = to(sink, ann)
    text = text_of(turn)
    row = Notification.objects.get(game=game, user=ann, kind="your_turn")
    prompt = next(line for line in row.body_text.splitlines() if "for example" in line)
    assert len(prompt) > 300  # the game's prompt is one long line in the outbox
    examples = re.findall(r"'[^']+'", prompt)
    assert examples
    long_lines = [line for line in text.splitlines() if len(line) > 78]
    for line in long_lines:  # a lone address, or a line of notation left whole
        assert re.fullmatch(r"\s*https?://\S+", line) or line.startswith("  "), line
    for example in examples:  # each quoted example whole on one line
        assert any(example in line for line in text.splitlines()), (example, text)
    for url in re.findall(r"https?://\S+", row.body_text):
        assert url in text.split()  # every address whole
    # the prose of the prompt is all there, only its line breaks differ
    assert " ".join(text.split()).count(" ".join(prompt.split())) == 1


def test_wrapping_keeps_a_quoted_example_whole_where_plain_wrapping_would_break_it():
    pond = ("It is your turn: you play the light pieces and have {} eggs left in your "
            "spawn. Place an egg on an empty position, move one of your tadpoles one step, "
            "or move one of your frogs one or two steps in a straight line. Reply with "
            "your move on the first line, for example 'egg 1,2' or 'move 1,2 2,2': "
            "positions are x,y, counted east and south from 0,0 in the north-west corner.")
    # pad the sentence until a plain wrap at 78 cuts 'move 1,2 2,2' in two
    prompt = next(text for text in (pond.format("1" * n) for n in range(1, 80))
                  if not any("'move 1,2 2,2'" in line for line in textwrap.wrap(text, 78)))
    wrapped = mail_text(prompt + "\n\nSee it: https://example.org/" + "x" * 90 + "/\n"
                        "  move 1,2 2,2 " + "and more notation " * 5 + "\n--\nfooter")
    lines = wrapped.split("\n")
    assert any("'move 1,2 2,2':" in line for line in lines), wrapped
    assert all(len(line) <= 78 for line in lines[:lines.index("")]), wrapped
    assert "https://example.org/" + "x" * 90 + "/" in lines  # alone on its line, whole
    assert lines[-3].startswith("  move 1,2 2,2 and more") and len(lines[-3]) > 78  # left
    assert lines[-2:] == ["-- ", "footer"]


@pytest.mark.django_db
def test_a_non_ascii_subject_is_folded_without_a_leading_space(sink):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=MAIL_DEAL)
    from chat.services import chat_post

    said = "Grüße aus Köln, und viel Glück beim nächsten Zug: ça va être serré"
    chat_post(game_id=game.pk, user=ann, text=said)
    deliver()
    [mail] = [m for m in to(sink, bob) if "says" in m["Subject"]]
    raw = raw_of(sink, mail["Message-ID"])
    head = raw.split(b"\r\n\r\n", 1)[0]
    line = re.search(rb"^Subject:(.*)$", head, re.M).group(1)
    assert line.startswith(b" =?utf-8?"), head  # begun on the Subject line itself
    assert mail["Subject"] == f"Marram game {game.pk}: ann says {said[:60]}"  # (its start)
    folded = re.search(rb"^Subject:.*?(?=\r\n\S)", head + b"\r\nX", re.M | re.S).group()
    assert all(len(each) <= 78 for each in folded.split(b"\r\n")), folded


# ---------------------------------------------------------------- a mail that asks no move


@pytest.mark.django_db
def test_a_reply_to_the_game_has_begun_or_is_over_goes_to_the_games_chat(sink):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed=MAIL_DEAL)
    deliver()
    [begun] = to(sink, bob)
    assert "Reply to this mail to write to the game's chat" in text_of(begun)
    address = parseaddr(begun["Reply-To"])[1]
    raw = reply_bytes(sender=bob.email, to=address, body="Hello ann, have fun!\n\n> Hello bob",
                      message_id="<bob-hello@client.example>",
                      subject=f"Re: {begun['Subject']}", In_Reply_To=begun["Message-ID"])
    assert inbound_mail_handle(raw).outcome == "played"
    assert list(Message.objects.filter(game=game).values_list("user__username", "text")) == [
        ("bob", "Hello ann, have fun!")]
    # a "say" line is taken as it is
    raw = reply_bytes(sender=bob.email, to=address, body="say still here",
                      message_id="<bob-say@client.example>")
    assert inbound_mail_handle(raw).outcome == "played"
    assert Message.objects.filter(game=game).latest("pk").text == "still here"
    # the address names one seat: another player's mail through it is refused
    stranger = reply_bytes(sender=ann.email, to=address, body="hi",
                           message_id="<ann-through-bob@client.example>")
    assert inbound_mail_handle(stranger).code == "wrong_sender"
    # an altered address is refused
    altered = address.replace(f"say+{game.pk}.1.", f"say+{game.pk}.0.")
    forged = reply_bytes(sender=ann.email, to=altered, body="hi",
                         message_id="<forged-say@client.example>")
    assert inbound_mail_handle(forged).code == "bad_signature"
    services.game_resign(game=game, user=ann)
    sink.received.clear()
    deliver()
    [over] = [m for m in to(sink, bob) if m["Subject"].endswith("the game is over")]
    raw = reply_bytes(sender=bob.email, to=parseaddr(over["Reply-To"])[1], body="good game",
                      message_id="<bob-gg@client.example>")
    assert inbound_mail_handle(raw).outcome == "played"
    assert Message.objects.filter(game=game).latest("pk").text == "good game"
    # ann is mailed the chat line, in the game's conversation
    sink.received.clear()
    deliver()
    said = [m for m in to(sink, ann) if m["Subject"] == f"Marram game {game.pk}: bob says "
            "good game"]
    assert len(said) == 1 and seat_user(game, 0) == ann
