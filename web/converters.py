"""Path converters shared by every app's URLs.

``<id:...>`` is a row id: 1 to 18 digits, so that a longer number is a 404 at
routing rather than an integer no database column holds (SQLite overflows past
2**63 and answered 500; PostgreSQL refuses it too). Registered once, as the app
is made ready (web.apps), before any URLconf is read.
"""

from __future__ import annotations


class RowId:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)

