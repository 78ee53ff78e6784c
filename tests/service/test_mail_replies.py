"""Moves by mail: a reply to the signed address of a 'your move' mail plays the
move on its first line; anything wrong is answered and changes nothing."""

import json

import pytest
from django.core import mail

from engine import marram as engine
from games.models import Event
from notifications import services as notes
from notifications.inbound import inbound_mail_handle
from notifications.mailparse import move_line
from notifications.models import GameVisit, InboundMail, Notification
from notifications.signing import BadAddress, reply_address, reply_address_read
from tests.service.conftest import play, seat_user, start_game
from tests.service.mail_kit import (
    MAIL_DEAL,
    awaited,
    first_move_text,
    freeze_time,
    reply_bytes,
)


@pytest.fixture
def game(users):
    return start_game(users[:2], seed=MAIL_DEAL)


def reply(game, *, body: str, message_id: str = "<r1@client.example>", seat: int = 0,
          seq: int | None = None, sender: str | None = None, to: str | None = None, **headers):
    game.refresh_from_db()
    raw = reply_bytes(
        sender=sender or f"Player <{seat_user(game, seat).email}>",
        to=to or reply_address(game.pk, seat, game.seq if seq is None else seq),
        body=body, message_id=message_id, **headers)
    return inbound_mail_handle(raw)


def answers() -> list[Notification]:
    return list(Notification.objects.filter(kind__startswith="reply_").order_by("pk"))


def events(game) -> int:
    return Event.objects.filter(game=game).count()


def test_the_reply_address_is_signed_and_bound_to_game_seat_and_seq(settings):
    address = reply_address(12, 1, 40)
    local, domain = address.split("@")
    assert domain == settings.REPLY_DOMAIN
    assert local.startswith("move+12.1.40.") and len(local.rsplit(".", 1)[1]) == 20
    assert reply_address_read(address).__dict__ == {"game_id": 12, "seat": 1, "seq": 40,
                                                     "command": ""}
    for forged in (address.replace("move+12.1.40", "move+12.0.40"),  # another seat
                   address.replace("move+12.1.40", "move+12.1.41")):  # another seq
        with pytest.raises(BadAddress, match="signature does not match"):
            reply_address_read(forged)


def test_the_move_is_the_first_line_not_quoted():
    text = ("\n\nplace T17 back 1,-2 r2 claim arc 4\nthanks!\n\n"
            "On Tue, 3 Jun 2025, marram <marram@x> wrote:\n> It is your turn\n")
    assert move_line(text) == "place T17 back 1,-2 r2 claim arc 4"
    below = "On Tue, 3 Jun 2025, marram wrote:\n> It is your turn\n> pass\n\nflip 3,0 r1\n"
    assert move_line(below) == "flip 3,0 r1"
    assert move_line("> quoted only\n\n-- \nAnn") == ""


@pytest.mark.django_db
def test_a_reply_plays_the_move_once_even_if_delivered_twice(game):
    move = first_move_text(game)
    before = events(game)
    body = f"{move}\n\nOn Monday, marram wrote:\n> It is your turn in Marram game {game.pk}.\n"
    first = reply(game, body=body)
    assert (first.outcome, first.message) == ("played", move)
    again = reply(game, body=body, seq=game.seq - 1)  # the same message, delivered again
    assert again.outcome == "duplicate"
    assert events(game) == before + 1
    played = Event.objects.filter(game=game).order_by("-seq").first()
    assert played.actor == seat_user(game, 0) and played.idempotency_key.startswith("mail:")
    [answer] = answers()
    assert answer.kind == "reply_played" and answer.user == seat_user(game, 0)
    assert answer.in_reply_to == "<r1@client.example>"
    # still ann's turn (move 2 of 2): the answer carries the address for the next move
    assert awaited(game)[0] == 0
    assert answer.reply_to == reply_address(game.pk, 0, game.seq)
    assert notes.notification_deliver(answer.pk) == "sent"
    [sent] = mail.outbox
    assert sent.subject == "Re: Marram game: your move"
    assert sent.body.startswith(f"Played in Marram game {game.pk}: {move}\n")
    # what the game asks next, in its own words (the Marram adapter's turn_mail)
    assert "It is your turn: move 2 of 2. Reply with your move on the first line." in sent.body
    assert sent.reply_to == [answer.reply_to]
    assert sent.extra_headers["In-Reply-To"] == "<r1@client.example>"


@pytest.mark.django_db
def test_the_second_move_of_the_turn_by_replying_to_the_answer(game):
    reply(game, body=first_move_text(game), message_id="<m1@client>")
    [answer] = answers()
    second = reply(game, body=first_move_text(game), message_id="<m2@client>",
                   to=answer.reply_to)
    assert second.outcome == "played"
    assert awaited(game)[0] == 1
    assert "You will get a mail when it is your turn again, unless you have the game " \
        "open then." in Notification.objects.get(in_reply_to="<m2@client>").body_text


PROMISES = {
    "every_turn": ("You will get a mail when it is your turn again", "sent"),
    "until_visit": ("You will get a mail when it is your turn again", "sent"),
    "digest": ("Your daily digest will list this game", "skipped"),
    "off": ("Your mail is off, so no mail will say when it is your turn again", None),
}


@pytest.mark.django_db
@pytest.mark.parametrize("policy", list(PROMISES))
def test_the_answer_to_a_turn_played_by_mail_promises_what_the_policy_sends(game, policy,
                                                                            monkeypatch):
    """Ann loaded the game a minute before she played her turn by mail: that visit
    holds back no mail of her next turn, and the answer to her move says what will
    tell her of it, by her policy, as the policy then does."""
    now = freeze_time(monkeypatch)
    ann = seat_user(game, 0)
    notes.mail_settings_update(user=ann, policy=policy)
    notes.game_viewed_note(user=ann, game=game)
    now.advance(minutes=1)
    reply(game, body=first_move_text(game), message_id="<m1@client>")
    [answer] = answers()
    reply(game, body=first_move_text(game), message_id="<m2@client>", to=answer.reply_to)
    last = Notification.objects.get(in_reply_to="<m2@client>")
    words, outcome = PROMISES[policy]
    assert words in last.body_text
    assert words in last.body_html
    assert not GameVisit.objects.filter(user=ann, game=game).exists()

    play(game, until=lambda state: engine.awaiting(state)["player"] == 0)  # bob's turn, at once
    turn = Notification.objects.filter(user=ann, kind="your_turn").order_by("-pk").first()
    assert turn.seq == game.seq
    assert notes.notification_deliver(turn.pk) == (outcome or "skipped"), turn.note
    turn.refresh_from_db()
    if outcome is None:
        assert turn.note == "the player has turned mail off"


@pytest.mark.django_db
def test_a_page_open_after_the_move_by_mail_is_looking_again(game, monkeypatch):
    """What a move by mail forgets is the visits before it: a page read after it
    is looking at the game, and holds the next turn's mail back as ever."""
    freeze_time(monkeypatch)
    ann = seat_user(game, 0)
    notes.game_viewed_note(user=ann, game=game)
    reply(game, body=first_move_text(game), message_id="<m1@client>")
    [answer] = answers()
    reply(game, body=first_move_text(game), message_id="<m2@client>", to=answer.reply_to)
    notes.game_viewed_note(user=ann, game=game)  # written although within 30 s of the first
    play(game, until=lambda state: engine.awaiting(state)["player"] == 0)
    turn = Notification.objects.filter(user=ann, kind="your_turn").order_by("-pk").first()
    assert notes.notification_deliver(turn.pk) == "skipped"
    turn.refresh_from_db()
    assert turn.note == "the player is looking at the game"


def refused(game, result, code: str, reason: str, *, to: str) -> Notification:
    assert (result.outcome, result.code) == ("refused", code)
    assert reason in result.message
    [answer] = answers()
    assert answer.kind == "reply_refused" and answer.to_email == to
    assert reason in answer.body_text and "Nothing has changed in the game." in answer.body_text
    notes.notification_deliver(answer.pk)
    assert mail.outbox[-1].to == [to]
    return answer


@pytest.mark.django_db
def test_a_forged_address_is_refused_and_answers_nobody(game):
    # Issue 10, item 3: a forged address was answered to whatever From it came
    # with; nobody was given that address, so nobody is answered now.
    before = events(game)
    good = reply_address(game.pk, 1, game.seq)  # bob tries to move for ann...
    forged = good.replace(f"move+{game.pk}.1.", f"move+{game.pk}.0.")
    bob = seat_user(game, 1)
    result = reply(game, body=first_move_text(game), sender=bob.email, to=forged)
    assert (result.outcome, result.code) == ("refused", "bad_signature")
    assert "signature does not match" in result.message
    assert answers() == [] and not InboundMail.objects.get().answered
    assert events(game) == before


@pytest.mark.django_db
def test_a_stale_address_is_refused_and_answered(game):
    ann = seat_user(game, 0)
    old_seq = game.seq
    reply(game, body=first_move_text(game), message_id="<m1@client>")
    Notification.objects.all().delete()
    before = events(game)
    result = reply(game, body=first_move_text(game), message_id="<m2@client>", seq=old_seq)
    refused(game, result, "stale", "the game has moved on", to=ann.email)
    assert events(game) == before


@pytest.mark.django_db
def test_an_unreadable_move_is_refused_and_answered(game):
    ann = seat_user(game, 0)
    result = reply(game, body="Hello! I think I'll place my tile top left.\n")
    answer = refused(game, result, "unreadable", "'Hello!' is not a move", to=ann.email)
    assert "Hello! I think I'll place my tile top left." in answer.body_text


@pytest.mark.django_db
def test_an_illegal_move_is_refused_with_the_rule(game):
    ann = seat_user(game, 0)
    before = events(game)
    result = reply(game, body="place T99 front 5,5 r0")
    refused(game, result, "tile_not_in_hand", "the rules do not allow that move", to=ann.email)
    assert events(game) == before


@pytest.mark.django_db
def test_a_reply_from_another_address_is_refused_and_told_to_the_player(game):
    # Issue 10, item 3: the refusal went to the From line (anyone's address); it
    # goes to the player the reply address was mailed to, without the stranger's
    # subject or text.
    player = seat_user(game, 0)
    before = events(game)
    result = reply(game, body="Buy cheap pills\nflip 3,0 r1", sender="mallory@evil.example",
                   subject="=?utf-8?q?WIN_A_PRIZE=0D=0ABcc:_victim@example.net?=")
    answer = refused(game, result, "wrong_sender", "must come from the address", to=player.email)
    assert answer.user == player
    assert answer.subject == f"Marram game {game.pk}: a mail to your reply address was not played"
    assert answer.body_text.startswith("A mail to your reply address was not played")
    assert "came from mallory@evil.example" in answer.body_text
    assert "pills" not in answer.body_text and "PRIZE" not in answer.body_text
    assert mail.outbox[-1].to == [player.email] and mail.outbox[-1].bcc == []
    assert "In-Reply-To" not in mail.outbox[-1].extra_headers
    assert events(game) == before


@pytest.mark.django_db
def test_it_is_not_your_turn_by_mail_either(game):
    bob = seat_user(game, 1)
    result = reply(game, body="pass", seat=1)
    refused(game, result, "not_your_turn", "it is not your turn", to=bob.email)


@pytest.mark.django_db
def test_auto_replies_and_bounces_are_never_answered(game):
    result = reply(game, body="I am on holiday until Monday.", Auto_Submitted="auto-replied")
    assert result.outcome == "ignored" and answers() == []
    assert InboundMail.objects.get().code == "automatic"


# ---------------------------------------------------------------- the webhook


@pytest.fixture
def webhook(client, settings):
    settings.MAIL_WEBHOOK_SECRET = "s3cret-shared-with-the-provider"

    def post(payload, secret="s3cret-shared-with-the-provider"):
        return client.post("/mail/inbound/", data=json.dumps(payload),
                           content_type="application/json",
                           HTTP_X_MARRAM_WEBHOOK_SECRET=secret)

    return post


@pytest.mark.django_db
def test_the_webhook_plays_a_reply_posted_by_the_provider(game, webhook):
    ann = seat_user(game, 0)
    payload = {"recipient": reply_address(game.pk, 0, game.seq), "sender": ann.email,
               "message_id": "<hosted-1@provider>", "text": first_move_text(game)}
    before = events(game)
    first = webhook(payload)
    assert first.status_code == 200 and first.json()["outcome"] == "played"
    assert webhook(payload).json()["outcome"] == "duplicate"  # the provider retried
    assert events(game) == before + 1


@pytest.mark.django_db
def test_the_webhook_wants_the_shared_secret(game, webhook, settings):
    payload = {"recipient": "x", "sender": "y", "message_id": "z", "text": "pass"}
    answer = webhook(payload, secret="guess")
    assert answer.status_code == 403 and answer.json()["code"] == "bad_secret"
    assert webhook({"recipient": "x"}).status_code == 400
    settings.MAIL_WEBHOOK_SECRET = ""
    assert webhook(payload).status_code == 404  # off without a secret
    assert InboundMail.objects.count() == 0
