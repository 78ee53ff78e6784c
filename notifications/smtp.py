"""The connection to the mail server that a drain of the outbox sends its mail
through (notifications.services.outbox_drain): opened for the drain's first mail,
kept for the rest, closed when the drain ends, as Django's documentation shows
for sending several mails (``get_connection()``, ``open()``, ``close()``).

Each mail sent alone (``EmailMessage.send()``) opened a connection of its own:
a TCP connection, the greeting, STARTTLS and its handshake, and a TLS context
made for it, which loads the certificate authorities the server's certificate
is checked against (the system's whole bundle: 17.7 ms of CPU on the benchmark
machine, docs/performance.md, "One connection a drain"). A drain's mails now
share all of it.
"""

from __future__ import annotations

import logging
from types import TracebackType

from django.core.mail import EmailMessage, get_connection
from django.core.mail.backends.base import BaseEmailBackend

logger = logging.getLogger(__name__)


class MailSession:
    """The site's mail backend, opened once for the mails sent inside ``with``. A
    send that fails closes the connection, whatever the failure, so that the next
    mail opens a new one rather than meet a connection the server may have left
    in any state."""

    def __init__(self) -> None:
        self.connection: BaseEmailBackend | None = None

    def send(self, message: EmailMessage) -> None:
        if self.connection is None:
            connection = get_connection()
            connection.open()
            self.connection = connection
        message.connection = self.connection
        try:
            message.send()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Say goodbye to the server. A goodbye that fails changes nothing for the
        mail: each was accepted, or its failure is in its row already."""
        connection, self.connection = self.connection, None
        if connection is None:
            return
        try:
            connection.close()
        except OSError as error:  # smtplib's errors among them
            logger.info("the mail server's connection did not close cleanly: %s", error)

    def __enter__(self) -> MailSession:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
