"""The changes made while a game runs: a player's move (``action_submit``), a
resignation, the chance drawn, a seat out of time. How each is written:
games.services.append."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from datetime import datetime
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from engine.errors import IllegalAction
from engine.protocol import AnyGame
from games import clocks, store
from games.models import Event, Game
from games.seating import seat_players
from games.selectors import (
    awaiting_json,
    events_wanted,
    game_replay,
    game_state_get,
    not_your_turn,
    rules_of,
)
from games.services.append import (
    ActionResult,
    Appender,
    append_automatic,
    check_running,
    game_lock,
    seat_of,
)
from web.errors import Conflict, Forbidden, Invalid, NotFound, StaleSeq

_T = TypeVar("_T")


def chance_resolve(game: Game | int) -> list[Event]:
    """Append the chance events now due (drawn from the seed) and any automatic
    events that follow them: what the task resolve_chance does after a move leaves
    the game waiting for chance. Idempotent: only what is due is appended.

    Written as a player's move is (games.services.append): read without a lock,
    with the game's seats and the seats computers hold, and written in one
    statement only if the game is still at the seq read. A draw depends on the
    seed and that seq alone, so whoever writes first (a second copy of the task,
    a resignation) leaves the other nothing to write; read again, the game then
    has nothing due, or what is due after that change."""
    pk = game.pk if isinstance(game, Game) else game
    return _judged_until_written(pk, lambda: _draw(pk))


def _draw(pk: int) -> list[Event]:
    """One try of ``chance_resolve``: ``store.Stale`` if the game moved on
    between its read and its write."""
    found = store.game_for_move(pk, None, events_wanted(pk))
    if found is None:
        raise NotFound(f"there is no game {pk}")
    game = found.game
    if game.status != Game.Status.RUNNING:
        return []
    app = Appender(game, game_state_get(game), read=found)
    append_automatic(app, cause=None, draw=True)
    if app.rows:
        app.commit()
    return app.rows


def _judged_until_written(pk: int, change: Callable[[], _T]) -> _T:
    """A lock-free change (games.services.append), read and judged again each
    time another write lands between its read and its write, ``_ATTEMPTS``
    times at most; then StaleSeq with the game's seq."""
    for _ in range(_ATTEMPTS):
        try:
            return change()
        except store.Stale:  # read again: the game moved on
            pass
    raise StaleSeq(store.game_seq(pk) or 0)


def game_timeout(
    *, game: Game | int, seat: int, expected_seq: int, resign: bool = False
) -> ActionResult | None:
    """The seat ran out of time: append the rules' timeout events (the server's: no
    actor), and with ``resign`` its resignation too. Nothing (None) if the game has
    moved on from ``expected_seq`` or no longer waits for that seat."""
    with transaction.atomic():
        game = game_lock(game)
        if game.seq != expected_seq or game.status != Game.Status.RUNNING:
            return None
        state = game_state_get(game)
        rules = rules_of(game)
        if seat not in rules.awaiting(state).players:
            return None
        app = Appender(game, state)
        first = None
        for event in rules.timeout(state, seat):
            row = app.add(dict(event), cause=None if first is None else first.seq)
            first = first or row
        if first is None:
            return None
        if resign and not rules.awaiting(app.state).finished:
            for event in rules.resign(app.state, seat):
                app.add(dict(event), cause=first.seq)
        append_automatic(app, cause=first.seq)
        app.commit()
        return app.result()


def clock_expire(*, game_id: int, seat: int, now: datetime | None = None
                 ) -> ActionResult | None:
    """Append the timeout (and, at the second in a row, the resignation) of a seat
    whose bank is empty (games.clocks). Nothing if its time is not up after all."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.RUNNING:
            return None
        clock = clocks.clock_running_out(game, seat, now)
        if clock is None:
            return None
        second = clocks.second_timeout(clock, rules_of(game), game_state_get(game))
        if second and seat_players().seat_out_of_time(game=game, seat=seat, clock=clock):
            second = False  # the game's option: a computer player takes the seat instead
        return game_timeout(game=game, seat=seat, expected_seq=game.seq, resign=second)


def _shown(value: Any) -> str:
    """A client's value quoted in a message, cut short: it may be huge."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def player_types(rules: AnyGame, state: Any, seat: int) -> list[str]:
    """The event types the seat may submit now: those the rules declare
    (``action_fields``); for a game that declares none, the types of its legal
    actions now and of leaving (never a chance draw or a timeout: the server's)."""
    if rules.action_fields:
        return list(rules.action_fields)
    # every awaited seat's, so that acting out of turn is said so (not_your_turn)
    found = [a["type"] for s in rules.awaiting(state).players
             for a in rules.legal_actions(state, s)]
    found += [e["type"] for e in rules.resign(state, seat)]
    return list(dict.fromkeys(found))


def _normalise_action(rules: AnyGame, action: Any, seat: int,
                      kinds: list[str] | None = None) -> dict[str, Any]:
    """A player's action as the event to fold: one of the types the seat may submit
    (``kinds``, by default the rules' ``action_fields``), no field it does not have,
    the player's own seat, defaults filled."""
    if not isinstance(action, Mapping):
        raise Invalid("'action' must be an object with a \"type\"", field="action")
    kind = action.get("type")
    fields = rules.action_fields
    kinds = kinds if kinds is not None else list(fields)
    if not isinstance(kind, str) or kind not in kinds:
        raise Invalid(
            f"'action.type' must be one of {', '.join(kinds)}, got {_shown(kind)}",
            code="not_a_player_action",
            field="action.type",
        )
    try:  # the rules' own reading: exactly the fields they define, nothing stripped
        normal = rules.normalise_event({**action, "player": seat})
    except IllegalAction as e:
        field = getattr(e, "field", None)
        raise Invalid(e.message, code=e.code,
                      **({"field": f"action.{field}"} if field else {})) from None
    unknown = sorted(set(action) - set(fields[kind])) if fields and normal is None else []
    if unknown:
        raise Invalid(
            f"unknown field(s) in a {kind} action: {', '.join(unknown)}; a {kind} has "
            f"{', '.join(fields[kind])}",
            code="unknown_field",
            field=f"action.{unknown[0]}",
        )
    player = action.get("player", seat)
    if player != seat:
        raise Forbidden(
            f"you play seat {seat}, not {_shown(player)}: leave 'player' out or send {seat}",
            code="not_your_seat",
        )
    if normal is not None:
        return dict(normal)
    event = {k: action[k] for k in (fields[kind] if fields else action) if k in action}
    event["player"] = seat
    for name, value in rules.action_defaults.get(kind, {}).items():
        event.setdefault(name, value)
    return event


def _earlier_answer(
    game: Game, first: Event, user: User, action: Any
) -> ActionResult:
    if first.actor_id != user.pk:
        raise Conflict(
            "this idempotency key was used by another player; use a fresh key",
            code="idempotency_key_reused",
        )
    rules = rules_of(game)
    try:
        again = _normalise_action(rules, action, first.payload.get("player"),
                                  list(rules.action_fields) or [first.type])
    except (Invalid, Forbidden):
        again = None
    if again != first.payload:
        raise Conflict(
            "this idempotency key was used for a different action; use a fresh key",
            code="idempotency_key_reused",
        )
    rows = [first, *Event.objects.filter(game=game, cause_seq=first.seq).order_by("seq")]
    seq = rows[-1].seq + 1
    # what the game awaited right after: replayed, as the game may have moved on since
    then = game_replay(game, stop=seq)
    wait = rules.awaiting(then.state)
    status = Game.Status.FINISHED if wait.finished else Game.Status.RUNNING
    return ActionResult(seq=seq, events=rows, awaiting=awaiting_json(wait),
                        status=status, repeated=True)


def _read_with_seat(pk: int, user: User) -> store.MoveRead:
    """The game, as a move reads it (no lock: games.store.game_for_move), with its
    seats, the user's seat index (None if they have no seat, or before the
    start), the seats computers hold and the clocks, in one statement."""
    found = store.game_for_move(pk, user.pk, events_wanted(pk))
    if found is None:
        raise NotFound(f"there is no game {pk}")
    return found


def action_submit(
    *,
    game: Game | int,
    user: User,
    action: Any,
    expected_seq: int,
    idempotency_key: str | None = None,
) -> ActionResult:
    """Append the user's action to the game, with whatever follows automatically.

    A repeated idempotency key returns the first answer and writes nothing. The
    checks go from the game to the user to the rules: a finished game (409), a
    stale ``expected_seq`` (409 with the current seq), not a player / not their
    seat / not their turn (403), then the engine (IllegalAction, 400).

    The game is read without a lock (its row, then its seats), and what the
    action appends is written in one statement only if the game is still at the
    seq it was read at (``Appender.commit``): no transaction is held across
    them. If
    something else was appended in between, nothing is written and the
    submission is judged again on the game as it now is, where its seq is stale
    (or its idempotency key is found).
    """
    pk = game.pk if isinstance(game, Game) else game
    try:
        with _savepoint_if_nested():
            return _judged_until_written(
                pk, lambda: _submit(pk, user, action, expected_seq, idempotency_key))
    except IntegrityError:
        # The key was used for an earlier action of this game (at another seq).
        used = Event.objects.filter(game_id=pk, idempotency_key=idempotency_key).exists()
        if idempotency_key is None or not used:
            raise
        raise Conflict(
            "this idempotency key was used for an earlier action; use a fresh key",
            code="idempotency_key_reused",
        ) from None


_ATTEMPTS = 8
"""How many times a submission is judged at most. A move overtaken between its
read and its write is judged again on the game as it now is, where its seq is
stale: twice in all. Only a choice the rules take at the same time as others'
(the rules' ``unaffected``) is still judged then, and may be overtaken again by
each other seat's choice (three at most, in a four-seat game)."""


def _savepoint_if_nested() -> AbstractContextManager[Any]:
    """A savepoint when called inside a transaction, so that a write the database
    refuses (a reused idempotency key) leaves that transaction usable; else
    nothing: a move's write is one statement, which commits on its own."""
    if transaction.get_connection().in_atomic_block:
        return transaction.atomic()
    return nullcontext()


def _submit(pk: int, user: User, action: Any, expected_seq: int,
            idempotency_key: str | None) -> ActionResult:
    read = _read_with_seat(pk, user)
    game, seat_index = read.game, read.seat
    behind = expected_seq != game.seq
    running = game.status == Game.Status.RUNNING
    rules = rules_of(game)
    # the state, rebuilt (or found) once: for a player of a running game, unless
    # the submission is more than a round behind it, or ahead of it
    state = game_state_get(game) if running and seat_index is not None and \
        (not behind or _within_a_round(game, expected_seq)) else None
    since: list[dict[str, Any]] | None = None
    if behind or not running:
        # A retry of an action that went through always arrives with a
        # stale seq: only then can its key have been seen before.
        earlier, since = _read_behind(game, rules, state, seat_index, expected_seq,
                                      idempotency_key)
        if earlier is not None:
            return _earlier_answer(game, earlier, user, action)
        check_running(game)
    if seat_index is None:
        if behind:
            raise StaleSeq(game.seq)
        raise Forbidden("you have no seat in this game", code="not_a_player")
    # behind, the seat's action still stands if the events since are other seats'
    # choices made at the same time, which leave its own as it was
    if behind and (since is None or not rules.unaffected(
            state, [rules.read_event(p) for p in since], seat_index)):
        raise StaleSeq(game.seq)
    leaving = {e["type"] for e in rules.resign(state, seat_index)}
    wait = rules.awaiting(state)
    sent = action.get("type") if isinstance(action, Mapping) else None
    if wait.chance is not None and sent not in leaving:  # a player may leave at any time
        # a task draws it right after the last commit
        raise Conflict(f"waiting for chance to decide {wait.chance}: fetch the "
                       "game again in a moment", code="awaiting_chance")
    event = _normalise_action(rules, action, seat_index,
                              player_types(rules, state, seat_index))
    if event["type"] not in leaving and seat_index not in wait.players:
        raise not_your_turn(rules, state)
    app = Appender(game, state, mover=seat_index, read=read)
    first = app.add(event, actor=user, key=idempotency_key)
    append_automatic(app, cause=first.seq)
    app.commit()
    result = app.result()
    if behind:  # the client holds the game at expected_seq: its answer is no change of that
        result.before = None
    return result


def _read_behind(game: Game, rules: AnyGame, state: Any, seat: int | None,
                 expected_seq: int, key: str | None
                 ) -> tuple[Event | None, list[dict[str, Any]] | None]:
    """What a submission behind the game (or on a game no longer running) is
    judged by, in one read at most: the event its idempotency key was used for,
    if any (a retry of an action that went through), and the payloads of the
    events since ``expected_seq`` if the seat's choice may still stand
    (``_may_be_unaffected``; else None, and the submission is stale). ``state``
    is the running game's; None if the game is not running, the user has no
    seat, or the submission is more than a round behind the game or ahead of it
    (``_within_a_round``)."""
    since = _may_be_unaffected(rules, state, seat)
    wanted = Q(idempotency_key=key) if key is not None else Q()
    if since:
        wanted |= Q(seq__gte=expected_seq, seq__lt=game.seq)
    if not wanted:
        return None, None
    rows = list(Event.objects.filter(wanted, game=game).order_by("seq"))
    earlier = next((e for e in rows if key is not None and e.idempotency_key == key), None)
    return earlier, ([e.payload for e in rows if expected_seq <= e.seq < game.seq]
                     if since else None)


def _within_a_round(game: Game, expected_seq: int) -> bool:
    """Whether an action made at ``expected_seq``, behind the game, is at most one
    event a seat behind it. Anything older is stale, and answered so without
    rebuilding the state or reading the events since."""
    return 0 < game.seq - expected_seq <= game.seat_count


def _may_be_unaffected(rules: AnyGame, state: Any, seat: int | None) -> bool:
    """Whether an action behind the running game (its ``state``, None where the
    action is stale whatever came since) may still be judged by the rules'
    ``unaffected``: its seat is still awaited."""
    return state is not None and seat in rules.awaiting(state).players


def game_resign(*, game: Game | int, user: User) -> ActionResult:
    """The user leaves a running game (the spec's resign event). The others play on;
    when one seat is left the game ends and it wins."""
    with transaction.atomic():
        game = game_lock(game)
        if game.status == Game.Status.OPEN:
            raise Conflict("the game has not started: leave it instead", code="game_not_running")
        check_running(game)
        seat = seat_of(game, user)
        if seat.resigned:
            raise Conflict("you have already resigned from this game", code="resigned")
        assert seat.index is not None  # a running game's seats have their indexes
        app = Appender(game, game_state_get(game))
        first = None
        for event in app.rules.resign(app.state, seat.index):
            row = app.add(dict(event), actor=user if first is None else None,
                          cause=None if first is None else first.seq)
            first = first or row
        append_automatic(app, cause=None if first is None else first.seq)
        app.commit()
        return app.result()
