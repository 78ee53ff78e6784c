"""The site's own address, for links followed away from the site: every link in
mail and the invitation links handed out to pass on.

There is one source for it, ``settings.MARRAM_BASE_URL``, whatever host a
request came in by: a mail written by a Celery task has no request, and a link
built from one request's Host header would disagree with the mails the site
writes by itself. Production sets it; ``./dev run ADDR`` sets it from the
address it serves (``runserver_base_url``) unless it is already set.
"""

from __future__ import annotations

import re

from django.conf import settings

# runserver's own forms: PORT, IPV4:PORT, [IPV6]:PORT, NAME:PORT
_ADDRPORT = re.compile(r"^(?:(?P<host>\[[0-9a-fA-F:.]+\]|[^:\[\]]+):)?(?P<port>\d+)$")
# Addresses that listen everywhere, and the one that reaches them from this machine.
_WILDCARDS = {"0": "127.0.0.1", "0.0.0.0": "127.0.0.1", "[::]": "[::1]", "[::0]": "[::1]"}


def site_url(path: str) -> str:
    """The absolute address of ``path`` (which starts with /) on this site."""
    if not path.startswith("/"):
        raise ValueError(f"a path on the site starts with /, not {path!r}")
    return settings.MARRAM_BASE_URL + path


def runserver_base_url(addrport: str) -> str:
    """The base URL that reaches ``runserver ADDRPORT`` from this machine: a bare
    port is served on 127.0.0.1, and a wildcard address is reached on loopback."""
    found = _ADDRPORT.match(addrport.strip())
    if found is None:
        raise ValueError(f"{addrport!r} is not an address runserver takes (PORT or HOST:PORT)")
    host = found["host"] or "127.0.0.1"
    return f"http://{_WILDCARDS.get(host, host)}:{found['port']}"


if __name__ == "__main__":  # ./dev run ADDR: python -m web.links ADDR
    import sys

    try:
        print(runserver_base_url(sys.argv[1]))
    except (IndexError, ValueError) as error:
        sys.exit(f"[dev] error: {error}")
