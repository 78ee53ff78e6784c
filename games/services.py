"""Everything that changes a game: create, invite, join, leave, start, resign,
submit an action, draw chance, import a record.

How a change is written (the write path's contract; every hook's comment
refers here):

- A player's move (``action_submit``) is lock-free and guarded by the seq: it
  reads the game with no lock and no transaction (games.store.game_for_move),
  and writes everything it appends in one statement (games.store.Batch) that
  lands only if the game is still at the seq it read; otherwise nothing is
  written and the move is judged again on the game as it now is.
- The server's changes (chance, timeouts, resignations, joining, the start)
  are locked in a transaction: they hold the game row (``SELECT ... FOR
  UPDATE``) until they commit, and a move written meanwhile waits for the lock,
  then finds the game moved on and writes nothing.

Either way the events follow the seq they were judged at, so the event sequence
never has a gap and two changes made from the same seq never both land. The
engine judges every event before it is stored; what it refuses is never
written.

What hangs on a change runs as ``_Appender.commit`` writes it, on both paths
alike: the clocks (games.clocks.clocks_follow), the mail they call for
(games.mail), the computer players awaited (games.seating). So none of it may
count on a lock or a transaction, for a move holds neither. Each takes what it
needs from the change (the game, its seats, the events) and reads only what
the change has not: the game's clocks when a turn ends (games.store.game_clocks,
which says too whether a vacation touches them or a computer holds them), a
vacation's dates when one does, the seats' players when the first clocks are
made at the start. It writes by queuing its rows on the change's
``store.Batch``, written with the events or not at all, and leaves what must
follow the write (delivery, a computer's move) to ``Batch.after`` or
``transaction.on_commit``; none does I/O. Nothing else reaches the database
between a move's read and its write (tests/service/test_write_path.py).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from engine import fairness, registry
from engine.errors import BadOptions, IllegalAction, RecordError
from engine.protocol import AnyGame, read_options
from engine.replay import apply, read_record, replay_events
from games import clocks, snapshots, store
from games.mail import game_mail
from games.models import Event, Game, Invitation, Seat
from games.seating import seat_players
from games.selectors import (
    awaited_seats,
    awaiting_json,
    game_replay,
    game_state_get,
    not_your_turn,
    player_names,
    projection_of,
    rules_of,
)
from live import stream
from live.state_cache import states
from web.errors import Conflict, Forbidden, GameFinished, Invalid, NotFound, StaleSeq

# ---------------------------------------------------------------- appending events


@dataclass
class ActionResult:
    """What a submission appended: the player's event first, then the server's."""

    seq: int
    """The game's seq after the submission."""
    events: list[Event]
    awaiting: dict[str, Any]
    """What the game awaited right after (selectors.awaiting_json)."""
    status: str
    repeated: bool = False
    """True when the idempotency key matched an earlier submission: nothing was written."""
    game: Game | None = None
    """The game as the submission left it, with its seats, when its read had them
    (a player's move: games.store.game_for_move): what its answer shows, with no
    second read."""
    before: Any = None
    """The state the submission was made on, at seq ``base``: what the mover's
    client held, so that its answer may carry the changes since
    (live.changes). None for a repeated submission."""
    base: int = -1
    mover: int | None = None
    """The seat of the submission's player."""


@dataclass
class _Appender:
    """Events about to be appended to a game, with the state after them (the game
    locked, or read without a lock for a player's move: see the module)."""

    game: Game
    state: Any
    mover: int | None = None
    """The seat whose submission this is (None for the server's own events): its
    answer carries its view, the stream need not (live.stream)."""
    seats_read: bool = False
    """Whether the game came with its seats (``game.seats.all()`` asks nothing
    more): a player's move reads them with the game (games.store.game_for_move)."""
    computer_seats: frozenset[int] | None = None
    """The seats computers hold, when the game's read has them (a player's move:
    games.store.MoveRead); None, and what needs them asks."""
    rows: list[Event] = field(default_factory=list)
    _owned: bool = False
    base: int = -1
    before: Any = field(init=False)
    """The state the events are appended to (never mutated: ``add`` copies it)."""
    rules: AnyGame = field(init=False)
    awaited_before: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        self.before = self.state
        self.base = self.game.seq
        self.rules = rules_of(self.game)
        self.awaited_before = self.rules.awaiting(self.state).players

    @property
    def seq(self) -> int:
        """The seq of the next event: the game's seq once the queued events are in."""
        return self.base + len(self.rows)

    def add(
        self,
        event: dict[str, Any],
        *,
        actor: User | None = None,
        key: str | None = None,
        cause: int | None = None,
    ) -> Event:
        """Judge the event (IllegalAction if the rules refuse it) and queue it."""
        rules = self.rules
        if self._owned:  # our own copy: no need to copy again
            self.state = rules.fold(self.state, rules.read_event(event))
        else:
            self.state = apply(rules, self.state, rules.read_event(event))  # never a cached one
            self._owned = True
        row = Event(
            game=self.game,
            seq=self.seq,
            type=event["type"],
            payload=event,
            actor=actor,
            idempotency_key=key,
            cause_seq=cause,
        )
        self.rows.append(row)
        return row

    def commit(self) -> None:
        """Store the queued events, the game row, the clocks and the mails the
        events call for, in one round trip (games.store.Batch), only if the game is
        still at the seq they follow (``store.Stale`` otherwise, and nothing is
        written); then, after the commit, serve the new state and draw any chance
        it awaits."""
        game, state = self.game, self.state
        was_out = set((game.projection or {}).get("resigned") or ())
        game.seq = self.seq
        game.projection = projection_of(self.rules, state)
        finished = game.projection["finished"] and game.status != Game.Status.FINISHED
        if finished:
            game.status = Game.Status.FINISHED
            game.finished_at = timezone.now()
        writes = store.Batch()
        writes.insert(self.rows)
        writes.update(game, ["seq", "projection", "status", "finished_at"],
                      expect={"seq": self.base})
        # every time (it writes only flags that change): a flag left wrong, say by a
        # worker that ran older code, is put right by the game's next move
        awaited, out = awaited_seats(game), game.projection["resigned"]
        store.seats_awaited(writes, game.pk, awaited, resigned=out)
        change = clocks.clocks_follow(game, self.rows, state, awaited_before=self.awaited_before,
                                      now=timezone.now(), writes=writes,
                                      computer_seats=self.computer_seats)
        if change is not None:  # a turn has begun or ended: mail may be due
            game_mail().clocks_changed(game=game, events=self.rows, change=change, writes=writes)
        writes.run()
        if out and self.seats_read:  # the seats read show it too
            for seat in game.seats.all():
                seat.resigned = seat.resigned or seat.index in out
        # Only a committed state may be served to others.
        game_id, seq = game.pk, game.seq
        if finished:
            _after_commit_named("ratings.tasks.ratings_update", game_id)
        transaction.on_commit(lambda: states.put(game_id, seq, state), robust=True)
        for seat in sorted(set(out) - was_out):  # its player's streams of it end
            stream.seat_changed(game, seat, None)
        stream.publish_after_commit(game, seq, [s for s in awaited if s != self.mover])
        snapshots.game_snapshot_after_commit(game, self.base, self.rules, state)
        if game.projection["awaiting"]["kind"] == "chance":
            _draw_after_commit(game_id)
        # computer players awaited move
        seat_players().after_commit(game=game, computer_seats=self.computer_seats)

    def result(self) -> ActionResult:
        # Where tasks run in this process as the commit enqueues them (./dev run), a
        # computer's reply or a chance draw may follow before the answer is made: the
        # answer then reads the game again.
        from games import tasks  # the tasks call these services

        shown = self.seats_read and not tasks.run_inline()
        return ActionResult(seq=self.seq, events=self.rows,
                            awaiting=self.game.projection["awaiting"], status=self.game.status,
                            game=self.game if shown else None, before=self.before,
                            base=self.base, mover=self.mover)


def _draw_after_commit(game_id: int) -> None:
    """Have a task draw the chance event the game now waits for, as soon as the
    events that call for it are committed (see _append_automatic)."""
    from games import tasks  # the tasks call these services

    tasks.enqueue_on_commit(tasks.resolve_chance, game_id)


def _after_commit_named(task: str, *args: Any) -> None:
    """Have another app's task (by name) run once this commits."""
    from games import tasks

    tasks.enqueue_named_on_commit(task, *args)


def _append_automatic(app: _Appender, cause: int | None, *, draw: bool | None = None) -> None:
    """Append what follows by itself: chance events drawn from the game's seed, and
    the events the rules make by themselves (a pass forced on a player who can do
    nothing else). Chance is drawn here only with ``draw`` (by default
    settings.MARRAM_DRAW_INLINE); otherwise the game waits, and a task
    (games.tasks.resolve_chance, enqueued by _Appender.commit) calls chance_resolve
    once this commits."""
    if draw is None:
        draw = settings.MARRAM_DRAW_INLINE
    rules = app.rules
    while not rules.awaiting(app.state).finished:
        chance = rules.chance(app.state)
        if chance is not None:
            if not draw:
                return
            app.add(dict(fairness.draw_event(app.game.seed, app.seq, chance)), cause=cause)
            continue
        forced = rules.automatic(app.state)
        if forced is None:
            return
        app.add(dict(forced), cause=cause)


def _lock(game: Game | int) -> Game:
    pk = game.pk if isinstance(game, Game) else game
    try:
        return Game.objects.select_for_update().get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound(f"there is no game {pk}") from None


def _seat_of(game: Game, user: User) -> Seat:
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise Forbidden("you have no seat in this game", code="not_a_player")
    return seat


def _check_running(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise GameFinished("the game is over: fetch its record at /record/", seq=game.seq)
    if game.status != Game.Status.RUNNING:
        raise Conflict(
            f"the game is {game.status}: moves begin once every seat is taken",
            code="game_not_running",
        )


def chance_resolve(game: Game | int) -> list[Event]:
    """Append the chance events now due (drawn from the seed) and any automatic
    events that follow them: what the task resolve_chance does after a move leaves
    the game waiting for chance. Idempotent: only what is due is appended."""
    with transaction.atomic():
        game = _lock(game)
        if game.status != Game.Status.RUNNING:
            return []
        app = _Appender(game, game_state_get(game))
        _append_automatic(app, cause=None, draw=True)
        if app.rows:
            app.commit()
        return app.rows


def game_timeout(
    *, game: Game | int, seat: int, expected_seq: int, resign: bool = False
) -> ActionResult | None:
    """The seat ran out of time: append the rules' timeout events (the server's: no
    actor), and with ``resign`` its resignation too. Nothing (None) if the game has
    moved on from ``expected_seq`` or no longer waits for that seat."""
    with transaction.atomic():
        game = _lock(game)
        if game.seq != expected_seq or game.status != Game.Status.RUNNING:
            return None
        state = game_state_get(game)
        rules = rules_of(game)
        if seat not in rules.awaiting(state).players:
            return None
        app = _Appender(game, state)
        first = None
        for event in rules.timeout(state, seat):
            row = app.add(dict(event), cause=None if first is None else first.seq)
            first = first or row
        if first is None:
            return None
        if resign and not rules.awaiting(app.state).finished:
            for event in rules.resign(app.state, seat):
                app.add(dict(event), cause=first.seq)
        _append_automatic(app, cause=first.seq)
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
    start) and the seats computers hold. Two statements: the game, then its
    seats."""
    found = store.game_for_move(pk, user.pk)
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
    seq it was read at (``_Appender.commit``): no transaction is held across
    them. If
    something else was appended in between, nothing is written and the
    submission is judged again on the game as it now is, where its seq is stale
    (or its idempotency key is found).
    """
    pk = game.pk if isinstance(game, Game) else game
    try:
        with _savepoint_if_nested():
            for _ in range(_ATTEMPTS - 1):
                try:
                    return _submit(pk, user, action, expected_seq, idempotency_key)
                except store.Stale:  # read again: the game is past expected_seq
                    pass
            try:
                return _submit(pk, user, action, expected_seq, idempotency_key)
            except store.Stale:
                raise StaleSeq(store.game_seq(pk) or 0) from None
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
(``_choice_unaffected``) is still judged then, and may be overtaken again by
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
    game, seat_index, computer_seats = _read_with_seat(pk, user)
    behind = expected_seq != game.seq
    if behind or game.status != Game.Status.RUNNING:
        # A retry of an action that went through always arrives with a
        # stale seq: only then can its key have been seen before.
        if idempotency_key is not None:
            earlier = Event.objects.filter(game=game, idempotency_key=idempotency_key)
            if (earlier_event := earlier.first()) is not None:
                return _earlier_answer(game, earlier_event, user, action)
        _check_running(game)
    if seat_index is None:
        if behind:
            raise StaleSeq(game.seq)
        raise Forbidden("you have no seat in this game", code="not_a_player")
    if behind and not _choice_unaffected(game, seat_index, expected_seq):
        raise StaleSeq(game.seq)
    state = game_state_get(game)
    rules = rules_of(game)
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
    app = _Appender(game, state, mover=seat_index, seats_read=True,
                    computer_seats=computer_seats)
    first = app.add(event, actor=user, key=idempotency_key)
    _append_automatic(app, cause=first.seq)
    app.commit()
    result = app.result()
    if behind:  # the client holds the game at expected_seq: its answer is no change of that
        result.before = None
    return result


def _choice_unaffected(game: Game, seat: int, expected_seq: int) -> bool:
    """Whether an action made at ``expected_seq``, behind the game, may still be
    judged: the events since are other seats' choices made at the same time,
    which leave this seat's as it was (the rules' ``unaffected``). At most one
    event a seat since: anything older is stale, and answered so without reading
    the game's state or its events."""
    since = game.seq - expected_seq
    if not 0 < since <= game.seat_count:
        return False
    rules, state = rules_of(game), game_state_get(game)
    payloads = Event.objects.filter(game_id=game.pk, seq__gte=expected_seq, seq__lt=game.seq
                                    ).order_by("seq").values_list("payload", flat=True)
    return rules.unaffected(state, [rules.read_event(p) for p in payloads], seat)


def game_resign(*, game: Game | int, user: User) -> ActionResult:
    """The user leaves a running game (the spec's resign event). The others play on;
    when one seat is left the game ends and it wins."""
    with transaction.atomic():
        game = _lock(game)
        if game.status == Game.Status.OPEN:
            raise Conflict("the game has not started: leave it instead", code="game_not_running")
        _check_running(game)
        seat = _seat_of(game, user)
        if seat.resigned:
            raise Conflict("you have already resigned from this game", code="resigned")
        assert seat.index is not None  # a running game's seats have their indexes
        app = _Appender(game, game_state_get(game))
        first = None
        for event in app.rules.resign(app.state, seat.index):
            row = app.add(dict(event), actor=user if first is None else None,
                          cause=None if first is None else first.seq)
            first = first or row
        _append_automatic(app, cause=None if first is None else first.seq)
        app.commit()
        return app.result()


# ---------------------------------------------------------------- before the start


def game_create(
    *,
    user: User,
    seats: int,
    game: str | None = None,
    options: Mapping[str, Any] | None = None,
    days_per_move: int | None = None,
    invite: Sequence[str] = (),
    url_for: Callable[[str], str] | None = None,
    **more_options: Any,
) -> Game:
    """A new open game of ``game`` (a registry key; the registry's default game
    without one) with its creator in the first seat. ``options`` are the game's
    declared options (defaults filled in; keyword arguments the service does not
    take are options too). With ``invite``, the invitations to those addresses too
    (see game_invite; ``url_for`` makes their links), in the same transaction: the
    game and its invitations, or nothing."""
    try:
        rules = registry.default() if game is None else registry.get(game)
    except registry.UnknownGame as e:
        raise Invalid(str(e), code="unknown_game", field="game") from None
    try:
        chosen = read_options(rules, {**(options or {}), **more_options}, seats)
    except BadOptions as e:
        raise Invalid(str(e), code="bad_config") from None
    if invite and url_for is None:
        raise ValueError("invitations need url_for to make their links")
    with transaction.atomic():
        _check_open_games(user)
        created = Game.objects.create(
            game=rules.key,
            options=chosen,
            seat_count=seats,
            days_per_move=days_per_move,
            created_by=user,
            rules_version=rules.rules_version,
        )
        Seat.objects.create(game=created, user=user, name=user.get_username())
        if invite and url_for is not None:  # (checked above: invitations have url_for)
            game_invite(game=created, user=user, emails=list(invite), url_for=url_for)
    return created


def _check_open_games(user: User) -> None:
    """Refuse a new game to a player who has started MARRAM_MAX_OPEN_GAMES games that
    still wait for players. Their user row stays locked until the transaction ends,
    so that simultaneous requests count one after the other (FOR NO KEY UPDATE: rows
    that only refer to the user, such as seats and events, do not wait for it)."""
    limit = settings.MARRAM_MAX_OPEN_GAMES
    list(get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk)
         .values_list("pk", flat=True))
    if Game.objects.filter(created_by=user, status=Game.Status.OPEN).count() >= limit:
        raise Conflict(
            f"you have started {limit} games that are still waiting for players, the most "
            "one player may have: wait until one of them starts, or leave one that "
            "nobody else has joined, before starting another",
            code="too_many_open_games",
            limit=limit,
        )


def invitation_refusal(invitation: Invitation, user: User) -> str:
    """Why ``user`` may not take the seat of this invitation, in words; '' if they
    may. A personal invitation is for its addressee alone, as a challenge on
    lichess or an invitation on Board Game Arena is: one by username for that
    player, one by mail for the account with that address (the person it was sent
    to, whatever account they held or make); a link to pass on is anybody's."""
    inviter = invitation.created_by.get_username()
    if invitation.invitee_id is not None and invitation.invitee_id != user.pk:
        invitee = invitation.invitee
        assert invitee is not None  # its id is set
        return (f"this invitation is for {invitee.get_username()}, and you are "
                f"signed in as {user.get_username()}: sign in as "
                f"{invitee.get_username()} to take the seat, or ask {inviter} "
                "for an invitation of your own")
    if invitation.email and not _same_address(invitation.email, user):
        return ("this invitation was mailed to another address than your account's: take it "
                "from the account with that address (or give this account that address in "
                f"your settings), or ask {inviter} for an invitation of your own")
    return ""


def _same_address(email: str, user: User) -> bool:
    return email.strip().lower() == user.email.strip().lower()


def _personal_invitation(game: Game, user: User) -> Invitation | None:
    """The user's own invitation to the game not answered yet (by username, or to
    their address), if any."""
    mine = Invitation.objects.filter(game=game, accepted_by__isnull=True)
    found = mine.filter(invitee=user).first()
    address = user.email.strip()
    if found is None and address:
        found = mine.filter(invitee__isnull=True, email__iexact=address).first()
    return found


def game_join(*, game: Game | int, user: User, token: str | None = None) -> Game:
    """Take a seat in an open game; the game starts when the last seat is taken.
    With an invitation's ``token``: only as its addressee (``invitation_refusal``)
    and if nobody has used it; a player who joins without one answers their own
    invitation to the game, if they had one."""
    with transaction.atomic():
        game = _lock(game)
        invitation = None
        if token is not None:
            invitation = Invitation.objects.with_token(token).filter(game=game).first()
            if invitation is None:
                raise NotFound("this invitation does not exist for this game", code="bad_token")
            if invitation.accepted_by_id not in (None, user.pk):
                raise Conflict("this invitation has been used", code="invitation_used")
            refusal = invitation_refusal(invitation, user)
            if refusal:
                raise Forbidden(refusal, code="not_the_invitee")
        else:
            invitation = _personal_invitation(game, user)
        if game.status != Game.Status.OPEN:
            raise Conflict(f"the game is {game.status}: only open games can be joined",
                           code="game_not_open")
        if game.seats.filter(user=user).exists():
            raise Conflict("you already have a seat in this game", code="already_joined")
        taken = game.seats.count()
        if taken >= game.seat_count:
            raise Conflict("every seat is taken", code="game_full")
        Seat.objects.create(game=game, user=user, name=user.get_username())
        if invitation is not None and invitation.accepted_by_id is None:
            invitation.accepted_by = user
            invitation.accepted_at = timezone.now()
            invitation.save(update_fields=["accepted_by", "accepted_at"])
        if taken + 1 == game.seat_count:
            game_start(game)
    return game


def invitation_accept(*, token: str, user: User) -> Game:
    invitation = Invitation.objects.with_token(token).first()
    if invitation is None:
        raise NotFound("there is no such invitation", code="bad_token")
    return game_join(game=invitation.game_id, user=user, token=token)


def game_leave(*, game: Game | int, user: User) -> Game:
    """Give up a seat before the start; a game no person is left in (computer
    players aside) is abandoned."""
    with transaction.atomic():
        game = _lock(game)
        if game.status != Game.Status.OPEN:
            raise Conflict("the game has started: resign instead", code="game_not_open")
        _seat_of(game, user).delete()
        if not game.seats.filter(user__bot__isnull=True).exists():
            game.status = Game.Status.ABANDONED
            game.save(update_fields=["status"])
    return game


def game_start(game: Game) -> None:
    """Draw the seat order and the seed, publish the commitment, deal. The caller
    holds the game row locked and every seat is taken."""
    seats = list(game.seats.select_related("user"))
    secrets.SystemRandom().shuffle(seats)
    for index, seat in enumerate(seats):
        assert seat.user is not None  # an open game's seats are taken by accounts
        seat.index = index
        seat.name = seat.user.get_username()
    Seat.objects.bulk_update(seats, ["index", "name"])
    seed = fairness.new_seed()
    rules = rules_of(game)
    game.seed = seed
    game.commitment = fairness.commitment(seed)
    game.config = rules.setup(game.options, [s.name for s in seats], seed)
    game.status = Game.Status.RUNNING
    game.started_at = timezone.now()
    game.save(update_fields=["seed", "commitment", "config", "status", "started_at"])
    app = _Appender(game, rules.start(game.config))
    _append_automatic(app, cause=None)
    app.commit()


@dataclass
class Invited:
    invitation: Invitation
    url: str


def game_invite(
    *,
    game: Game | int,
    user: User,
    emails: list[str],
    url_for: Callable[[str], str],
    invitees: Sequence[User] = (),
) -> list[Invited]:
    """Invite people to an open game: by email (each address is mailed a join link,
    through games.mail: the notifications outbox), by username (``invitees``: each
    a join link of their own, which the ratings app mails them) or, with neither,
    one join link to pass on. A personal invitation is its addressee's alone
    (``invitation_refusal``)."""
    with transaction.atomic():
        game = _lock(game)
        _seat_of(game, user)
        if game.status != Game.Status.OPEN:
            raise Conflict("only an open game takes invitations", code="game_not_open")
        invited = []
        addressed = [(email, None) for email in emails] + [("", p) for p in invitees]
        for email, invitee in addressed or [("", None)]:
            invitation = Invitation.objects.create(
                game=game, email=email, invitee=invitee, token=secrets.token_urlsafe(24),
                created_by=user,
            )
            invited.append(Invited(invitation, url_for(invitation.token)))
        game_mail().invitations_made(game=game, user=user, invited=invited)
    return invited


# ---------------------------------------------------------------- projections and imports


def projection_rebuild(game: Game | int) -> list[str]:
    """Recompute what is stored beside the events (the game's seq, its projection,
    which seats have resigned and which it awaits) by replaying it from zero; what
    it changed, in words (empty if nothing).

    The seq is the number of events (their seqs run 0, 1, ... with no gap: the
    database's unique seq and the guarded writes keep them so); a row whose seq
    disagrees, say one written back from an old read, is set to it first, so that
    the replay and the next move start from the last event."""
    with transaction.atomic():
        game = _lock(game)
        changes = []
        last = Event.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True)
        last_seq = last.first()
        count = 0 if last_seq is None else last_seq + 1
        if count != game.seq:
            changes.append(f"seq {game.seq} -> {count}")
            game.seq = count
            game.save(update_fields=["seq"])
        if game.config is None:
            return changes + _projection_set(game, {})
        replay = game_replay(game)
        if replay.error is not None:
            raise Invalid(
                f"game {game.pk}: event {replay.error_index} is refused by the engine: "
                f"{replay.error.message}",
                code="bad_record",
            )
        fresh = projection_of(rules_of(game), replay.state)
        finished = fresh["finished"] and game.status == Game.Status.RUNNING
        changes += _projection_set(game, fresh)
        if finished:  # the events end the game: so does its row
            game.status, game.finished_at = Game.Status.FINISHED, timezone.now()
            game.save(update_fields=["status", "finished_at"])
            changes.append("status running -> finished")
        resigned = fresh["resigned"]
        seats = game.seats.exclude(index=None)
        awaited = awaited_seats(game)
        for flag, wanted in (("awaited", awaited), ("resigned", resigned)):
            on = seats.filter(index__in=wanted, **{flag: False}).update(**{flag: True})
            off = seats.exclude(index__in=wanted).filter(**{flag: True}).update(**{flag: False})
            if on or off:
                changes.append(f"{flag} seats now {sorted(wanted)}")
        return changes


def _projection_set(game: Game, fresh: dict[str, Any]) -> list[str]:
    if fresh == game.projection:
        return []
    keys = sorted(k for k in set(fresh) | set(game.projection)
                  if fresh.get(k) != game.projection.get(k))
    game.projection = fresh
    game.save(update_fields=["projection"])
    return [f"projection ({', '.join(keys)})"]


def _own_types(rules: AnyGame, start: Any, events: list[Any]) -> set[str]:
    """The event types of a record that are its players' own (not the server's)."""
    if rules.action_fields:
        return set(rules.action_fields)
    drawn: set[str] = set()
    state = rules.copy(start)
    for raw in events:
        chance = rules.chance(state)
        if chance is not None:
            drawn |= {o["type"] for o, _ in chance.outcomes}
        state = rules.fold(state, rules.read_event(raw))
    seats = len(player_names(rules, start))
    timeouts = {e["type"] for s in range(seats) for e in rules.timeout(start, s)}
    return set(rules.event_types) - drawn - timeouts


def _record_events(rules: AnyGame, events: list[Any]) -> list[Any]:
    """A record's events as the store keeps them (the rules' normalise_event);
    RecordError for one with a field its type does not have, as for a move
    (nothing is stripped)."""
    normal = []
    for i, event in enumerate(events):
        try:
            kept = rules.normalise_event(event) if isinstance(event, Mapping) else None
        except IllegalAction as e:
            raise RecordError(f"event {i}: {e.message}") from None
        normal.append(event if kept is None else kept)
    return normal


def _import_accounts(accounts: Any, names: list[str]) -> dict[str, User]:
    """The accounts an import links players to: ``accounts`` maps a player's name
    in the record to a username here. A name alone links nothing: the same name on
    another server is not the same person."""
    if accounts is None:
        return {}
    if not isinstance(accounts, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in accounts.items()):
        raise Invalid("'accounts' maps player names to usernames: {\"name\": \"username\"}",
                      code="bad_accounts", field="accounts")
    problems = [f"{name!r} is not a player of this game" for name in accounts
                if name not in names]
    problems += [f"{name!r} plays more than one seat: it cannot be one account"
                 for name in accounts if names.count(name) > 1]
    if len(set(accounts.values())) != len(accounts):
        problems.append("an account can play only one seat")
    found = {u.get_username(): u for u in get_user_model().objects.filter(
        **{f"{get_user_model().USERNAME_FIELD}__in": list(accounts.values())})}
    problems += [f"there is no account {username!r} (for {name!r})"
                 for name, username in accounts.items() if username not in found]
    if problems:
        raise Invalid("the accounts to link the players to do not fit", code="bad_accounts",
                      field="accounts", problems=problems)
    return {name: found[username] for name, username in accounts.items()}


def game_import(*, record: Any, user: User,
                accounts: Mapping[str, str] | None = None) -> Game:
    """Store a finished game from a record that reveals its seed, once the record
    is shown to replay and to follow from the committed seed.

    Seats (and the players' events) are linked to accounts here only through
    ``accounts``, {name in the record: username}, which a record for the API may
    carry as its "accounts" key; the others keep their names and no account."""
    if accounts is None and isinstance(record, Mapping) and "accounts" in record:
        accounts = record["accounts"]
        record = {key: value for key, value in record.items() if key != "accounts"}
    try:
        parsed = read_record(record)
        rules = parsed.game
        events = _record_events(rules, parsed.events)
        seed, published = fairness.seed_from_record(record)
        problems = fairness.verify(rules, record, seed, published)
    except ValueError as e:  # RecordError, or a seed that is not hex
        raise Invalid(f"not an importable record: {e}", code="bad_record",
                      problems=[str(e)]) from None
    if problems:
        raise Invalid("the record does not follow from its seed", code="unfair_record",
                      problems=problems)
    start = rules.start(parsed.config)
    replay = replay_events(rules, start, events)
    if replay.error is not None:  # verify reports it too; kept for a clear message
        raise Invalid("the record does not replay", code="bad_record",
                      problems=[f"event {replay.error_index}: {replay.error.message}"])
    state = replay.state
    if not rules.awaiting(state).finished:
        raise Invalid("only finished games can be imported", code="bad_record",
                      problems=["the game is not finished"])
    now = timezone.now()
    names = player_names(rules, start)
    users = _import_accounts(accounts, names)
    seat_users = [users.get(name) for name in names]
    projection = projection_of(rules, state)
    # a player's own events are linked to their account; the server's are nobody's
    own = _own_types(rules, start, events)
    with transaction.atomic():
        game = Game.objects.create(
            game=rules.key,
            options=rules.options(start),
            seat_count=len(names),
            status=Game.Status.FINISHED,
            created_by=user,
            started_at=now,
            finished_at=now,
            rules_version=rules.rules_version,
            seed=seed,
            commitment=published,
            config=rules.config(start),
            seq=len(events),
            projection=projection,
        )
        for index, name in enumerate(names):
            Seat.objects.create(game=game, user=seat_users[index], name=name, index=index,
                                resigned=index in projection["resigned"])
        Event.objects.bulk_create(
            Event(
                game=game,
                seq=i,
                type=event["type"],
                payload=event,
                actor=seat_users[event["player"]]
                if event["type"] in own and isinstance(event.get("player"), int) else None,
            )
            for i, event in enumerate(events)
        )
    return game
