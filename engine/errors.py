"""Errors that cross the engine's boundary, the same for every game."""
from __future__ import annotations


class IllegalAction(ValueError):
    """An action or event that the rules do not allow.

    ``code`` is stable (clients switch on it); ``message`` names the rule broken.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class RecordError(ValueError):
    """A game record, catalogue or config that cannot be read at all."""


class BadOptions(RecordError):
    """Options or a number of players that make no game; the message says which."""


class NotationError(ValueError):
    """A line that is not a move in the notation; the message says why in plain words."""


class SnapshotError(ValueError):
    """A stored snapshot that this engine cannot read back: another version of
    the rules or of the game's state, or a broken one. The caller replays."""
