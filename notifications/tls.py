"""The TLS context of the site's outgoing connections: to the mail server
(notifications.smtp), to webhooks and to push services (notifications.webhook_http).

Making a context loads the certificate authorities a connection checks the
other side's certificate against: the system's whole bundle, 17.7 ms of CPU on
the benchmark machine, more than half of what the rest of a sent mail costs
(docs/performance.md, "One TLS context a process"). A context holds no state of
any one connection and may serve any number of them, from any thread (the ssl
module's documentation), so each process makes it once, the first time it needs
it, and keeps it: a change to the system's authorities reaches a worker when it
is restarted, as a deploy restarts it.
"""

from __future__ import annotations

import ssl
from functools import cache


@cache
def client_context(certfile: str | None = None, keyfile: str | None = None) -> ssl.SSLContext:
    """The process's context for connections that check the server's certificate
    against the system's authorities (or SSL_CERT_FILE's); with ``certfile`` (and
    its ``keyfile``), one that presents that certificate instead, made as Django's
    SMTP backend makes it for ``EMAIL_SSL_CERTFILE``."""
    if certfile:
        context = ssl.SSLContext(protocol=ssl.PROTOCOL_TLS_CLIENT)
        context.load_cert_chain(certfile, keyfile)
        return context
    return ssl.create_default_context()
