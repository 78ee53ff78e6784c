"""The text part of a mail as mail clients want it: lines of at most 78
characters (RFC 5322 2.1.1), with nothing a reader copies broken across two.

Prose is wrapped at spaces. What must stay whole stays on one line, even when
that line is longer: an address (``https://...``, ``mailto:...``), and a
notation example written in quotes inside a sentence (``'move 1,2 2,2'``,
``"claim arc N"``, as the games' prompts write them). A line that starts with a space is a list
item of notation (a move, an event, a score: ``  place T17 back 1,-2 r2``) and
is left as it is, unless it holds an address, when it is wrapped under its
own indent. The signature separator ``-- `` keeps its space, so that mail
clients know the footer for what it is and leave it out of quotes.
"""

from __future__ import annotations

import re

WIDTH = 78
SIGNATURE = "-- "

# An address, a quoted example (opened after a space or a bracket, with what
# sticks to it: "'move 1,2':", '"take N"'), or a word.
_UNIT = re.compile(r"(?:https?://|mailto:)\S+|(?<![^\s(\[])'[^'\n]{1,60}'\S*|"
                   r'(?<![^\s(\[])"[^"\n]{1,60}"\S*|\S+')
_ADDRESS = re.compile(r"(?:https?://|mailto:)\S+")


def _wrapped(line: str, width: int) -> list[str]:
    indent = line[:len(line) - len(line.lstrip(" "))]
    hanging = indent + ("  " if indent else "")
    out: list[str] = []
    current = indent
    for unit in _UNIT.findall(line):
        if current.strip() and len(current) + 1 + len(unit) > width:
            out.append(current)
            current = hanging + unit
        elif current.strip():
            current += " " + unit
        else:
            current += unit
    if current.strip():
        out.append(current)
    return out or [line]


def mail_text(text: str, width: int = WIDTH) -> str:
    """``text`` with its prose wrapped at ``width`` (see the module's doc)."""
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.strip() in ("--", "-- "):
            lines.append(SIGNATURE)
            continue
        line = line.rstrip()
        if len(line) <= width or (line.startswith(" ") and not _ADDRESS.search(line)):
            lines.append(line)
            continue
        lines.extend(_wrapped(line, width))
    return "\n".join(lines)
