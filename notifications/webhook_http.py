"""Calling a webhook without lending the server to whoever names the address.

A player chooses the address, so a call must never reach what only the server
can reach (server-side request forgery): its database and Redis, a cloud's
metadata service at 169.254.169.254, the site itself behind its proxy. Hence:

- an address is http or https, printable ASCII, at most
  ``WEBHOOK_URL_MAX_LENGTH`` characters, with no user name or password in it;
- at every call its host is resolved, and the call is refused for good if any
  address it resolves to is not a public one (loopback, private, link-local,
  shared, multicast, reserved, unspecified) or is one of this machine's own,
  unless it lies in a network of ``settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS``;
- the connection goes to an address that was checked, never to a second
  resolution of the name (a name that resolves elsewhere a moment later, DNS
  rebinding, changes nothing); the name goes in the Host header and, for https,
  in SNI and the certificate check;
- redirects are not followed, each read or write waits at most ``TIMEOUT``
  seconds and the whole call ``DEADLINE``, and at most ``ANSWER_READ`` bytes of
  the answer are read.

A refusal is ``CallRefused`` (a ValueError: the outbox fails such a call at
once); a failure that time may cure is ``CallFailed`` (an OSError: retried).
Either says what went wrong in words for the player, who reads it on the
settings page: a name not found, a connection refused, no answer in time.
"""

from __future__ import annotations

import functools
import http.client
import ipaddress
import re
import socket
import ssl
import threading
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings

from notifications.models import WEBHOOK_URL_MAX_LENGTH
from notifications.tls import client_context

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

TIMEOUT = 5.0
"""Seconds: connecting, and each read or write of the call."""
DEADLINE = 10.0
"""Seconds: the whole call, however slowly the receiver drips its answer."""
ANSWER_READ = 1024
"""Bytes of the answer read, for the reason of a failure; the rest is left unread."""
RETRY_STATUSES = frozenset({408, 425, 429})
"""The 4xx answers that time may cure (too slow, too early, too many)."""

_HOST_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?")


class CallRefused(ValueError):
    """A webhook call no retry can make: the address is not allowed, or the
    receiver refused the call for good."""

    status: int | None = None
    """The receiver's answer, when it gave one."""


class CallFailed(OSError):
    """A webhook call that failed in a way time may cure (a 5xx, a 429, a receiver
    that did not answer in time)."""

    status: int | None = None
    """The receiver's answer, when it gave one."""


# ---------------------------------------------------------------- which addresses


def url_problem(url: str) -> str:
    """Why ``url`` cannot be a webhook's address, in words for the player; '' if it
    can. Resolves nothing: a host written as an address is checked here, a name
    at each call."""
    if len(url) > WEBHOOK_URL_MAX_LENGTH:
        return f"the address is longer than {WEBHOOK_URL_MAX_LENGTH} characters"
    if any(not 32 < ord(c) < 127 for c in url):
        return ("the address has a space or a character that is not printable ASCII (write "
                "an international domain name in its xn-- form)")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (a port that is not a number is a ValueError here)
    except ValueError:
        return "that is not a web address"
    if parts.scheme not in ("http", "https"):
        return "the address must start with https:// or http://"
    if "@" in parts.netloc:
        return "the address may not hold a user name or password"
    host = parts.hostname or ""
    if not host:
        return "the address has no host name"
    numeric = _numeric_addresses(host)
    if not numeric and not _HOST_NAME.fullmatch(host):
        return f"{host!r} is not a host name"
    return next((problem for problem in map(address_problem, numeric) if problem), "")


def _numeric_addresses(host: str) -> list[str]:
    """The addresses a host written as one stands for (in every form the system's
    resolver reads as an address, such as 2130706433 or 0x7f.1); [] for a name."""
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM,
                                   flags=socket.AI_NUMERICHOST)
    except (socket.gaierror, UnicodeError):
        return []
    return [str(info[4][0]) for info in found]


def address_problem(address: str) -> str:
    """Why a call may not go to ``address``, in words for the player; '' if it may."""
    ip: IPAddress = ipaddress.ip_address(address.partition("%")[0])
    if isinstance(ip, ipaddress.IPv6Address):  # an IPv4 address carried in an IPv6 one
        ip = ip.ipv4_mapped or ip.sixtofour or ip
    if any(ip in network for network in allowed_networks()):
        return ""
    for kind, found in (("an unspecified", ip.is_unspecified), ("a loopback", ip.is_loopback),
                        ("a link-local", ip.is_link_local), ("a multicast", ip.is_multicast),
                        ("a private", ip.is_private), ("a reserved", ip.is_reserved),
                        ("a non-public", not ip.is_global)):
        if found:
            return f"{ip} is {kind} address"
    if ip in own_addresses():
        return f"{ip} is an address of this server"
    return ""


def allowed_networks() -> list[IPNetwork]:
    """The networks an operator allows webhooks into whatever they are
    (``MARRAM_WEBHOOK_ALLOWED_NETWORKS``)."""
    return [ipaddress.ip_network(n, strict=False) for n in settings.MARRAM_WEBHOOK_ALLOWED_NETWORKS]


@functools.lru_cache(maxsize=1)
def own_addresses() -> frozenset[IPAddress]:
    """This machine's own addresses, public ones included (a call to one reaches
    the site itself, from inside), as Linux lists them; none elsewhere."""
    found: set[IPAddress] = set()
    try:
        last = ""
        for line in Path("/proc/net/fib_trie").read_text().splitlines():
            if "|--" in line:
                last = line.split("|--")[1].strip()
            elif "/32 host LOCAL" in line and last:
                found.add(ipaddress.IPv4Address(last))
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            found.add(ipaddress.IPv6Address(int(line.split()[0], 16)))
    except (OSError, ValueError, IndexError):
        pass
    return frozenset(found)


# ---------------------------------------------------------------- the call


def post_json(url: str, body: bytes, headers: Mapping[str, str]) -> int:
    """POST the JSON ``body`` to ``url`` with ``headers``; the status of the 2xx
    answer. CallRefused if the address is not allowed or the answer says no retry
    can help (a redirect or a 4xx but 408, 425 and 429); CallFailed or another
    OSError if one may."""
    problem = url_problem(url)
    if problem:
        raise CallRefused(problem)
    parts = urlsplit(url)
    host, https = parts.hostname or "", parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    try:
        addresses = [str(info[4][0]) for info in socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)]
    except socket.gaierror as error:
        raise CallFailed(_lookup_failed(host, error)) from error
    for address in addresses:
        problem = address_problem(address)
        if problem:
            raise CallRefused(f"{host} resolves to {address}: {problem}"
                              if address != host else problem)
    connection = (_PinnedHTTPS if https else _PinnedHTTP)(host, port, addresses)
    try:
        connection.connect()
    except CallFailed:
        raise
    except OSError as error:
        raise CallFailed(_connect_failed(host, port, error)) from error
    cut = threading.Timer(DEADLINE, _cut_off, [connection.sock])
    cut.daemon = True
    cut.start()
    try:
        connection.request("POST", urlunsplit(("", "", parts.path or "/", parts.query, "")),
                           body=body, headers={"Content-Type": "application/json", **headers})
        answer = connection.getresponse()
        excerpt = answer.read(ANSWER_READ)
    except TimeoutError as error:
        raise CallFailed(f"{host} did not answer within {TIMEOUT:g} s") from error
    except (http.client.HTTPException, OSError) as error:  # a broken answer, or one cut off
        raise CallFailed(f"no proper answer within {DEADLINE:g} s: {host} closed the "
                         "connection or sent something that is not HTTP") from error
    finally:
        cut.cancel()
        connection.close()
    status = answer.status
    if 200 <= status < 300:
        return status
    said = f"answered {status} {answer.reason}".strip()
    if 300 <= status < 400:
        raise CallRefused(f"{said} to {answer.getheader('Location', '')[:100]!r}: redirects "
                          "are not followed; give the address it leads to")
    said += f": {excerpt.decode('utf-8', 'replace')[:100]}" if excerpt.strip() else ""
    failure = (CallFailed(said) if status >= 500 or status in RETRY_STATUSES
               else CallRefused(said))
    failure.status = status
    raise failure


def _lookup_failed(host: str, error: socket.gaierror) -> str:
    """Why the host's name gave no address, in words."""
    if error.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME)):
        return f"the host name {host} was not found: check the address"
    if error.errno == socket.EAI_AGAIN:
        return f"the host name {host} could not be looked up just now"
    return f"the host name {host} could not be looked up ({error.strerror or error})"


def _connect_failed(host: str, port: int, error: OSError) -> str:
    """Why no connection to the host was made, in words."""
    if isinstance(error, ssl.SSLCertVerificationError):
        return f"the certificate of {host} is not valid ({error.verify_message})"
    if isinstance(error, ssl.SSLError):
        return f"no secure connection to {host} could be made ({error.reason or error})"
    if isinstance(error, TimeoutError):
        return f"{host} did not take the connection within {TIMEOUT:g} s"
    if isinstance(error, ConnectionRefusedError):
        return f"{host} refused the connection on port {port}"
    return f"no connection to {host} could be made ({error.strerror or error})"


def _connect(addresses: list[str], port: int) -> socket.socket:
    """A connection to the first of the checked ``addresses`` that takes one."""
    error: OSError = CallFailed("the host has no address")
    for address in addresses:
        try:
            return socket.create_connection((address, port), timeout=TIMEOUT)
        except OSError as e:
            error = e
    raise error


def _cut_off(sock: socket.socket | None) -> None:
    """Past the deadline: end the call, whatever it is waiting for."""
    try:
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class _PinnedHTTP(http.client.HTTPConnection):
    """An HTTP connection to addresses already checked: it never resolves the
    host name again (the Host header still names it)."""

    def __init__(self, host: str, port: int, addresses: list[str]) -> None:
        super().__init__(host, port, timeout=TIMEOUT)
        self.addresses = addresses

    def connect(self) -> None:
        self.sock = _connect(self.addresses, self.port)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """The same over TLS, the certificate checked against the host name, with the
    process's TLS context (notifications.tls)."""

    def __init__(self, host: str, port: int, addresses: list[str]) -> None:
        self.tls = client_context()
        super().__init__(host, port, timeout=TIMEOUT, context=self.tls)
        self.addresses = addresses

    def connect(self) -> None:
        self.sock = self.tls.wrap_socket(_connect(self.addresses, self.port),
                                         server_hostname=self.host)
