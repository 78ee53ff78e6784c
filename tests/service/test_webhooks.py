"""Players' webhooks against a real HTTP receiver on 127.0.0.1 (webhook_kit): the
call that arrives when it becomes a player's turn, in each format and with
public facts only; retries with back-off and the failures on the settings page;
the answers no retry can help; the addresses refused (never connected to)
without the operator's allowance; redirects not followed; no call for a
computer's seat; and the settings page's webhook section against bad input.

Calls are made by the outbox's own delivery (notifications.services), in this
process; test_webhooks_worker.py makes them with a real Celery worker."""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client

from games import services
from notifications import outbox, webhook_http
from notifications import services as notes
from notifications.models import Notification, Policy, Webhook
from tests.service.conftest import json_strings, make_user, seat_user, start_game
from tests.service.mail_kit import freeze_time, play_turn
from tests.service.test_bots import bot_seat_game, my_move
from web.links import site_url

SEED = "4b" * 32  # ann sits first, bob second
LOOPBACK = "127.0.0.0/8"
PUBLIC_FIELDS = {"event", "game_id", "game", "title", "url", "seq", "player", "players"}


@pytest.fixture
def loopback_allowed(settings):
    settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS = [LOOPBACK]


@pytest.fixture
def connections(monkeypatch) -> list[tuple]:
    """Every connection a webhook call opens, recorded (and then opened)."""
    opened: list[tuple] = []
    real = socket.create_connection

    def spy(address, *args, **kwargs):
        opened.append(address)
        return real(address, *args, **kwargs)

    monkeypatch.setattr(webhook_http.socket, "create_connection", spy)
    return opened


def deliver_due() -> list[str]:
    """Deliver each pending row of the outbox once, the calls the "your turn" mails
    write as they go included; the statuses after."""
    done: dict[int, str] = {}
    while due := [pk for pk in Notification.objects.filter(status="pending").order_by("pk")
                  .values_list("pk", flat=True) if pk not in done]:
        done.update((pk, notes.notification_deliver(pk)) for pk in due)
    return list(done.values())


def calls_of(webhook: Webhook) -> list[Notification]:
    return list(Notification.objects.filter(webhook=webhook).order_by("pk"))


def two_player_game(ann, bob):
    return start_game([ann, bob], seed=SEED)


def first_turn_call(url: str) -> Notification:
    """ann's webhook to ``url``, called as the game with bob begins (her turn
    first): the call's row after its first attempt."""
    ann, bob = make_user("ann"), make_user("bob")
    hook = Webhook.objects.create(user=ann, url=url)
    two_player_game(ann, bob)
    deliver_due()
    [row] = calls_of(hook)
    return row


# ---------------------------------------------------------------- the call


@pytest.mark.django_db
def test_a_plain_json_webhook_is_called_with_public_facts_when_it_is_the_players_turn(
        receiver, loopback_allowed):
    ann, bob = make_user("ann"), make_user("bob")
    Webhook.objects.create(user=ann, url=receiver.url("/ann"))
    Webhook.objects.create(user=bob, url=receiver.url("/bob"))
    game = two_player_game(ann, bob)
    deliver_due()
    [call] = receiver.calls
    facts = {"event": "your_turn", "game_id": game.pk, "game": "marram", "title": "Marram",
             "url": site_url(f"/games/{game.pk}/"), "players": ["ann", "bob"]}
    assert call.path == "/ann"
    assert call.json() == {**facts, "seq": game.seq, "player": "ann"}
    assert call.headers["Content-Type"] == "application/json"
    assert call.headers["Host"] == f"127.0.0.1:{receiver.port}"
    assert call.headers["X-Marram-Event"] == "your_turn"
    [row] = calls_of(Webhook.objects.get(user=ann))
    assert row.status == "sent" and call.headers["X-Marram-Delivery"] == row.message_id[1:-1]
    # ann plays her turn: now bob is called, with the seq his turn began at
    play_turn(game)
    game.refresh_from_db()
    deliver_due()
    [to_bob] = receiver.to("/bob")
    assert to_bob.json() == {**facts, "seq": game.seq, "player": "bob"}
    assert len(receiver.calls) == 2


@pytest.mark.django_db
def test_a_call_holds_no_hidden_information(receiver, loopback_allowed):
    ann, bob = make_user("ann"), make_user("bob")
    Webhook.objects.create(user=ann, url=receiver.url())
    game = start_game([ann, bob], variant="animals", seed=SEED)
    deliver_due()
    [call] = receiver.calls
    sent = call.json()
    assert set(sent) == PUBLIC_FIELDS
    strings = json_strings(sent)
    assert all(len(s) < 100 for s in strings)
    # no seed, no commitment, no deck, no hand: nothing from the game's state
    text = call.body.decode()
    assert game.seed not in text and game.commitment not in text
    for hidden in ("seed", "deck", "hand", "bag", "state", "commitment"):
        assert hidden not in strings, hidden


@pytest.mark.parametrize("format, expected", [
    ("discord", lambda who, g, url: {
        "content": f"{who}: your turn in Marram game {g} {url}",
        "allowed_mentions": {"parse": []}}),
    ("slack", lambda who, g, url: {"text": f"{who}: your turn in Marram game {g} <{url}>"}),
])
@pytest.mark.django_db
def test_discord_and_slack_get_the_shape_their_incoming_webhooks_read(
        receiver, loopback_allowed, format, expected):
    ann, bob = make_user("ann"), make_user("bob")
    Webhook.objects.create(user=ann, url=receiver.url(), format=format)
    game = two_player_game(ann, bob)
    deliver_due()
    [call] = receiver.calls
    assert call.json() == expected("ann", game.pk, site_url(f"/games/{game.pk}/"))


@pytest.mark.django_db
def test_a_name_cannot_ping_a_discord_channel_or_format_its_text(receiver, loopback_allowed):
    eve, bob = make_user("@everyone_*x*"), make_user("bob")
    Webhook.objects.create(user=eve, url=receiver.url(), format="discord")
    two_player_game(eve, bob)
    deliver_due()
    [call] = receiver.calls
    assert call.json()["content"].startswith("@everyone\\_\\*x\\*: your turn")
    assert call.json()["allowed_mentions"] == {"parse": []}


@pytest.mark.django_db
def test_webhooks_are_called_whatever_the_mail_policy_and_not_when_turned_off(
        receiver, loopback_allowed):
    ann, bob = make_user("ann"), make_user("bob")
    notes.mail_settings_update(user=ann, policy=Policy.OFF)
    on = Webhook.objects.create(user=ann, url=receiver.url("/on"))
    off = Webhook.objects.create(user=ann, url=receiver.url("/off"), enabled=False)
    two_player_game(ann, bob)
    deliver_due()
    assert [c.path for c in receiver.calls] == ["/on"]
    assert [r.status for r in calls_of(on)] == ["sent"]
    assert calls_of(off) == []  # a webhook turned off is not called
    # mail is off: the mail row is skipped, the webhook was called all the same
    assert Notification.objects.get(user=ann, kind="your_turn").status == "skipped"


@pytest.mark.django_db
def test_a_call_for_a_turn_that_is_over_is_not_made(receiver, loopback_allowed):
    ann, bob = make_user("ann"), make_user("bob")
    hook = Webhook.objects.create(user=ann, url=receiver.url())
    game = two_player_game(ann, bob)
    [mail] = Notification.objects.filter(user=ann, kind="your_turn")
    notes.notification_deliver(mail.pk)  # writes the call
    [call] = calls_of(hook)
    play_turn(game)  # ann plays before the call is made
    assert notes.notification_deliver(call.pk) == "skipped"
    call.refresh_from_db()
    assert call.note == "that turn is over" and receiver.calls == []


# ---------------------------------------------------------------- failures


@pytest.mark.django_db
def test_a_receiver_answering_500_is_retried_with_back_off_and_shown_on_the_settings_page(
        receiver, loopback_allowed, monkeypatch):
    now = freeze_time(monkeypatch)
    receiver.status = 500
    row = first_turn_call(receiver.url())
    assert row.status == "pending" and row.attempts == 1
    assert row.note == "answered 500 Internal Server Error: the receiver is broken"
    page = signed_in(row.user).get("/settings/notifications/").content.decode()
    assert ("failed: answered 500 Internal Server Error: the receiver is broken. It will be "
            "tried again at 09:02 UTC.") in page
    assert "answered 500 Internal Server Error" in page
    waits = [row.next_attempt_at - now.value]
    for attempt in range(2, outbox.MAX_ATTEMPTS):
        now.value = row.next_attempt_at
        assert notes.notification_deliver(row.pk) == "pending"
        row.refresh_from_db()
        assert row.attempts == attempt
        waits.append(row.next_attempt_at - now.value)
    assert waits == [timedelta(minutes=m) for m in (2, 4, 8, 16, 32, 60, 60)]
    now.value = row.next_attempt_at
    assert notes.notification_deliver(row.pk) == "failed"
    row.refresh_from_db()
    assert row.note.startswith(f"gave up after {outbox.MAX_ATTEMPTS} attempts: answered 500")
    # every attempt sent the same body, marked as the same delivery
    assert len(receiver.calls) == outbox.MAX_ATTEMPTS
    assert len({(c.body, c.headers["X-Marram-Delivery"]) for c in receiver.calls}) == 1
    page = signed_in(row.user).get("/settings/notifications/").content.decode()
    assert "failed: gave up after 8 attempts" in page and "Never called yet." in page


@pytest.mark.django_db
def test_a_receiver_that_refuses_the_connection_is_told_in_words(loopback_allowed):
    with socket.socket() as free:  # a port nothing listens on
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    row = first_turn_call(f"http://127.0.0.1:{port}/hook")
    assert row.status == "pending" and row.attempts == 1
    assert row.note == f"127.0.0.1 refused the connection on port {port}"


@pytest.mark.parametrize("status, after", [
    (404, "failed"), (410, "failed"), (400, "failed"), (401, "failed"),
    (429, "pending"), (408, "pending"), (503, "pending"), (200, "sent"), (202, "sent"),
])
@pytest.mark.django_db
def test_a_4xx_answer_is_final_but_for_too_slow_and_too_many(receiver, loopback_allowed,
                                                            status, after):
    receiver.status = status
    row = first_turn_call(receiver.url())
    assert row.status == after and len(receiver.calls) == 1
    if after == "failed":
        assert row.note.startswith(f"cannot be sent: answered {status}")


@pytest.mark.django_db
def test_a_redirect_is_not_followed(receiver, loopback_allowed):
    receiver.status, receiver.location = 302, receiver.url("/elsewhere")
    row = first_turn_call(receiver.url())
    assert [c.path for c in receiver.calls] == ["/hook"]
    assert row.status == "failed" and "redirects are not followed" in row.note
    assert "/elsewhere" in row.note


# ---------------------------------------------------------------- addresses refused


@pytest.mark.parametrize("host, why", [
    ("127.0.0.1", "127.0.0.1 is a loopback address"),
    ("localhost", "is a loopback address"),
    ("2130706433", "127.0.0.1 is a loopback address"),  # 127.0.0.1 as one number
    ("0x7f.1", "127.0.0.1 is a loopback address"),
    ("[::1]", "::1 is a loopback address"),
    ("[::ffff:127.0.0.1]", "127.0.0.1 is a loopback address"),
    ("10.1.2.3", "10.1.2.3 is a private address"),
    ("192.168.0.9", "192.168.0.9 is a private address"),
    ("169.254.169.254", "169.254.169.254 is a link-local address"),
    ("100.64.0.1", "100.64.0.1 is a non-public address"),
    ("0.0.0.0", "0.0.0.0 is an unspecified address"),
    ("224.0.0.1", "224.0.0.1 is a multicast address"),
])
@pytest.mark.django_db
def test_without_the_operators_allowance_an_inner_address_is_refused_and_never_connected_to(
        receiver, connections, host, why):
    # written straight to the table: the page refuses an address written as one
    row = first_turn_call(receiver.url(host=host))
    assert row.status == "failed" and row.attempts == 1
    assert row.note.startswith("cannot be sent: ") and why in row.note
    assert receiver.calls == [] and connections == []


@pytest.mark.django_db
def test_the_allowance_lets_calls_into_its_networks_only(receiver, connections, settings):
    settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.2/32"]
    assert first_turn_call(receiver.url()).status == "failed" and connections == []
    settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS = [LOOPBACK]
    assert webhook_http.url_problem(receiver.url()) == ""


def test_an_address_of_the_server_itself_is_refused_even_when_public(monkeypatch):
    ours = ipaddress.ip_address("8.8.4.4")
    monkeypatch.setattr(webhook_http, "own_addresses", lambda: frozenset({ours}))
    assert webhook_http.address_problem("8.8.4.4") == "8.8.4.4 is an address of this server"
    assert webhook_http.address_problem("8.8.8.8") == ""
    assert webhook_http.address_problem("2002:7f00:1::") == "127.0.0.1 is a loopback address"


def test_the_machines_own_addresses_are_found():
    assert ipaddress.ip_address("127.0.0.1") in webhook_http.own_addresses()


# ---------------------------------------------------------------- computers


@pytest.mark.django_db
def test_a_computers_seat_never_gets_a_webhook_call(receiver, loopback_allowed):
    ann = make_user("ann")
    game = bot_seat_game(ann)
    bot = seat_user(game, 1)
    Webhook.objects.create(user=ann, url=receiver.url("/ann"))
    Webhook.objects.create(user=bot, url=receiver.url("/bot"))  # as an admin might
    from bots import services as bots

    for _ in range(3):
        my_move(game, ann)
        game.refresh_from_db()
        bots.bot_move(game.pk, game.seq)
        deliver_due()
    services.game_resign(game=game, user=ann)
    deliver_due()
    assert receiver.to("/bot") == [] and receiver.to("/ann")
    assert not Notification.objects.filter(user=bot).exists()


# ---------------------------------------------------------------- the settings page


def signed_in(user, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf, raise_request_exception=False)
    client.force_login(user)
    return client


def post(client: Client, **form) -> object:
    return client.post("/settings/notifications/", form)


@pytest.mark.django_db
def test_a_player_adds_tests_turns_off_and_removes_a_webhook(receiver, loopback_allowed):
    ann = make_user("ann")
    client = signed_in(ann)
    added = post(client, action="webhook_add", url=receiver.url(), format="slack")
    assert added.status_code == 302 and added["Location"].endswith("#webhooks")
    hook = Webhook.objects.get(user=ann)
    assert (hook.url, hook.format, hook.enabled) == (receiver.url(), "slack", True)
    page = client.get("/settings/notifications/").content.decode()
    assert receiver.url() in page and "Never called yet." in page
    assert post(client, action="webhook_test", webhook=str(hook.pk)).status_code == 302
    # one test a minute
    assert post(client, action="webhook_test", webhook=str(hook.pk)).status_code == 400
    deliver_due()
    [call] = receiver.calls
    assert call.json()["text"].startswith("ann: this webhook works;")
    assert call.headers["X-Marram-Event"] == "test"
    page = client.get("/settings/notifications/").content.decode()
    assert "Last called" in page and "Webhook: test" in page
    assert "Recent mail" not in page  # a call is not a mail
    assert post(client, action="webhook_off", webhook=str(hook.pk)).status_code == 302
    assert not Webhook.objects.get(pk=hook.pk).enabled
    assert "Turn on" in client.get("/settings/notifications/").content.decode()
    assert post(client, action="webhook_remove", webhook=str(hook.pk)).status_code == 302
    assert not Webhook.objects.exists() and not Notification.objects.exists()


@pytest.mark.parametrize("url, why", [
    ("http://127.0.0.1/hook", "127.0.0.1 is a loopback address"),
    ("http://[::1]:8080/", "::1 is a loopback address"),
    ("http://10.0.0.1/", "10.0.0.1 is a private address"),
    ("http://2130706433/", "127.0.0.1 is a loopback address"),
    ("http://169.254.169.254/latest/meta-data/", "is a link-local address"),
    ("ftp://example.org/hook", "must start with https:// or http://"),
    ("javascript:alert(1)", "must start with https:// or http://"),
    ("https://user:secret@example.org/", "may not hold a user name or password"),
    ("https://example.org:99999/", "not a web address"),
    ("https://exa mple.org/", "not printable ASCII"),
    ("https://bücher.example/", "not printable ASCII"),
    ("https://example.org/\x00", "holds a NUL character"),
    ("https://ex%41mple.org/", "is not a host name"),
    ("https://" + "a" * 500 + ".org/", "500 characters"),
    ("https:///hook", "no host name"),
    ("no address at all", "not printable ASCII"),
])
@pytest.mark.django_db
def test_an_address_that_cannot_be_a_webhooks_is_refused_with_the_reason(url, why):
    ann = make_user("ann")
    answer = post(signed_in(ann), action="webhook_add", url=url, format="json")
    assert answer.status_code == 400
    assert why in answer.content.decode().replace("&#x27;", "'")
    assert not Webhook.objects.exists()


@pytest.mark.parametrize("form", [
    {"action": "webhook_add", "url": "https://example.org/", "format": "xml"},
    {"action": "webhook_add", "format": "json"},
    {"action": "webhook_add", "url": "https://example.org/", "format": "json", "junk": "1"},
    {"action": "webhook_explode", "webhook": "1"},
])
@pytest.mark.django_db
def test_a_wrong_form_is_a_400_that_changes_nothing(form):
    answer = post(signed_in(make_user("ann")), **form)
    assert answer.status_code in (400, 415) and not Webhook.objects.exists()


@pytest.mark.django_db
def test_a_player_has_at_most_three_webhooks_each_to_its_own_address():
    ann = make_user("ann")
    client = signed_in(ann)
    for i in range(3):
        assert post(client, action="webhook_add", url=f"https://example.org/{i}",
                    format="json").status_code == 302
    assert "Add a webhook" not in client.get("/settings/notifications/").content.decode()
    answer = post(client, action="webhook_add", url="https://example.org/3", format="json")
    assert answer.status_code == 400 and "the most a player may have" in answer.content.decode()
    Webhook.objects.filter(url__endswith="/2").delete()
    answer = post(client, action="webhook_add", url="https://example.org/1", format="json")
    assert answer.status_code == 400 and "already have a webhook to that" in \
        answer.content.decode()
    assert Webhook.objects.count() == 2


@pytest.mark.parametrize("action", ["webhook_remove", "webhook_test", "webhook_off",
                                    "webhook_on"])
@pytest.mark.parametrize("number", ["theirs", "999999", "abc", "", "9" * 40, "-1", "1.5"])
@pytest.mark.django_db
def test_another_players_webhook_or_none_at_all_is_a_404(action, number):
    ann, bob = make_user("ann"), make_user("bob")
    theirs = Webhook.objects.create(user=bob, url="https://example.org/bob")
    answer = post(signed_in(ann), action=action,
                  webhook=str(theirs.pk) if number == "theirs" else number)
    assert answer.status_code == 404
    assert Webhook.objects.get(pk=theirs.pk).enabled and not Notification.objects.exists()


@pytest.mark.django_db
def test_the_webhook_forms_need_the_csrf_token_and_a_signed_in_player():
    ann = make_user("ann")
    hook = Webhook.objects.create(user=ann, url="https://example.org/ann")
    for form in ({"action": "webhook_add", "url": "https://example.org/x", "format": "json"},
                 {"action": "webhook_remove", "webhook": str(hook.pk)}):
        assert post(signed_in(ann, csrf=True), **form).status_code == 403
        assert post(Client(), **form).status_code == 302  # to sign in
    assert list(Webhook.objects.values_list("url", flat=True)) == ["https://example.org/ann"]


def test_the_service_refuses_what_the_form_lets_through():
    assert webhook_http.url_problem("https://" + "a" * 500 + ".org/") == \
        "the address is longer than 500 characters"
    assert "not printable ASCII" in webhook_http.url_problem("https://example.org/\x00")


def test_the_allowance_is_checked_at_start():
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "MARRAM_WEBHOOK_ALLOWED_NETWORKS": "10.20.0.0/16, 10.300.0.0/16"}
    done = subprocess.run([sys.executable, "-c", "import marram_site.settings"], cwd=root,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert ("MARRAM_WEBHOOK_ALLOWED_NETWORKS: '10.300.0.0/16' is not an address or a network"
            in done.stderr)


@pytest.mark.django_db
def test_a_receiver_too_slow_to_answer_is_cut_off_and_tried_again(receiver, loopback_allowed,
                                                                  monkeypatch):
    monkeypatch.setattr(webhook_http, "DEADLINE", 0.5)
    receiver.delay = 2.0
    row = first_turn_call(receiver.url())
    assert row.status == "pending" and row.attempts == 1
    assert row.note.startswith("no proper answer within 0.5 s")
