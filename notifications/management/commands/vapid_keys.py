"""Make the site's VAPID key for Web Push (RFC 8292): ``manage.py vapid_keys``
prints a new key as MARRAM_VAPID_PRIVATE_KEY takes it, and its public key; with
``--file PATH`` it writes the key there (PEM, readable by its owner only) for
MARRAM_VAPID_KEY_FILE instead. A site keeps its key: a new one leaves every
device subscribed under the old one unreachable until its player turns push on
again."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from notifications import push


class Command(BaseCommand):
    help = "Make a VAPID key for Web Push and print it (or write it to a file)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--file", help="write the key to this file (PEM) instead")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options.get("file")
        if path:
            if os.path.exists(path):
                raise CommandError(f"{path} exists: a site keeps its key (remove it first "
                                   "to make another)")
            key = push._vapid_from_file(path)
            self.stdout.write(f"MARRAM_VAPID_KEY_FILE={path}\n"
                              f"public key: {push.public_key_of(key)}")
            return
        private, public = push.key_new()
        self.stdout.write(f"MARRAM_VAPID_PRIVATE_KEY={private}\npublic key: {public}")
