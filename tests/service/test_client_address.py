"""Whose address a request comes from: X-Forwarded-For is believed only from the
proxies in MARRAM_TRUSTED_PROXIES, so a client cannot dodge the per-address
limits by writing the header itself."""

from __future__ import annotations

import ipaddress
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from tests.service.conftest import body, make_user
from web.addresses import address_group, client_address

ROOT = Path(__file__).resolve().parents[2]


def address(remote: str, forwarded: str | None = None) -> str:
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **headers))


def test_without_trusted_proxies_the_header_is_ignored(settings):
    settings.MARRAM_TRUSTED_PROXIES = []
    assert address("203.0.113.7", "198.51.100.1") == "203.0.113.7"
    assert address("203.0.113.7", "198.51.100.1, 10.0.0.1") == "203.0.113.7"


def test_behind_trusted_proxies_the_rightmost_untrusted_entry_is_the_client(settings):
    settings.MARRAM_TRUSTED_PROXIES = ["10.0.0.0/8", "192.0.2.5"]
    assert address("10.0.0.3", "198.51.100.1") == "198.51.100.1"
    # entries left of the client's were written by the client: they prove nothing
    assert address("10.0.0.3", "1.2.3.4, 198.51.100.1") == "198.51.100.1"
    # through two proxies, both trusted
    assert address("10.0.0.3", "6.6.6.6, 198.51.100.1, 192.0.2.5") == "198.51.100.1"
    # a proxy that received no header: it is the client as far as we know
    assert address("10.0.0.3") == "10.0.0.3"
    # junk where an address should be stops the walk at the last trusted hop
    assert address("10.0.0.3", "198.51.100.1, junk") == "10.0.0.3"
    # only the trusted proxies' word counts, not a neighbour's
    assert address("10.1.2.3", "198.51.100.1") == "198.51.100.1"
    assert address("192.0.2.6", "198.51.100.1") == "192.0.2.6"


def test_addresses_are_compared_as_addresses(settings):
    settings.MARRAM_TRUSTED_PROXIES = ["::1"]
    assert address("::1", "::ffff:198.51.100.9") == "198.51.100.9"
    assert address("0:0:0:0:0:0:0:1", " 2001:DB8::5 ") == "2001:db8::5"
    # an IPv6 client is counted by its /64, which one subscriber usually holds whole
    assert address_group("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64"
    assert address_group("198.51.100.9") == "198.51.100.9"


def sign_up(client: APIClient, name: str, forwarded: str):
    return client.post("/api/auth/signup/", {
        "username": name, "email": f"{name}@example.org", "password": "dune-grass-42"},
        format="json", HTTP_X_FORWARDED_FOR=forwarded)


@pytest.mark.django_db
def test_a_client_writing_x_forwarded_for_is_still_counted_by_its_address(settings):
    settings.MARRAM_TRUSTED_PROXIES = ["10.0.0.0/8"]
    client = APIClient(REMOTE_ADDR="203.0.113.7")
    answers = [sign_up(client, f"user{n}", f"198.51.100.{n}").status_code for n in range(25)]
    assert answers == [201] * 20 + [429] * 5
    assert get_user_model().objects.count() == 20
    # the sign-in limits read the address the same way
    settings.MARRAM_THROTTLE_RATES = {**settings.MARRAM_THROTTLE_RATES, "signin_address": "3/15m"}
    pages = [Client(REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").post(
        "/accounts/login/", {"username": f"user{n}", "password": "wrong"}).status_code
        for n in range(5)]
    assert pages == [400, 400, 400, 429, 429]  # three wrong passwords, then the limit


@pytest.mark.django_db
def test_clients_behind_a_trusted_proxy_are_counted_apart(settings):
    settings.MARRAM_THROTTLE_RATES = {**settings.MARRAM_THROTTLE_RATES, "token": "2/hour"}
    settings.MARRAM_TRUSTED_PROXIES = ["10.0.0.1"]
    make_user("ann")
    proxy = APIClient(REMOTE_ADDR="10.0.0.1")

    def token(forwarded: str):
        return proxy.post("/api/auth/token/", {"username": "ann", "password": "dune-grass-42"},
                          format="json", HTTP_X_FORWARDED_FOR=forwarded)

    assert token("198.51.100.1").status_code == 200
    # a client that puts another address in front of its own is still itself
    assert token("6.6.6.6, 198.51.100.1").status_code == 200
    refused = token("7.7.7.7, 198.51.100.1")
    assert refused.status_code == 429 and "from your address" in body(refused)["message"]
    assert token("198.51.100.2").status_code == 200  # another client behind the proxy


def production_ident(env: dict[str, str]) -> dict[str, str]:
    """What the production settings make of a request from 203.0.113.7 that claims
    to forward for 198.51.100.1: the signup throttle's and the sign-in's address."""
    script = """
import json, django
django.setup()
from django.test import RequestFactory
from accounts.throttles import SignupThrottle
from web.addresses import client_address
request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.7",
                               HTTP_X_FORWARDED_FOR="198.51.100.1")
print(json.dumps({"throttle": SignupThrottle().get_ident(request),
                  "signin": client_address(request)}))
"""
    production = {
        **os.environ, "DJANGO_SETTINGS_MODULE": "marram_site.settings_production",
        "DJANGO_SECRET_KEY": "x" * 50, "DJANGO_ALLOWED_HOSTS": "marram.example.org",
        "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", **env}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=production,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_production_believes_no_forwarded_header_unless_told_whose():
    assert production_ident({}) == {"throttle": "203.0.113.7", "signin": "203.0.113.7"}
    behind = production_ident({"MARRAM_TRUSTED_PROXIES": "203.0.113.0/24"})
    assert behind == {"throttle": "198.51.100.1", "signin": "198.51.100.1"}


def test_the_proxy_settings_are_checked_at_start():
    env = {**os.environ, "MARRAM_TRUSTED_PROXIES": "10.0.0.1, not-a-proxy"}
    done = subprocess.run([sys.executable, "-c", "import marram_site.settings"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "MARRAM_TRUSTED_PROXIES: 'not-a-proxy' is not an address or a network" in done.stderr
    env = {**os.environ, "MARRAM_NUM_PROXIES": "1"}
    done = subprocess.run([sys.executable, "-c", "import marram_site.settings"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert "MARRAM_NUM_PROXIES is no longer read: set MARRAM_TRUSTED_PROXIES" in done.stderr


def compose_default(value: str) -> str:
    """A docker-compose value with nothing set in the environment: each
    ``${NAME:-default}`` (nested too) is its default."""
    inner = re.compile(r"\$\{[A-Z_]+:-([^${}]*)\}")
    while inner.search(value):
        value = inner.sub(r"\1", value)
    assert "${" not in value, value
    return value


def test_docker_compose_believes_only_nginx(settings):
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    trusted = compose_default(services["web"]["environment"]["MARRAM_TRUSTED_PROXIES"])
    nginx = compose_default(services["nginx"]["networks"]["default"]["ipv4_address"])
    [subnet] = [compose_default(c["subnet"])
                for c in compose["networks"]["default"]["ipam"]["config"]]
    assert trusted.split(",") == [nginx]  # nginx's own address, no network
    assert ipaddress.ip_address(nginx) in ipaddress.ip_network(subnet)
    assert "ports" not in services["web"]  # reached through nginx only
    # what nginx forwards for a client that reached it through Docker's gateway
    # (docker-proxy) and wrote its own X-Forwarded-For: counted as the gateway,
    # not as whoever it claims to be; an outside client as itself
    settings.MARRAM_TRUSTED_PROXIES = trusted.split(",")
    gateway = str(next(ipaddress.ip_network(subnet).hosts()))
    assert address(nginx, f"6.6.6.6, {gateway}") == gateway
    assert address(nginx, "6.6.6.6, 203.0.113.9") == "203.0.113.9"
    # and a request straight to a web server from inside the network proves nothing
    assert address(gateway, "6.6.6.6") == gateway
