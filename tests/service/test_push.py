"""Web Push against a push service stand-in on 127.0.0.1 (push_kit), allowed through
the operator's setting as a push service of the operator's own network would be:
each request it receives is checked as a vendor's push service checks it (the
VAPID token's signature by the site's key, its audience and expiry) and its
message decrypted with the subscription's private key, which the test holds.

What is pushed (a turn with the opponent and the time left, a chat line, an
invitation, a rematch offer, the game over, the time running down), to each of
the player's devices, under their switches; nothing for a game whose page is
open on that device; a 404 or 410 removes the device, a 5xx is retried with the
mail's back-off and the same message and delivery id; nothing hidden; nothing
at all where the site has no key. Pushes are delivered by the outbox's own
delivery, in this process; test_push_queue.py delivers them with real workers."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client

from chat.models import Mute
from chat.services import chat_post
from games import clocks
from games import services as game_services
from games.models import Clock, Invitation
from notifications import push
from notifications import services as notes
from notifications.emails import duration_words
from notifications.models import (
    MailSettings,
    Notification,
    Policy,
    PushPageOpen,
    PushSubscription,
)
from ratings.services import game_invite_users, rematch_offer
from tests.service.conftest import dealt_from, json_strings, make_user, signed_in, start_game
from tests.service.mail_kit import freeze_time, play_turn
from tests.service.push_kit import PushService, push_service

pytestmark = pytest.mark.django_db

SEED = "4b" * 32  # ann sits first, bob second
PUBLIC_KEYS = {"id", "kind", "title", "body", "url", "tag", "game"}


@pytest.fixture
def key(settings) -> str:
    """The site's VAPID key (push on); its public key."""
    private, public = push.key_new()
    settings.MARRAM_VAPID_PRIVATE_KEY = private
    settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    return public


@pytest.fixture
def service(key) -> PushService:
    with push_service(key) as found:
        yield found


def timed_game(players: list, days: int = 3):
    """A running game of Marram with ``days`` per move, the players in the order given."""
    with dealt_from(SEED):
        game = game_services.game_create(user=players[0], game="marram", seats=len(players),
                                         days_per_move=days)
        for user in players[1:]:
            game_services.game_join(game=game, user=user)
    game.refresh_from_db()
    return game


def device(service: PushService, user, name: str) -> PushSubscription:
    return push.device_add(user=user, subscription=service.subscribe(name), name=name)


def deliver_due() -> list[str]:
    """Deliver each pending row of the outbox once, the rows that delivery writes
    included (a push to a player's devices becomes one to each); the statuses."""
    done: dict[int, str] = {}
    while due := [pk for pk in Notification.objects.filter(status="pending").order_by("pk")
                  .values_list("pk", flat=True) if pk not in done]:
        done.update((pk, notes.notification_deliver(pk)) for pk in due)
    return list(done.values())


def pushes_to(dev: PushSubscription) -> list[Notification]:
    return list(Notification.objects.filter(push_device=dev).order_by("pk"))


def ok(service: PushService) -> list[dict]:
    """The messages the stand-in took, each found well signed and decrypted."""
    assert [p.problems for p in service.pushes] == [[] for _ in service.pushes]
    return [p.message for p in service.pushes]


# ---------------------------------------------------------------- the push


def test_a_turn_is_pushed_to_each_device_signed_by_the_site_and_encrypted_for_it(service):
    ann, bob = make_user("ann"), make_user("bob")
    phone, laptop = device(service, ann, "phone"), device(service, ann, "laptop")
    game = timed_game([ann, bob])  # ann's turn first
    deliver_due()
    clock = Clock.objects.get(game=game, seat=0)
    left = duration_words(clocks.clock_remaining(clock, clock.started_at))
    assert sorted(p.path for p in service.pushes) == ["/push/laptop", "/push/phone"]
    for dev, sent in ((phone, service.to("phone")[0]), (laptop, service.to("laptop")[0])):
        [row] = pushes_to(dev)
        assert row.status == "sent" and row.kind == "push_turn"
        assert sent.problems == []
        assert sent.message == {
            "id": row.message_id.strip("<>"), "kind": "push_turn",
            "title": f"Your turn: Marram game {game.pk}",
            "body": f"Your move against bob; {left} left.",
            "url": f"/games/{game.pk}/", "tag": f"game-{game.pk}", "game": game.pk}
        assert sent.claims["aud"] == service.origin
        assert sent.claims["sub"] == "mailto:marram@localhost"
        assert sent.headers["Urgency"] == "high" and sent.headers["TTL"] == str(3 * 86400)
        dev.refresh_from_db()
        assert dev.last_push_at == row.sent_at
    # bob's turn now: his game has no device, ann's get nothing more
    play_turn(game)
    deliver_due()
    assert len(service.pushes) == 2
    assert not Notification.objects.filter(user=bob, kind__startswith="push").exists()


def test_a_410_or_404_removes_the_device_and_a_5xx_is_retried_with_the_same_message(
        service, monkeypatch):
    now = freeze_time(monkeypatch)
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    gone, lost, busy = (device(service, ann, "gone"), device(service, bob, "lost"),
                        device(service, cyd, "busy"))
    service.status.update(gone=410, lost=404, busy=503)
    for first, second in ((ann, bob), (bob, ann), (cyd, ann)):  # the first one's turn
        start_game([first, second], seed=SEED)
    deliver_due()
    for dev, status in ((gone, 410), (lost, 404)):
        assert not PushSubscription.objects.filter(pk=dev.pk).exists()
        [row] = Notification.objects.filter(user=dev.user, kind="push_turn",
                                            push_device__isnull=True, status="failed")
        assert row.note == f"the device's subscription is gone ({status}): device removed"
    [row] = pushes_to(busy)
    assert row.status == "pending" and row.attempts == 1
    assert row.note.startswith("answered 503 Service Unavailable")
    waits = [row.next_attempt_at - now.value]
    service.status.pop("busy")
    now.value = row.next_attempt_at
    assert notes.notification_deliver(row.pk) == "sent"
    assert waits == [timedelta(minutes=2)]
    first, second = service.to("busy")
    assert first.message == second.message  # the same words, the same delivery id
    assert first.body != second.body  # encrypted afresh (RFC 8291: a new key each time)
    # a removed device is pushed no more
    game = start_game([ann, cyd], seed=SEED)
    deliver_due()
    assert not Notification.objects.filter(game=game, user=ann, push_device__isnull=False)


def test_no_push_for_a_game_whose_page_is_open_on_that_device(service, monkeypatch):
    now = freeze_time(monkeypatch)
    ann, bob = make_user("ann"), make_user("bob")
    device(service, bob, "phone")
    bobs_laptop = device(service, bob, "laptop")
    game = start_game([ann, bob], seed=SEED)
    deliver_due()
    # bob has the game open on his laptop; ann plays: only his phone is told
    assert push.page_open(user=bob, device_id=bobs_laptop.pk, game_id=game.pk, open=True)
    play_turn(game)
    deliver_due()
    assert [p.path for p in service.pushes] == ["/push/phone"]
    [held] = pushes_to(bobs_laptop)
    assert (held.status, held.note) == ("skipped", "the game's page is open on that device")
    # his laptop's page goes out of view; he plays, then ann: his turn again
    now.value += timedelta(minutes=1)
    assert push.page_open(user=bob, device_id=bobs_laptop.pk, game_id=game.pk, open=False)
    play_turn(game)
    play_turn(game)
    deliver_due()
    assert sorted(p.path for p in service.pushes) == ["/push/laptop", "/push/phone",
                                                      "/push/phone"]
    # a page that stopped saying so holds nothing back after PAGE_OPEN_FOR
    assert push.page_open(user=bob, device_id=bobs_laptop.pk, game_id=game.pk, open=True)
    now.value += push.PAGE_OPEN_FOR + timedelta(seconds=1)
    play_turn(game)
    play_turn(game)
    deliver_due()
    assert len(service.to("laptop")) == 2
    # a page says so for its player's own devices and games only
    assert not push.page_open(user=ann, device_id=bobs_laptop.pk, game_id=game.pk, open=True)
    other = start_game([ann, make_user("cyd")])
    assert not push.page_open(user=bob, device_id=bobs_laptop.pk, game_id=other.pk, open=True)


def test_each_kind_is_switched_by_the_player_and_the_mail_policy_is_the_mails(service):
    ann, bob = make_user("ann"), make_user("bob")
    MailSettings.objects.create(user=ann, policy=Policy.OFF)  # no mail; push all the same
    phone = device(service, ann, "phone")
    push.kinds_set(user=ann, on=[k for k in push.LABELS if k != "push_turn"])
    start_game([ann, bob], seed=SEED)
    deliver_due()
    assert service.pushes == []
    assert not Notification.objects.filter(kind="push_turn").exists()  # nothing to keep
    push.kinds_set(user=ann, on=list(push.LABELS))
    game = start_game([ann, bob], seed=SEED)
    deliver_due()
    assert [m["title"] for m in ok(service)] == [f"Your turn: Marram game {game.pk}"]
    assert Notification.objects.get(user=ann, game=game, kind="your_turn").status == "skipped"
    # switched off after the push was written: the device's row is not sent
    play_turn(game)
    play_turn(game)
    notes.notification_deliver(Notification.objects.get(
        game=game, user=ann, kind="push_turn", push_device__isnull=True,
        status="pending").pk)
    push.kinds_set(user=ann, on=[])
    deliver_due()
    [_, held] = pushes_to(phone)
    assert held.note == "the player has switched this kind of push off"


def test_a_turn_over_before_its_push_is_sent_is_not_pushed(service):
    ann, bob = make_user("ann"), make_user("bob")
    phone = device(service, ann, "phone")
    game = start_game([ann, bob], seed=SEED)
    [row] = Notification.objects.filter(user=ann, kind="push_turn")
    notes.notification_deliver(row.pk)  # one row to ann's phone, not sent yet
    play_turn(game)
    deliver_due()
    [held] = pushes_to(phone)
    assert (held.status, held.note) == ("skipped", "that turn is over")
    assert service.pushes == []


def test_chat_invitation_rematch_game_over_and_time_running_down_say_what_mail_says(
        service, monkeypatch):
    ann, bob = make_user("ann"), make_user("bob")
    device(service, bob, "phone")
    MailSettings.objects.create(user=bob, policy=Policy.DIGEST)  # no chat mail; a push
    game = timed_game([ann, bob])
    chat_post(game_id=game.pk, user=ann, text="Good luck!\nAnd have fun.")
    Mute.objects.create(game=game, user=bob)
    chat_post(game_id=game.pk, user=ann, text="muted")
    open_game = game_services.game_create(user=ann, game="marram", seats=2)
    game_invite_users(game_id=open_game.pk, user=ann, usernames=["bob"],
                      url_for=lambda token: f"/invitations/{token}/")
    # the time running down: the day before bob's clock runs out, once ann has played
    play_turn(game)
    deliver_due()
    clock = Clock.objects.get(game=game, seat=1)
    now = freeze_time(monkeypatch)
    now.value = clock.started_at + clock.bank - timedelta(hours=5)
    notes.clocks_check(now=now.value)
    deliver_due()  # (once the game is over, the time running down is no news: not pushed)
    game_services.game_resign(game=game, user=ann)
    rematch_offer(game_id=game.pk, user=ann)
    deliver_due()
    said = {m["kind"]: m for m in ok(service)}
    assert len(said) == len(service.pushes)  # one of each kind, the muted line not pushed
    title = f"Marram game {game.pk}"
    token = Invitation.objects.get(invitee=bob).token
    expected = {
        "push_chat": {"title": f"ann in {title}", "body": "Good luck!\nAnd have fun.",
                      "url": f"/games/{game.pk}/", "tag": f"game-{game.pk}"},
        "push_invitation": {"title": "An invitation",
                            "body": "ann invites you to a game of Marram",
                            "url": f"/invitations/{token}/",
                            "tag": f"invitation-{open_game.pk}"},
        "push_turn": {"title": f"Your turn: {title}"},
        "push_clock": {"title": f"{title}: 5 hours left",
                       "body": "Your move against ann: your clock runs out after that."},
        "push_game_over": {"title": f"{title} is over",
                           "body": "bob won. The final standings are on the game's page."},
        "push_rematch": {"title": "A rematch",
                         "body": f"ann offers a rematch of Marram game {game.pk}",
                         "url": f"/games/{game.pk}/"},
    }
    assert {kind: {k: said.get(kind, {}).get(k) for k in words}
            for kind, words in expected.items()} == expected


def test_a_push_carries_nothing_hidden(service):
    ann, bob = make_user("ann"), make_user("bob")
    device(service, ann, "phone")
    game = start_game([ann, bob], variant="animals", seed=SEED)
    deliver_due()
    [message] = ok(service)
    assert set(message) == PUBLIC_KEYS
    strings = json_strings(message)
    assert all(len(s) < 100 for s in strings)
    text = json.dumps(message)
    assert game.seed not in text and game.commitment not in text
    for hidden in ("seed", "deck", "hand", "bag", "state", "commitment"):
        assert hidden not in strings and hidden not in message, hidden


def test_without_a_key_the_site_writes_no_push(settings):
    settings.MARRAM_VAPID_PRIVATE_KEY = settings.MARRAM_VAPID_KEY_FILE = ""
    ann, bob = make_user("ann"), make_user("bob")
    PushSubscription.objects.create(user=ann, name="phone", endpoint="https://push.example/1",
                                    p256dh="x", auth="y")
    start_game([ann, bob], seed=SEED)
    assert not Notification.objects.filter(kind__startswith="push").exists()
    assert Notification.objects.filter(kind="your_turn").exists()
    assert push.public_key() == ""


def test_a_key_file_is_made_on_first_use_and_kept(settings, tmp_path):
    settings.MARRAM_VAPID_PRIVATE_KEY = ""
    settings.MARRAM_VAPID_KEY_FILE = str(tmp_path / "vapid.pem")
    first = push.public_key()
    assert (tmp_path / "vapid.pem").stat().st_mode & 0o777 == 0o600
    push._vapid_from_file.cache_clear()
    assert push.public_key() == first and len(push._b64(b"x" * 65)) == len(first)


# ---------------------------------------------------------------- the devices


@pytest.mark.parametrize("endpoint, keys, why", [
    ("http://10.1.2.3/push/1", None, "10.1.2.3 is a private address"),
    ("http://8.8.8.8/push/1", None, "a push service's address starts with https://"),
    ("https://user:pw@push.example/1", None, "the address may not hold a user name"),
    ("ftp://push.example/1", None, "the address must start with https://"),
    ("https://push.example/1", {"p256dh": "AAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"},
     "p256dh is not an uncompressed P-256 point"),
    ("https://push.example/1", {"auth": "AAAA"}, "a subscription has an endpoint and keys"),
])
def test_a_subscription_that_cannot_be_one_is_refused(key, endpoint, keys, why, settings):
    settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS = []
    ann = make_user("ann")
    subscription = {"endpoint": endpoint, "keys": keys or {"p256dh": "B" + "A" * 86,
                                                           "auth": "A" * 22}}
    with pytest.raises(Exception) as refused:
        push.device_add(user=ann, subscription=subscription, name="x")
    assert why in str(refused.value)
    assert not PushSubscription.objects.exists()


def test_the_same_browser_subscribed_again_is_the_same_device(service):
    ann, bob = make_user("ann"), make_user("bob")
    subscription = service.subscribe("phone")
    first = push.device_add(user=ann, subscription=subscription, name="  Ann's\nphone ")
    assert first.name == "Ann's phone"
    again = push.device_add(user=bob, subscription=subscription, name="bob's")
    assert again.pk == first.pk and again.user == bob and again.name == "Ann's phone"
    assert PushSubscription.objects.count() == 1


# ---------------------------------------------------------------- the settings page


def post_json(client: Client, url: str, data: object):
    return client.post(url, json.dumps(data), content_type="application/json")


def test_the_settings_page_subscribes_lists_renames_switches_and_removes_devices(service, key):
    ann, bob = make_user("ann"), make_user("bob")
    pages = signed_in(ann)
    page = pages.get("/settings/notifications/").content.decode()
    assert "Turn on push on this device" in page and f'data-key="{key}"' in page
    assert "No device takes push yet." in page
    subscription = service.subscribe("phone")
    added = post_json(pages, "/settings/notifications/push/devices/",
                      {"subscription": subscription, "name": "Chrome on Android"})
    assert added.status_code == 201
    number = added.json()["id"]
    assert added.json() == {"id": number, "name": "Chrome on Android"}
    refused = post_json(pages, "/settings/notifications/push/devices/",
                        {"subscription": {**subscription, "endpoint": "http://10.0.0.1/p"}})
    assert refused.status_code == 400 and refused.json()["code"] == "bad_subscription"
    page = pages.get("/settings/notifications/").content.decode()
    assert 'value="Chrome on Android"' in page and subscription["endpoint"] not in page
    device_url = f"/settings/notifications/push/devices/{number}/"
    renamed = pages.post(device_url, {"action": "rename", "name": "Phone"})
    assert renamed.status_code == 302 and renamed.url == "/settings/notifications/#push"
    assert PushSubscription.objects.get().name == "Phone"
    # bob can neither rename nor remove it, nor mark a game open on it
    for action in ("rename", "remove"):
        assert signed_in(bob).post(device_url, {"action": action, "name": "x"}).status_code == 404
    game = start_game([ann, bob])
    assert post_json(signed_in(bob), "/push/open/",
                     {"device": number, "game": game.pk, "open": True}).status_code == 204
    assert not PushPageOpen.objects.exists()
    assert post_json(pages, "/push/open/",
                     {"device": number, "game": game.pk, "open": True}).status_code == 204
    assert PushPageOpen.objects.get().device_id == number
    # the kinds: those checked on, the others off
    pages.post("/settings/notifications/push/kinds/", {"kinds": ["push_turn", "push_chat"]})
    assert push.kinds_off(ann.pk) == set(push.LABELS) - {"push_turn", "push_chat"}
    page = pages.get("/settings/notifications/").content.decode()
    assert 'value="push_turn" checked' in page and 'value="push_rematch">' in page
    removed = pages.post(device_url, {"action": "remove"})
    assert removed.status_code == 302 and not PushSubscription.objects.exists()


def test_the_push_forms_need_a_signed_in_player_and_the_csrf_token(service):
    ann = make_user("ann")
    device = push.device_add(user=ann, subscription=service.subscribe("p"), name="p")
    for url in ("/settings/notifications/push/devices/", "/push/open/",
                f"/settings/notifications/push/devices/{device.pk}/",
                "/settings/notifications/push/kinds/"):
        assert Client().post(url, {}).status_code == 302, url  # to the sign-in page
        strict = Client(enforce_csrf_checks=True)
        strict.force_login(ann)
        assert strict.post(url, {"action": "remove"}).status_code == 403, url
    assert PushSubscription.objects.exists()


def test_without_a_key_the_settings_page_says_so_and_takes_no_device(settings):
    settings.MARRAM_VAPID_PRIVATE_KEY = settings.MARRAM_VAPID_KEY_FILE = ""
    ann = make_user("ann")
    page = signed_in(ann).get("/settings/notifications/").content.decode()
    assert "This site sends no push notifications" in page and "push-on" not in page
    refused = post_json(signed_in(ann), "/settings/notifications/push/devices/",
                        {"subscription": {"endpoint": "https://push.example/1"}})
    assert refused.status_code == 409 and refused.json()["code"] == "push_off"


def test_the_admin_shows_each_players_devices_with_counts_and_never_an_endpoint(service,
                                                                                admin_client):
    ann, bob = make_user("ann"), make_user("bob")
    phone = device(service, ann, "phone")
    service.status["phone"] = 503
    start_game([ann, bob], seed=SEED)
    deliver_due()
    listed = admin_client.get("/admin/notifications/pushsubscription/").content.decode()
    assert "phone" in listed and 'class="field-pending">1<' in listed
    changed = admin_client.get(
        f"/admin/notifications/pushsubscription/{phone.pk}/change/").content.decode()
    for page in (listed, changed):
        assert phone.endpoint not in page and phone.p256dh not in page and phone.auth not in page
    outbox = admin_client.get("/admin/notifications/notification/?kind=push_turn").content
    assert phone.endpoint.encode() not in outbox
