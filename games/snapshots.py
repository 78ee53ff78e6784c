"""Snapshots of game states (engine.snapshot) kept in the database, so that a
game no worker holds in its cache (live.state_cache) is read by folding only
the events after its newest snapshot, not every event from the first.

Written by the move that carries a game across a multiple of
``settings.MARRAM_SNAPSHOT_EVERY`` events, once its transaction has committed:
that move has the new state in hand, so a snapshot costs a dump and one INSERT
(no replay, no task, no broker), one move in fifty, and nothing inside the
move's transaction. Read on a cache miss; a snapshot written under other rules
or another version, or that cannot be read, is passed over (logged and counted
in ``states.snapshots_refused``) for a replay from zero. ``manage.py
rebuild_snapshots`` writes them again from the events, ``manage.py
verify_game`` checks them against a replay.

Snapshots hold every secret of a game (what is hidden, every player's own): no page,
API or admin shows them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction

from engine.errors import IllegalAction, SnapshotError
from engine.protocol import AnyGame
from engine.snapshot import restore, snapshot, supported
from games.models import Event, Game, GameSnapshot
from live.state_cache import states

logger = logging.getLogger(__name__)


def snapshot_every() -> int:
    """Events between snapshots; 0: none are written or read."""
    return max(0, int(settings.MARRAM_SNAPSHOT_EVERY))


def snapshot_due(before: int, after: int) -> bool:
    """Whether a write taking a game from seq ``before`` to ``after`` crosses a
    multiple of the snapshot interval (a move may append several events)."""
    every = snapshot_every()
    return every > 0 and after // every > before // every


def _row(game_id: int, seq: int, rules: AnyGame, state: Any) -> GameSnapshot:
    data = snapshot(rules, state)
    return GameSnapshot(game_id=game_id, seq=seq, data=data,
                        rules_version=data["rules_version"], version=data["version"])


def game_snapshot_save(*, game_id: int, seq: int, rules: AnyGame, state: Any) -> None:
    """Store the state of the game after ``seq`` events; a snapshot already
    there at that seq is kept. ``state`` is only read."""
    if supported(rules):
        GameSnapshot.objects.bulk_create([_row(game_id, seq, rules, state)],
                                         ignore_conflicts=True)


def game_snapshot_after_commit(game: Game, before: int, rules: AnyGame, state: Any) -> None:
    """Have the state the game has now stored once the write that took it from
    seq ``before`` commits, if that crossed a multiple of the interval."""
    if not (supported(rules) and snapshot_due(before, game.seq)):
        return
    game_id, seq = game.pk, game.seq
    # robust: a snapshot that cannot be written costs a later replay, never the move
    transaction.on_commit(
        lambda: game_snapshot_save(game_id=game_id, seq=seq, rules=rules, state=state),
        robust=True)


def game_snapshot_latest(game: Game, rules: AnyGame) -> tuple[int, Any] | None:
    """The (seq, state) of the game's newest usable snapshot at or below
    ``game.seq``; None when there is none (or the game is too short to have one)."""
    every = snapshot_every()
    if not every or game.seq < every or not supported(rules):
        return None
    row = (GameSnapshot.objects.filter(game_id=game.pk, seq__lte=game.seq)
           .order_by("-seq").values_list("seq", "data").first())
    if row is None:
        return None
    seq, data = row
    try:
        return seq, restore(rules, game.started_config(), data)
    except SnapshotError as e:
        states.snapshots_refused += 1
        logger.warning("game %s: snapshot at seq %s passed over for a replay: %s",
                       game.pk, seq, e)
        return None


def game_snapshots_rebuild(game: Game) -> int:
    """Replace the game's snapshots with ones replayed from its events, one at
    every multiple of the interval; how many were written. ``IllegalAction``
    if the events do not replay (manage.py verify_game says more)."""
    rules = game.rules
    every = snapshot_every()
    rows = []
    if supported(rules) and every and game.config is not None:
        state = rules.start(game.config)
        for seq, event in enumerate(Event.objects.payloads(game.pk, 0, game.seq), start=1):
            state = rules.fold(state, rules.read_event(event))
            if seq % every == 0:
                rows.append(_row(game.pk, seq, rules, state))
    with transaction.atomic():
        GameSnapshot.objects.filter(game_id=game.pk).delete()
        GameSnapshot.objects.bulk_create(rows)
    return len(rows)


def game_snapshot_problems(game: Game) -> list[str]:
    """How the game's stored snapshots differ from a replay of its events at
    their seqs; empty when each is the replayed state exactly."""
    stored = list(GameSnapshot.objects.filter(game_id=game.pk).order_by("seq")
                  .values_list("seq", "data"))
    if not stored or game.config is None:
        return []
    rules = game.rules
    if not supported(rules):
        return [f"{len(stored)} snapshot(s) of a game that writes none"]
    problems = []
    wanted = {seq: data for seq, data in stored}
    state = rules.start(game.config)
    try:
        for seq, event in enumerate([None, *Event.objects.payloads(game.pk, 0, game.seq)]):
            if event is not None:
                state = rules.fold(state, rules.read_event(event))
            data = wanted.pop(seq, None)
            if data is not None and data != snapshot(rules, state):
                problems.append(_difference(seq, data, snapshot(rules, state)))
    except IllegalAction:
        return problems  # the replay's own failure is verify_game's to report
    problems += [f"snapshot at seq {seq}: beyond the game's {game.seq} events"
                 for seq in sorted(wanted)]
    return problems


def _difference(seq: int, stored: Any, replayed: Mapping[str, Any]) -> str:
    if not isinstance(stored, dict):
        return f"snapshot at seq {seq}: not a snapshot"
    for key in ("game", "rules_version", "version"):
        if stored.get(key) != replayed[key]:
            return (f"snapshot at seq {seq}: {key} {stored.get(key)!r}, this engine writes "
                    f"{replayed[key]!r} (manage.py rebuild_snapshots)")
    held = stored.get("state")
    state = held if isinstance(held, dict) else {}
    fields = sorted(k for k in set(state) | set(replayed["state"])
                    if state.get(k) != replayed["state"].get(k))
    return f"snapshot at seq {seq} differs from the replay in: {', '.join(fields)}"
