"""Snapshots: a game's whole state at some seq, written as JSON so that the
server can start a long game from its newest snapshot and fold only the events
after it, instead of replaying it from the first event.

A snapshot is ``{"game", "rules_version", "version", "state"}``: the game's
key, its ``rules_version`` and ``snapshot_version`` when it was written, and
the game's own ``dump_state``. One written under other rules or another version
is refused (``SnapshotError``), since folding on from it might not give the state
a replay gives; the caller replays instead. Snapshots hold every secret (the
deck order): they are the server's, never a player's.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict, TypeVar

from .errors import SnapshotError
from .protocol import JSON, JSONObject, Rules, Snapshots

S = TypeVar("S")
E = TypeVar("E", bound=Mapping[str, object])


class Snapshot(TypedDict):
    """A snapshot as the server stores it (the module's docstring)."""

    game: str
    rules_version: str
    version: int
    state: JSONObject


def supported(game: object) -> bool:
    """Whether the game writes snapshots at all (``protocol.Snapshots``)."""
    return isinstance(game, Snapshots)


def _written(game: Rules[S, E], what: str) -> Snapshots[S]:
    if not isinstance(game, Snapshots):
        raise SnapshotError(f"{game.title} {what} no snapshots")
    return game


def snapshot(game: Rules[S, E], state: S) -> Snapshot:
    """The state as a versioned snapshot."""
    written = _written(game, "writes")
    return {"game": game.key, "rules_version": game.rules_version,
            "version": written.snapshot_version, "state": written.dump_state(state)}


def restore(game: Rules[S, E], config: Mapping[str, JSON], data: object) -> S:
    """The state a snapshot holds, for the game of ``config``; ``SnapshotError``
    when it is of another game, rules or version, or cannot be read."""
    written = _written(game, "reads")
    if not isinstance(data, dict):
        raise SnapshotError("a snapshot is a JSON object")
    for name, expected in (("game", game.key), ("rules_version", game.rules_version),
                           ("version", written.snapshot_version)):
        if data.get(name) != expected:
            raise SnapshotError(f"a snapshot of {name} {data.get(name)!r}: this engine "
                                f"reads {expected!r}")
    state = data.get("state")
    if not isinstance(state, dict):
        raise SnapshotError("a snapshot's 'state' is a JSON object")
    try:
        return written.load_state(config, state)
    except SnapshotError:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as e:
        raise SnapshotError(f"a {game.title} snapshot that cannot be read: {e!r}") from None
