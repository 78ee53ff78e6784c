"""The replay of a game, step by step, for the replay viewer (any game).

Step ``n`` is the game after its first ``n`` events (step 0: the game as it
begins). Every step is rebuilt by folding the stored events through the game's
rules (``engine.replay``), never read from a cache, so the viewer shows what
the current engine makes of the record.

What a step of a running game shows is what the viewer knew at that point: the
game's ``view`` for the viewer's seat (a spectator's view for anyone else), and
each event as ``event_view`` lets that seat read it (another player's secret
choice stays out). A running game is replayed only up to its latest event, so
the hidden order, the seed and the draws to come never appear. Once the game is
over its seed is revealed, and so is everything at every step: the game's
``view_revealed`` (the others' hands, whatever lay face down, the order of what
was to be drawn) and every event whole. Staff (the admin's replay) read every
event whole, with its stored row and the engine's summary at each step.

A step is ``{"at", "players", "view", "event", "scores", "error"}``: the JSON
a game's replay module (``ui.GameUI.replay_module``) draws.
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


def _reader(game: Game, rules: Any, seat: int | None, staff: bool) -> Any:
    """(state, event) -> the event as the viewer may read it in the game then in
    ``state``: whole for staff and once the game is over, else the game's
    ``event_view`` for the viewer's seat."""
    if staff or game.status == Game.Status.FINISHED:
        return lambda state, event: event
    return lambda state, event: rules.event_view(state, event, seat)


def _viewer(game: Game, rules: Any) -> Any:
    """(state, seat) -> what a step shows of the game: everything once it is over
    (``view_revealed``), while it runs only what the seat could see (``view``)."""
    return rules.view_revealed if game.status == Game.Status.FINISHED else rules.view


def _players(rules: Any, state: Any) -> list[str]:
    return [str(n) for n in rules.config(state).get("players") or []]


def replay_index(game: Game, *, seat: int | None = None,
                 staff: bool = False) -> dict[str, Any]:
    """Every step's event in words and the scores after it: what the step list
    and the chart need. ``seat``: the viewer's seat in the game, if any."""
    rules = rules_of(game)
    state = rules.start(game.started_config())
    players = _players(rules, state)
    read = _reader(game, rules, seat, staff)
    steps: list[dict[str, Any]] = [
        {"n": 0, "text": "The game begins", "type": None,
         "player": None, "scores": list(rules.projection(state).scores)}]
    error = None
    for row in _rows(game):
        try:
            state = rules.fold(state, rules.read_event(row["payload"]))
        except IllegalAction as e:
            # the state may be half changed: the steps end before this event
            error = {"event": row["seq"], "code": e.code, "message": e.message}
            break
        event = read(state, row["payload"])
        steps.append({"n": row["seq"] + 1, "text": rules.describe_event(event, players),
                      "type": event.get("type"), "player": event.get("player"),
                      "scores": list(rules.projection(state).scores)})
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


def replay_step(game: Game, at: int, *, seat: int | None = None,
                staff: bool = False) -> dict[str, Any]:
    """The game after its first ``at`` events (clamped to the events there are),
    as the viewer (``seat``, None for anyone not playing; staff) may see it."""
    rules = rules_of(game)
    start = rules.start(game.started_config())
    rows = _rows(game, stop=max(0, min(at, game.seq)))
    replay = replay_events(rules, start, [row["payload"] for row in rows])
    shown = len(rows) if replay.error_index is None else replay.error_index
    event_row = rows[shown - 1] if shown > 0 else None
    players = _players(rules, start)
    event = None
    if event_row is not None:
        payload = _reader(game, rules, seat, staff)(replay.state, event_row["payload"])
        event = {"seq": event_row["seq"], "type": payload.get("type"),
                 "player": payload.get("player"), "text": rules.describe_event(payload, players),
                 "payload": payload}
    answer: dict[str, Any] = {
        "at": shown,
        "players": players,
        "view": _viewer(game, rules)(replay.state, None if staff else seat),
        "event": event,
        "scores": list(rules.projection(replay.state).scores),
        "error": None if replay.error is None else {
            "event": replay.error_index, "code": replay.error.code,
            "message": replay.error.message},
    }
    if staff and event is not None:
        assert event_row is not None
        event["row"] = {
            "payload": event_row["payload"],
            "actor": event_row["actor__username"],
            "created_at": event_row["created_at"].isoformat(),
            "cause_seq": event_row["cause_seq"],
        }
    if staff:
        answer["summary"] = rules.summary(replay.state)
    return answer
