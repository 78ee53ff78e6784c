"""The SMTP backend the site sends its mail with where it has a mail server
(``EMAIL_HOST``; settings.EMAIL_BACKEND): Django's own, its connections sharing
the process's TLS context (notifications.tls).

Django's backend makes a TLS context for each connection it opens, and each
mail the outbox sends (``EmailMessage.send()``) opens a connection of its own:
a sent mail cost twice the CPU for it (docs/performance.md, "One TLS context a
process").

The context is Django's ``ssl_context`` attribute, which its ``open()`` hands to
``starttls()`` or ``SMTP_SSL``; tests/service/test_mail_tls.py fails if a new
version of Django stops going through it.
"""

from __future__ import annotations

import ssl

from django.core.mail.backends import smtp

from notifications.tls import client_context


class EmailBackend(smtp.EmailBackend):
    """Django's SMTP backend, whose connections share the process's TLS context."""

    @property
    def ssl_context(self) -> ssl.SSLContext:
        certfile, keyfile = self.ssl_certfile, self.ssl_keyfile  # settings: paths or None
        return client_context(str(certfile) if certfile else None,
                              str(keyfile) if keyfile else None)
