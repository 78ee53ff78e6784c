"""Web Push in Chromium, end to end: the settings page's "Turn on push on this
device" (the permission granted through the browser context, asked for only when
the button is pressed), the devices listed and renamed; a turn pushed by the
server to a push service stand-in on 127.0.0.1 (tests/service/push_kit.py), which
checks its VAPID token and decrypts it with the subscription's private key; that
message delivered to the service worker through the DevTools protocol
(``ServiceWorker.deliverPushMessage``, as the browser's push service would), shown
on the desktop as a notification, dropped when delivered again, and its click
opening the game's page (focusing it once it is open); a game's page open on the
device holding back the push to it. The desktop is a notification server on a
D-Bus of the test's own (desktop_kit), which Chromium on Linux shows notifications
through and which clicks one as a person does.

The machines that run the tests reach no browser vendor's push service, so
``PushManager.subscribe`` cannot complete there: the page's call is let run for
SUBSCRIBE_WAIT seconds and, when it has not completed, the test stands in for it
with a subscription at the stand-in whose keys the test holds (``STAND_IN``: the
page sees a PushSubscription-like object; everything after it is the site's own
code). The test says which happened (``sessionStorage.pushSubscribed``)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from notifications import push
from notifications.models import PushPageOpen, PushSubscription
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, Visitor
from tests.browser.desktop_kit import Desktop
from tests.service.conftest import make_user, start_game_of
from tests.service.mail_kit import play_turn
from tests.service.push_kit import PushService, push_service
from tests.service.test_push import deliver_due

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]

SEED = "4b" * 32  # ann sits first, bob second
SUBSCRIBE_WAIT = 5000
STAND_IN = """
(() => {
  const standIn = %s;
  const asks = Notification.requestPermission.bind(Notification);
  sessionStorage.pushAsked = sessionStorage.pushAsked || "0";
  Notification.requestPermission = (...args) => {
    sessionStorage.pushAsked = String(Number(sessionStorage.pushAsked) + 1);
    return asks(...args);
  };
  const subscribe = PushManager.prototype.subscribe;
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    sessionStorage.pushKey = btoa(String.fromCharCode(...key))
      .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
    const late = new Promise((resolve) => setTimeout(resolve, %d, null));
    return Promise.race([subscribe.call(this, options), late])
      .catch(() => null)
      .then((real) => {
        sessionStorage.pushSubscribed = real ? "by the browser" : "stood in for";
        return real || { endpoint: standIn.endpoint, toJSON: () => standIn,
          unsubscribe: async () => true };
      });
  };
})();
"""


@pytest.fixture
def stand_in(settings) -> Iterator[PushService]:
    """Push on (the site's VAPID key), the stand-in allowed in as a push service of
    the operator's own network would be."""
    private, public = push.key_new()
    settings.MARRAM_VAPID_PRIVATE_KEY = private
    settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    with push_service(public) as found:
        yield found


@pytest.fixture
def desktop(tmp_path) -> Iterator[Desktop]:
    found = Desktop(tmp_path)
    yield found
    found.stop()


@pytest.fixture
def phone(chromium, live_server, tmp_path, desktop) -> Iterator[Visitor]:
    """ann's browser, in a profile of its own (Chromium gives an incognito context no
    push), showing notifications on ``desktop``, allowed to show this site's."""
    context = chromium.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
        viewport=DESKTOP, device_scale_factor=1,
        env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": desktop.address})
    context.grant_permissions(["notifications"], origin=live_server.url)
    visitor = Visitor(chromium, live_server.url, DESKTOP, context=context)
    yield visitor
    visitor.close()


def subscribed_device(visitor: Visitor, service: PushService, live_server: Any) -> Any:
    """ann turns push on from the settings page: her device as the site keeps it."""
    page = visitor.page
    page.add_init_script(STAND_IN % (json.dumps(service.subscribe("ann-phone")), SUBSCRIBE_WAIT))
    page.goto(f"{live_server.url}/settings/notifications/#push")
    page.wait_for_function("() => navigator.serviceWorker.controller")
    assert page.evaluate("sessionStorage.pushAsked") == "0"  # never on the page's load
    assert page.locator("#push-no-devices").is_visible()
    with page.expect_navigation(url=re.compile(r".*/settings/notifications/\?push=\d+#push$")):
        page.get_by_role("button", name="Turn on push on this device").click()
    assert page.evaluate("sessionStorage.pushAsked") == "1"
    assert page.evaluate("sessionStorage.pushKey") == push.public_key()
    assert page.evaluate("sessionStorage.pushSubscribed") in ("stood in for", "by the browser")
    return PushSubscription.objects.get(user__username="ann")


def eventually(page: Any, check: Any, seconds: float = 10.0) -> bool:
    """Whether ``check()`` comes true within ``seconds`` (the page's requests go on
    meanwhile)."""
    for _ in range(int(seconds * 10)):
        if check():
            return True
        page.wait_for_timeout(100)
    return bool(check())


def registration_id(visitor: Visitor) -> str:
    cdp = visitor.context.new_cdp_session(visitor.page)
    found: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    visitor.page.wait_for_timeout(300)
    (registration,) = [r for r in found if not r.get("isDeleted")]
    visitor.cdp = cdp  # type: ignore[attr-defined]
    return str(registration["registrationId"])


def deliver(visitor: Visitor, registration: str, origin: str, message: dict) -> None:
    """The message delivered to the service worker, as the browser's push service
    delivers it once decrypted."""
    visitor.cdp.send("ServiceWorker.deliverPushMessage", {  # type: ignore[attr-defined]
        "origin": origin, "registrationId": registration, "data": json.dumps(message)})


def test_push_turned_on_from_the_settings_page_shows_a_turn_whose_click_opens_the_game(
        stand_in, desktop, phone, live_server, artifacts_dir):
    ann, bob = make_user("ann"), make_user("bob")
    phone.sign_in("ann")
    page = phone.page
    device = subscribed_device(phone, stand_in, live_server)
    # kept with the keys the browser gave, named after it, shown as this device
    assert device.endpoint == f"{stand_in.origin}/push/ann-phone"
    assert (device.p256dh, device.name) == (stand_in.subscribers["ann-phone"].p256dh(),
                                            "Chrome on Linux")
    item = page.locator(f'.push-device[data-device="{device.pk}"]')
    assert item.locator(".push-this").is_visible()
    assert page.locator("#push-status").inner_text() == "Push is on on this device."
    assert page.evaluate("localStorage.getItem('marram-push-device')") == str(device.pk)
    item.get_by_label("Name of the device").fill("Ann's phone")
    item.get_by_role("button", name="Rename").click()
    page.wait_for_selector("text=The device is now called Ann's phone.")
    assert device.endpoint not in page.content()  # the page names devices, no endpoint
    page.screenshot(path=str(artifacts_dir / "push_settings.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 780})  # on a phone: no sideways scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator("#push").screenshot(path=str(artifacts_dir / "push_settings_360.png"))
    page.set_viewport_size(DESKTOP)

    # the game begins with ann's turn: the server pushes it to the stand-in
    game = start_game_of("marram", [ann, bob], seed=SEED)
    deliver_due()
    [sent] = stand_in.wait(1)
    assert sent.problems == [] and sent.message["title"] == f"Your turn: Marram game {game.pk}"
    # ... and the browser's push service hands it to the worker: shown on the desktop
    registration = registration_id(phone)
    deliver(phone, registration, live_server.url, sent.message)
    [shown] = desktop.wait_for(1)
    assert shown.title == f"Your turn: Marram game {game.pk}"
    assert shown.body.endswith(sent.message["body"])
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.getNotifications())"
                         ".then((ns) => ns.map((n) => n.tag))") == [f"game-{game.pk}"]
    # delivered again (push services deliver at least once): dropped
    deliver(phone, registration, live_server.url, sent.message)
    page.wait_for_timeout(1500)
    assert len(desktop.shown) == 1

    # ann clicks it on her desktop: the game's page opens
    with phone.context.expect_page() as opened:
        desktop.click(shown)
    game_page = opened.value
    game_page.wait_for_selector("#game[data-ready=true]")
    assert game_page.url == f"{live_server.url}/games/{game.pk}/"
    # another push of that game, clicked: the open page is focused, none opened
    deliver(phone, registration, live_server.url, {**sent.message, "id": "another"})
    second = desktop.wait_for(2)[-1]
    pages = len(phone.context.pages)
    desktop.click(second)
    page.wait_for_timeout(1500)
    assert len(phone.context.pages) == pages


def game_page_open_on_the_phone(stand_in: PushService, phone: Visitor,
                                live_server: Any) -> tuple[Any, Any, Any]:
    """ann, push turned on on her phone, has the page of her game with bob open
    there (bob's turn first), and the site knows it: the game, the page, and the
    rows that say so."""
    ann, bob = make_user("ann"), make_user("bob")
    phone.sign_in("ann")
    device = subscribed_device(phone, stand_in, live_server)
    game = start_game_of("marram", [bob, ann], seed=SEED)
    page = phone.page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#game[data-ready=true]")
    opened = PushPageOpen.objects.filter(device=device, game=game)
    assert eventually(page, opened.exists)
    return game, page, opened


def test_a_leaving_message_lost_on_its_way_is_said_again_by_the_next_page(
        stand_in, desktop, phone, live_server):
    game, page, opened = game_page_open_on_the_phone(stand_in, phone, live_server)
    # whatever the page sends from now on is lost, its leaving message too
    page.evaluate("() => { window.fetch = () => new Promise(() => {}); }")
    page.goto(f"{live_server.url}/settings/notifications/")
    assert eventually(page, lambda: not opened.exists())
    play_turn(game)  # bob plays: ann's turn, pushed to the phone
    deliver_due()
    [sent] = stand_in.wait(1)
    assert sent.message["game"] == game.pk


def test_a_game_page_open_on_the_device_holds_its_push_back_until_it_is_left(
        stand_in, desktop, phone, live_server):
    game, page, opened = game_page_open_on_the_phone(stand_in, phone, live_server)
    play_turn(game)  # bob plays: ann's turn, her page open in front of her
    deliver_due()
    assert stand_in.pushes == []
    # she leaves the page: it says so at once, and her next turn is pushed
    page.goto(f"{live_server.url}/games/")
    assert eventually(page, lambda: not opened.exists())
    play_turn(game)
    play_turn(game)
    deliver_due()
    [sent] = stand_in.wait(1)
    assert sent.problems == [] and sent.message["game"] == game.pk
