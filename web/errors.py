"""The errors services raise. Each carries its HTTP status, a stable ``code`` that
clients switch on, and a message that says what to do; the API turns them (and
the engine's ``IllegalAction``) into ``{"code", "message", ...}``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class ServiceError(Exception):
    status = 400
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


class Invalid(ServiceError):
    """The request cannot be carried out as asked (400)."""


class Forbidden(ServiceError):
    """The user may not do this here (403): not a player, not their seat, not their turn."""

    status = 403
    code = "forbidden"


class NotYourTurn(Forbidden):
    code = "not_your_turn"

    @classmethod
    def waiting_for(cls, awaiting: Any, names: Sequence[str]) -> NotYourTurn:
        """The rules' ``not_your_turn`` told with the players' names, from what the
        game awaits (an engine.protocol.Awaiting). The rules' own message names a
        seat number, which a player never sees; it stays as it is, since replayed
        records carry it."""
        tasks = [t for t in awaiting.tasks if 0 <= t.seat < len(names)]
        if not tasks:
            return cls("it is not your turn: the game waits for the server; fetch the game "
                       "again in a moment")
        doing = " and ".join(f"{names[t.seat]} to {t.short or t.kind}" for t in tasks)
        return cls(f"it is not your turn: the game waits for {doing}")


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Conflict(ServiceError):
    """The game is not in a state that allows this (409)."""

    status = 409
    code = "conflict"


class StaleSeq(Conflict):
    """The client's view of the game is out of date: fetch it again at ``seq``."""

    code = "stale_seq"

    def __init__(self, current: int) -> None:
        super().__init__(
            f"the game has moved on: it is at seq {current}; fetch the game and try again",
            seq=current,
        )


class GameFinished(Conflict):
    code = "game_finished"


class TryLater(ServiceError):
    """Refused for now, not for good: too many tries (429) or too busy (503). The
    answer carries ``retry_after`` (seconds) as its Retry-After header."""

    status = 429
    code = "throttled"

    def __init__(self, message: str, *, retry_after: int, status: int = 429,
                 code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.status = status
        self.retry_after = max(int(retry_after), 1)


def sentence(message: str) -> str:
    """A service's message ("the game is over: ...") as a sentence for a page."""
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
