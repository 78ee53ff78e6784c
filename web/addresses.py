"""Who is asking, by network address: the one place that reads X-Forwarded-For.

The header is anyone's to write, so it is believed only from the proxies named
in ``settings.MARRAM_TRUSTED_PROXIES`` (addresses or networks). The client is the
connection's own address, unless that is a trusted proxy: then it is the
right-most X-Forwarded-For entry that is not a trusted proxy (each proxy appends
the address it was connected from, so entries left of the first untrusted one
were written by the client and prove nothing).
"""

from __future__ import annotations

import functools
import ipaddress
from typing import Any

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# An IPv6 subscriber is usually given a whole /64: counting its addresses one by
# one would give it 2**64 tries at every per-address limit.
IPV6_GROUP = 64


@functools.lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(proxy, strict=False) for proxy in proxies)


def _parsed(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped  # ::ffff:198.51.100.7 is 198.51.100.7
    return address


def client_address(request: Any) -> str:
    """The address of the client making ``request`` (a Django or DRF request)."""
    meta = request.META
    remote = _parsed(meta.get("REMOTE_ADDR", ""))
    if remote is None:
        return meta.get("REMOTE_ADDR", "") or "unknown"
    trusted = _networks(tuple(settings.MARRAM_TRUSTED_PROXIES))
    client = remote
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "").split(",")
    while forwarded and any(client in network for network in trusted):
        hop = _parsed(forwarded.pop())
        if hop is None:
            # Not an address: a trusted proxy always appends one, so this was written
            # by whoever connected to it, and that proxy's neighbour is all we know.
            break
        client = hop
    return str(client)


def address_group(address: str) -> str:
    """What the per-address limits count: the address itself, or for IPv6 its /64."""
    parsed = _parsed(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{parsed}/{IPV6_GROUP}", strict=False))
    return address
