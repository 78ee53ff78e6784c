"""A webhook call that fails is told on the settings page in words: what failed
(the host name not found, the connection refused, no answer in time) and when
it will be tried again, never a Python error."""

from __future__ import annotations

import re
import socket

import pytest

from notifications import webhook_http
from tests.service.conftest import make_user
from tests.service.mail_kit import eager_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("cold_caches")]


def test_a_failed_test_call_says_what_failed_and_when_it_is_tried_again(
        visitors, live_server, settings, monkeypatch):
    def not_found(host, *args, **kwargs):  # what the resolver says of a name nobody has
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(webhook_http.socket, "getaddrinfo", not_found)
    make_user("ann")
    visitor = visitors()
    visitor.sign_in("ann")
    page = visitor.page
    page.goto(f"{live_server.url}/settings/notifications/")
    page.get_by_label("Address").fill("https://hooks.nohost.example/marram")
    page.get_by_role("button", name="Add a webhook").click()
    with eager_tasks(settings):  # the call is made as the test is queued
        page.get_by_role("button", name="Send a test").click()
        page.wait_for_url(re.compile(r"/settings/notifications/"))
    said = page.locator("#webhooks .webhook li").first.inner_text()
    assert re.search(r"failed: the host name hooks\.nohost\.example was not found: check the "
                     r"address\. It will be tried again at \d\d:\d\d UTC\.", said), said
    assert "gaierror" not in said and "Errno" not in said
