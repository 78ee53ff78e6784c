"""The replay of a game, step by step, for the replay viewer.

Step ``n`` is the game after its first ``n`` events (step 0: the game as it
begins). Every step is rebuilt by folding the stored events through the game's
rules (``engine.replay``), never read from a cache, so the viewer shows what
the current engine makes of the record.

A running game is replayed only up to its latest event, and a step shows what
the player view shows: the deck order, the seed and the draws to come never
appear. Staff (the admin's replay) also get each event's stored row.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.replay import replay_events
from games.models import Event, Game
from games.selectors import rules_of

EVENT_FIELDS = ("seq", "type", "payload", "actor__username", "created_at", "cause_seq")


def _rows(game: Game, stop: int | None = None) -> list[dict[str, Any]]:
    rows = Event.objects.filter(game_id=game.pk).order_by("seq")
    if stop is not None:
        rows = rows.filter(seq__lt=stop)
    return list(rows.values(*EVENT_FIELDS))


def _moved_at(event: dict[str, Any] | None) -> list[int] | None:
    """Where an event happened on the board, for the viewer to outline."""
    if event is None:
        return None
    return event.get("at") or event.get("to")


def replay_index(game: Game, *, staff: bool = False) -> dict[str, Any]:
    """Every step's event and scores: what the step list and the chart need."""
    rules = rules_of(game)
    state = rules.start(game.config)
    players = [str(n) for n in rules.config(state).get("players") or []]
    steps: list[dict[str, Any]] = [
        {"n": 0, "text": "The game begins", "type": None,
         "player": None, "scores": list(rules.projection(state).scores)}]
    error = None
    for row in _rows(game):
        event = row["payload"]
        try:
            state = rules.fold(state, rules.read_event(event))
        except IllegalAction as e:
            # the state may be half changed: the steps end before this event
            error = {"event": row["seq"], "code": e.code, "message": e.message}
            break
        step = {"n": row["seq"] + 1, "text": rules.describe_event(event, players),
                "type": event.get("type"), "player": event.get("player"),
                "scores": list(rules.projection(state).scores)}
        steps.append(step)
    return {
        "game": game.pk,
        "status": game.status,
        "kind": game.game,
        "title": game.title,
        "options": game.options,
        "players": players,
        "count": len(steps) - 1,
        "steps": steps,
        "error": error,
        "staff": staff,
    }


def _step_view(rules: Any, state: Any) -> dict[str, Any]:
    """The game at one step, as a spectator sees it: what the API shows (no secret
    is ever among it)."""
    return rules.view(state, None)


def replay_step(game: Game, at: int, *, staff: bool = False) -> dict[str, Any]:
    """The game after its first ``at`` events (clamped to the events there are)."""
    rules = rules_of(game)
    start = rules.start(game.config)
    rows = _rows(game, stop=max(at, 0))
    replay = replay_events(rules, start, [row["payload"] for row in rows])
    shown = len(rows) if replay.error_index is None else replay.error_index
    event_row = rows[shown - 1] if shown > 0 else None
    event = event_row["payload"] if event_row else None
    players = [str(n) for n in rules.config(start).get("players") or []]
    view = _step_view(rules, replay.state)
    log = view.get("log")
    answer: dict[str, Any] = {
        "at": shown,
        "view": view,
        "event": None if event is None else {
            "seq": event_row["seq"], "type": event.get("type"), "player": event.get("player"),
            "text": rules.describe_event(event, players), "at": _moved_at(event)},
        # what this event scored, where the view keeps a log of scoring by event
        "scored": [entry for entry in log if isinstance(entry, dict)
                   and entry.get("event") == shown - 1] if isinstance(log, list) else [],
        "error": None if replay.error is None else {
            "event": replay.error_index, "code": replay.error.code,
            "message": replay.error.message},
    }
    if staff and event_row is not None:
        answer["event"]["row"] = {
            "payload": event,
            "actor": event_row["actor__username"],
            "created_at": event_row["created_at"].isoformat(),
            "cause_seq": event_row["cause_seq"],
        }
    if staff:
        answer["summary"] = rules.summary(replay.state)
    return answer
