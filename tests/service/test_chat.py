"""A game's chat: messages beside the board, the other players mailed under their
mail settings (and not when they muted it), a reply by mail whose first line
starts with "say" posting to it; plain text escaped on the page, in mail and in
the admin; bounded and throttled; shown to the game's players only."""

from __future__ import annotations

import pytest
from django.core import mail

from chat.models import MAX_LENGTH, Message, Mute
from games import services as game_services
from notifications.inbound import inbound_mail_handle
from notifications.models import InboundMail, MailSettings, Notification, Policy
from tests.service.conftest import body, client_for, signed_in, start_game
from tests.service.mail_kit import eager_tasks, reply_bytes

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script> & <b>bold</b>'



def test_a_message_is_shown_to_the_players_and_mailed_to_the_others_escaped(
        users, settings, django_capture_on_commit_callbacks, admin_client):
    ann, bob, cyd, dee = users
    game = start_game([ann, bob, cyd])
    MailSettings.objects.update_or_create(user=cyd, defaults={"policy": Policy.DIGEST})
    mail.outbox.clear()
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        answer = client_for(ann).post(f"/api/games/{game.pk}/chat/", {"text": HOSTILE},
                                      format="json")
    assert answer.status_code == 201, answer.content
    assert body(answer)["text"] == HOSTILE and body(answer)["username"] == "ann"
    # bob is mailed; cyd reads a digest: no mail for a chat line; ann wrote it
    chat_mail = [m for m in mail.outbox if m.subject.startswith(f"Marram game {game.pk}: ann says")]
    assert [m.to for m in chat_mail] == [["bob@example.org"]]
    sent = chat_mail[0]
    assert HOSTILE in sent.body  # plain text as written
    html = sent.alternatives[0][0]
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert sent.reply_to and sent.reply_to[0].startswith("move+")
    page = signed_in(bob).get(f"/games/{game.pk}/").content.decode()
    assert 'id="chat"' in page and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert '<script>alert("x")' not in page
    assert 'id="chat"' not in signed_in(dee).get(f"/games/{game.pk}/").content.decode()
    assert [m["text"] for m in body(client_for(cyd).get(f"/api/games/{game.pk}/chat/"))] == [
        HOSTILE]
    admin = admin_client.get("/admin/chat/message/").content.decode()
    assert "&lt;script&gt;" in admin and '<script>alert("x")' not in admin


def test_a_muted_chat_is_not_mailed(users, settings, django_capture_on_commit_callbacks):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    muted = client_for(bob).put(f"/api/games/{game.pk}/chat/mute/", {"muted": True},
                                format="json")
    assert muted.status_code == 200 and body(muted) == {"muted": True}
    client_for(ann).post(f"/api/games/{game.pk}/chat/", {"text": "hello"}, format="json")
    assert not Notification.objects.filter(kind="chat").exists()
    signed_in(bob).post(f"/games/{game.pk}/chat/mute/", {"muted": "off"})
    assert not Mute.objects.exists()
    client_for(ann).post(f"/api/games/{game.pk}/chat/", {"text": "again"}, format="json")
    assert Notification.objects.get(kind="chat").user == bob


def test_a_say_line_replied_to_a_game_mail_posts_to_the_chat(users):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    client_for(ann).post(f"/api/games/{game.pk}/chat/", {"text": "good luck"}, format="json")
    to_bob = Notification.objects.get(kind="chat", user=bob)
    raw = reply_bytes(sender="bob@example.org", to=to_bob.reply_to,
                      body="say Thanks, you too!\n\n> good luck", message_id="<say-1@example.org>")
    result = inbound_mail_handle(raw)
    assert result.code == "command"
    said = Message.objects.get(user=bob)
    assert (said.text, said.via) == ("Thanks, you too!", "mail")
    assert InboundMail.objects.get().code == "command"
    assert Notification.objects.get(kind="chat", user=ann).body_text.count("Thanks, you too!")
    # the same mail delivered twice posts once
    assert inbound_mail_handle(raw).code == "duplicate"
    assert Message.objects.filter(user=bob).count() == 1
    # from another address: refused, nothing posted
    forged = reply_bytes(sender="eve@example.org", to=to_bob.reply_to, body="say hi",
                         message_id="<say-2@example.org>")
    assert inbound_mail_handle(forged).code == "wrong_sender"
    assert Message.objects.filter(user=bob).count() == 1


def test_bad_messages_are_refused_and_change_nothing(users):
    ann, bob, cyd, _ = users
    game = start_game([ann, bob])
    url = f"/api/games/{game.pk}/chat/"
    for data, status in (({"text": "x" * (MAX_LENGTH + 1)}, 400), ({"text": "   "}, 400),
                         ({"text": "a\x00b"}, 400), ({"text": "bell\x07"}, 400),
                         ({"text": 5}, 400), ({}, 400), ({"text": "hi", "to": "bob"}, 400)):
        answer = client_for(ann).post(url, data, format="json")
        assert answer.status_code == status, (data, answer.content)
    assert client_for(cyd).post(url, {"text": "hi"}, format="json").status_code == 403
    assert client_for(cyd).get(url).status_code == 403
    assert client_for(ann).post("/api/games/999999/chat/", {"text": "hi"},
                                format="json").status_code == 404
    assert client_for(ann).put(f"{url}mute/", {"muted": "yes"}, format="json").status_code == 400
    page = signed_in(ann).post(f"/games/{game.pk}/chat/", {"text": "y" * (MAX_LENGTH + 1)})
    assert page.status_code == 400
    assert not Message.objects.exists() and not Mute.objects.exists()


def test_the_chat_is_throttled(users):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    url = f"/api/games/{game.pk}/chat/"
    for n in range(5):
        assert client_for(ann).post(url, {"text": f"line {n}"}, format="json").status_code == 201
    answer = client_for(ann).post(url, {"text": "one too many"}, format="json")
    assert answer.status_code == 429 and answer["Retry-After"] == "60"
    page = signed_in(ann).post(f"/games/{game.pk}/chat/", {"text": "and by the page"})
    assert page.status_code == 429
    assert Message.objects.count() == 5
    # bob is not held back by ann's lines
    assert client_for(bob).post(url, {"text": "hi"}, format="json").status_code == 201


def test_the_pages_form_sent_in_place_is_answered_in_json(users):
    """The game page sends the chat's form itself (client.js, sendInPlace): the
    answer says it is done, or why not, in JSON; a form without script is sent
    back to the game's chat."""
    ann, bob, cyd, _ = users
    game = start_game([ann, bob])
    url, wants = f"/games/{game.pk}/chat/", {"HTTP_ACCEPT": "application/json"}
    answer = signed_in(ann).post(url, {"text": "good luck"}, **wants)
    assert (answer.status_code, answer.json()) == (200, {"done": True})
    empty = signed_in(ann).post(url, {"text": "   "}, **wants)
    assert (empty.status_code, empty.json()["code"]) == (400, "empty")
    assert signed_in(cyd).post(url, {"text": "hi"}, **wants).json()["code"] == "not_a_player"
    gone = signed_in(ann).post("/games/999999/chat/", {"text": "hi"}, **wants)
    assert (gone.status_code, gone.json()["code"]) == (404, "no_such_game")
    for n in range(4):
        signed_in(ann).post(url, {"text": f"line {n}"}, **wants)
    held = signed_in(ann).post(url, {"text": "one too many"}, **wants)
    assert (held.status_code, held.json()["code"], held["Retry-After"]) == (429, "throttled", "60")
    assert list(Message.objects.values_list("text", flat=True).order_by("pk")) == [
        "good luck", "line 0", "line 1", "line 2", "line 3"]
    assert signed_in(bob).post(url, {"text": "thanks"})["Location"] == f"/games/{game.pk}/#chat"


def test_chat_goes_on_after_the_game_and_is_no_part_of_its_record(users):
    ann, bob = users[:2]
    game = start_game([ann, bob])
    game_services.game_resign(game=game, user=bob)
    seq = game.events.count()
    assert client_for(bob).post(f"/api/games/{game.pk}/chat/", {"text": "gg"},
                                format="json").status_code == 201
    assert game.events.count() == seq
    record = body(client_for(ann).get(f"/api/games/{game.pk}/record/?format=json"))
    assert "gg" not in str(record)
