"""The corpus of replies (``mail_corpus/*.eml``): mail as Gmail, Outlook (desktop,
plain-text mode, iOS, Exchange), Apple Mail and iPhone, Thunderbird, K-9, Yahoo,
Proton, Fastmail and Samsung write it, in several languages, signed, with
attachments, automatic replies and bounces, each built by hand from the
client's documented format. Each file says which game it answers and what must
come of it (``X-Corpus-Game``, ``X-Corpus-Expect``: ``move <notation>``,
``chat <text>``, ``ignored``, ``refused <code>``, ``duplicate-of <file>``), and
the envelope's MAIL FROM when it is not the player's (``X-Corpus-Envelope-From``);
those lines are taken out before the mail is sent. ``{{FROM}}`` is the player's
address, ``{{TO}}`` the reply address of their turn mail, ``{{BASE64:N}}`` N
bytes of a photo, in base64.

Every mail goes in three ways, each through the real endpoint, and each asserts
the game's log, the chat and the mail the players are sent:

- by SMTP, to the listener (``manage.py mail_listener`` in its own process, its
  tasks run at once, its mail to an SMTP server of the test's);
- through a hosted provider's webhook: Mailgun's, the raw message and the
  envelope signed as Mailgun signs them;
- through the site's own JSON webhook, with what a provider that parses mail
  posts: the text part, the HTML part, the headers and the envelope sender.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import re
import smtplib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from django.core import mail

from chat.models import Message
from games.models import Event
from games.selectors import rules_of
from notifications.models import InboundMail, Notification
from notifications.signing import reply_address
from tests.service.conftest import make_user, start_game_of
from tests.service.mail_kit import MAIL_DEAL
from tests.service.test_celery_worker import Process, free_port, wait_for
from tests.service.test_mail_hostile_smtp import Envelopes

CORPUS = Path(__file__).parent / "mail_corpus"
MAILGUN_KEY = "key-corpus-mailgun-signing"
WEBHOOK_SECRET = "corpus-webhook-secret"


@dataclass(frozen=True)
class Case:
    name: str
    game: str
    expect: str
    argument: str
    envelope_from: str | None
    template: bytes

    def __str__(self) -> str:
        return self.name


def _case(path: Path) -> Case:
    raw = path.read_bytes()
    meta = dict(re.findall(rb"^X-Corpus-([\w-]+): (.*)$", raw.split(b"\n\n", 1)[0], re.M))
    expect, _, argument = meta[b"Expect"].decode().partition(" ")
    envelope = meta.get(b"Envelope-From")
    return Case(path.stem, meta[b"Game"].decode(), expect, argument,
                envelope.decode() if envelope is not None else None, raw)


CASES = [_case(p) for p in sorted(CORPUS.glob("*.eml"))]


def corpus_mail(case: Case, *, sender: str, to: str) -> bytes:
    """The case's message as it goes on the wire: CRLF lines, the corpus's own
    lines out, the addresses and any photo filled in."""
    head, _, body = case.template.partition(b"\n\n")
    head = b"\n".join(line for line in head.split(b"\n") if not line.startswith(b"X-Corpus-"))
    text = head + b"\n\n" + body
    text = text.replace(b"{{FROM}}", sender.encode()).replace(b"{{TO}}", to.encode())

    def photo(found: re.Match) -> bytes:
        data = random.Random(7).randbytes(int(found.group(1)))
        return base64.encodebytes(data).rstrip(b"\n")

    text = re.sub(rb"\{\{BASE64:(\d+)\}\}", photo, text)
    return text.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def case_by_name(name: str) -> Case:
    return next(c for c in CASES if c.name == name)


@dataclass
class Table:
    game: object
    ann: object
    bob: object
    to: str
    seq: int


def table_for(case: Case) -> Table:
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of(case.game, [ann, bob], seed=MAIL_DEAL)
    # the mails of the start are not this test's: out of the outbox's way
    Notification.objects.filter(game=game).update(status="sent")
    return Table(game, ann, bob, reply_address(game.pk, 0, game.seq), game.seq)


def envelope_sender(case: Case, table: Table) -> str:
    if case.envelope_from is None:
        return table.ann.email
    return case.envelope_from.strip("<>")


def check(case: Case, table: Table, mails: list[tuple[list[str], str, str]]) -> None:
    """What must have come of the case: the game's log, its chat and the mail
    sent (``mails``: each one's recipients, subject and text)."""
    game, ann, bob = table.game, table.ann, table.bob
    moves = list(Event.objects.filter(game=game, seq__gte=table.seq, actor=ann).order_by("seq"))
    chat = list(Message.objects.filter(game=game).values_list("user__username", "text"))
    to_ann = [m for m in mails if ann.email in m[0]]
    to_bob = [m for m in mails if bob.email in m[0]]
    rules = rules_of(game)
    if case.expect in ("move", "duplicate-of"):
        want = case.argument if case.expect == "move" else \
            case_by_name(case.argument).argument
        assert [rules.format_action(e.payload) for e in moves[:1]] == [want], (
            list(InboundMail.objects.values_list("outcome", "code", "detail", "move")),
            list(Event.objects.filter(game=game).values_list("seq", "actor_id", "payload")))
        assert chat == []
        played = [m for m in to_ann if m[2].startswith(f"Played in {rules.title} game {game.pk}:")]
        assert len(played) == 1, to_ann
        assert played[0][2].startswith(f"Played in {rules.title} game {game.pk}: {want}\n")
        assert not [m for m in to_ann if "not played" in m[2]]
    elif case.expect == "chat":
        assert moves == []
        assert chat == [("ann", case.argument)], InboundMail.objects.values_list(
            "code", "detail").first()
        said = " ".join(case.argument.split())  # the mail's text is wrapped at 78
        assert [m for m in to_bob if said in " ".join(m[2].split())], to_bob
        assert to_ann == []
    elif case.expect == "ignored":
        assert moves == [] and chat == []
        assert mails == []
        assert InboundMail.objects.get().outcome == "ignored"
    elif case.expect == "refused":
        assert moves == [] and chat == []
        record = InboundMail.objects.get()
        assert (record.outcome, record.code) == ("refused", case.argument)
        assert len(to_ann) == 1 and "not played" in to_ann[0][2]
        assert to_bob == []
    else:  # pragma: no cover
        raise AssertionError(f"{case.name}: no such expectation {case.expect}")


def sending_order(case: Case) -> list[Case]:
    return [case_by_name(case.argument), case] if case.expect == "duplicate-of" else [case]


# ---------------------------------------------------------------- by SMTP


@pytest.fixture(scope="module")
def outgoing() -> Iterator[tuple[Envelopes, int]]:
    from aiosmtpd.controller import Controller

    collector, port = Envelopes(), free_port()
    controller = Controller(collector, hostname="127.0.0.1", port=port)
    controller.start()
    yield collector, port
    controller.stop()


@pytest.fixture(scope="module")
def smtp_listener(django_db_setup, outgoing, redis_url, tmp_path_factory) -> Iterator[int]:
    """``manage.py mail_listener`` on the test database, running its tasks at once
    (as ./dev run does) and sending its mail to ``outgoing``."""
    import os
    from urllib.parse import urlsplit, urlunsplit

    from django.db import connection

    url = urlsplit(os.environ["DATABASE_URL"])
    env = {**os.environ,
           "DATABASE_URL": urlunsplit(url._replace(path=f"/{connection.settings_dict['NAME']}")),
           "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(outgoing[1]), "EMAIL_USE_TLS": "0",
           "CELERY_TASK_ALWAYS_EAGER": "1", "MARRAM_DRAW_INLINE": "1", "PYTHONUNBUFFERED": "1"}
    port = free_port()
    log = tmp_path_factory.mktemp("corpus-listener") / "listener.log"
    argv = [os.sys.executable, "manage.py", "mail_listener", "--host", "127.0.0.1",
            "--port", str(port)]
    process = Process(argv, env, log, "mail_listener: SMTP on").start()
    yield port
    process.stop()


def smtp_send(port: int, mail_from: str, to: str, raw: bytes) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=120) as client:
        client.sendmail(mail_from, [to], raw)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("redis_url")
@pytest.mark.parametrize("case", CASES, ids=str)
def test_corpus_by_smtp(case, smtp_listener, outgoing):
    collector, _ = outgoing
    collector.messages.clear()
    table = table_for(case)
    for each in sending_order(case):
        raw = corpus_mail(each, sender=table.ann.email, to=table.to)
        smtp_send(smtp_listener, envelope_sender(each, table), table.to, raw)
    expected_mail = case.expect != "ignored"
    if expected_mail:
        wait_for(lambda: collector.messages, "the mail the reply calls for")
    time.sleep(0.3)  # anything else it would send
    mails = [(m.rcpt_tos, str(m["Subject"]),
              m.get_body(("plain",)).get_content().replace("\r\n", "\n"))
             for m in collector.messages]
    check(case, table, mails)


# ---------------------------------------------------------------- webhooks


def outbox() -> list[tuple[list[str], str, str]]:
    """The mail the reply called for, sent as the outbox sends it."""
    from notifications.services import notification_deliver

    for pk in Notification.objects.filter(status="pending").values_list("pk", flat=True):
        notification_deliver(pk)
    return [(m.to, m.subject, m.body) for m in mail.outbox]


@pytest.fixture
def hosted(settings):
    settings.MAIL_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.MAILGUN_WEBHOOK_SIGNING_KEY = MAILGUN_KEY


def mailgun_post(client, raw: bytes, *, sender: str, recipient: str):
    """What Mailgun's forward() route posts: the raw message ("body-mime"), the
    envelope, and its signature (HMAC-SHA256 of timestamp and token)."""
    timestamp, token = str(int(time.time())), hashlib.sha256(raw).hexdigest()[:50]
    signature = hmac.new(MAILGUN_KEY.encode(), f"{timestamp}{token}".encode(),
                         hashlib.sha256).hexdigest()
    return client.post("/mail/inbound/mailgun/", data={
        "body-mime": raw.decode("utf-8", "surrogateescape"), "sender": sender,
        "recipient": recipient, "timestamp": timestamp, "token": token,
        "signature": signature},
        HTTP_AUTHORIZATION="Basic " + base64.b64encode(
            f"marram:{WEBHOOK_SECRET}".encode()).decode())


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=str)
def test_corpus_by_mailgun_webhook(case, client, hosted, settings):
    table = table_for(case)
    mail.outbox.clear()
    for each in sending_order(case):
        raw = corpus_mail(each, sender=table.ann.email, to=table.to)
        answer = mailgun_post(client, raw, sender=envelope_sender(each, table),
                              recipient=table.to)
        if len(raw) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            # a post is at most MARRAM_MAX_BODY_KIB (docs/mail.md): a reply with a
            # photo comes by SMTP; the provider is told so, and nothing is played
            assert answer.status_code == 413, answer.content[:300]
            assert answer.json()["code"] == "too_large"
            assert not Event.objects.filter(game=table.game, seq__gte=table.seq,
                                            actor=table.ann).exists()
            return
        assert answer.status_code == 200, answer.content[:300]
    check(case, table, outbox())


def parsed_fields(raw: bytes) -> dict:
    """What a provider that parses mail posts: the text and HTML parts, decoded,
    and the headers."""
    message = message_from_bytes(raw, policy=policy.compat32)
    text = html = ""
    for part in message.walk():
        if part.is_multipart() or part.get("Content-Disposition", "").startswith("attachment"):
            continue
        kind = part.get_content_type()
        if kind not in ("text/plain", "text/html"):
            continue
        payload = part.get_payload(decode=True) or b""
        decoded = payload.decode(part.get_content_charset() or "utf-8", "replace")
        if kind == "text/plain" and not text:
            text = decoded
        elif kind == "text/html" and not html:
            html = decoded
    from email.header import decode_header, make_header

    def header(name: str) -> str:
        value = message.get(name, "")
        return str(make_header(decode_header(value))) if value else ""

    return {"text": text, "html": html, "subject": header("Subject"),
            "from": header("From"), "message_id": message.get("Message-ID", ""),
            "headers": [[k, str(make_header(decode_header(v)))] for k, v in message.items()]}


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=str)
def test_corpus_by_json_webhook(case, client, hosted):
    table = table_for(case)
    mail.outbox.clear()
    for each in sending_order(case):
        fields = parsed_fields(corpus_mail(each, sender=table.ann.email, to=table.to))
        from email.utils import parseaddr

        payload = {"recipient": table.to, "sender": parseaddr(fields["from"])[1],
                   "message_id": fields["message_id"], "subject": fields["subject"],
                   "text": fields["text"], "html": fields["html"], "headers": fields["headers"],
                   "envelope_sender": envelope_sender(each, table)}
        answer = client.post("/mail/inbound/", data=json.dumps(payload),
                             content_type="application/json",
                             HTTP_X_MARRAM_WEBHOOK_SECRET=WEBHOOK_SECRET)
        assert answer.status_code == 200, answer.content[:300]
    check(case, table, outbox())
