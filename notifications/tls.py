"""The TLS context of the site's calls to webhooks and push services
(notifications.webhook_http).

Making a context loads the certificate authorities a connection checks the
other side's certificate against: the system's whole bundle, 17.7 ms of CPU on
the benchmark machine (docs/performance.md, "One connection a drain"), where a
call made one each time. A context holds no state of any one connection and may
serve any number of them, from any thread (the ssl module's documentation), so
each process makes it once, the first time it needs it, and keeps it: a change
to the system's authorities reaches a worker when it is restarted, as a deploy
restarts it. (Mail shares a connection, and so its context, among the mails of
a drain: notifications.smtp.)
"""

from __future__ import annotations

import ssl
from functools import cache


@cache
def client_context() -> ssl.SSLContext:
    """The process's context for connections that check the server's certificate
    against the system's authorities (or SSL_CERT_FILE's)."""
    return ssl.create_default_context()
