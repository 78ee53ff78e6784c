"""Appending events to a game: what every change to a game goes through
(games.services.moves, .lobby and .records make the changes).

How a change is written (the write path's contract; every hook's comment
refers here):

- A player's move (``action_submit``) and the chance a move leaves to draw
  (``chance_resolve``) are lock-free and guarded by the seq: each reads the
  game with no lock and no transaction (games.store.game_for_move), and writes
  everything it appends in one statement (games.store.Batch) that lands only
  if the game is still at the seq it read; otherwise nothing is written and the
  change is judged again on the game as it now is.
- The server's other changes (timeouts, resignations, joining, the start) are
  locked in a transaction: they hold the game row (``SELECT ... FOR UPDATE``)
  until they commit, and a move or draw written meanwhile waits for the lock,
  then finds the game moved on and writes nothing.

Either way the events follow the seq they were judged at, so the event sequence
never has a gap and two changes made from the same seq never both land. The
engine judges every event before it is stored; what it refuses is never
written.

What hangs on a change runs as ``Appender.commit`` writes it, on both paths
alike: the clocks (games.clocks.clocks_follow) and the change's followers
(games.after_move: the mail it calls for, the ratings of a game it ended, the
computer players it leaves to move, the chance it leaves to draw). So none of
it may count on a lock or a transaction, for a move holds neither. The clocks
read only what the change has not: the game's clocks when a server change ends
a turn (games.store.game_clocks, which says too whether a vacation touches them
or a computer holds them; a move and a draw read them with the game), a
vacation's dates when one does, the seats' players when the first clocks are
made at the start; the followers read nothing. They give
rows, written in the change's ``store.Batch`` with the events or not at all,
and tasks, enqueued once the change is committed; none does I/O. Nothing else
reaches the database between a move's read and its write
(tests/service/test_write_path.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from engine import fairness
from engine.protocol import AnyGame
from engine.replay import apply
from games import clocks, snapshots, store
from games.after_move import Follower, Moved, followers
from games.enqueue import run_inline, tasks_enqueue
from games.models import Event, Game, Seat
from games.selectors import awaited_seats, projection_of, rules_of
from live import stream
from live.state_cache import states
from web.errors import Conflict, Forbidden, GameFinished, NotFound


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
class Appender:
    """Events about to be appended to a game, with the state after them (the game
    locked, or read without a lock for a player's move: see the module)."""

    game: Game
    state: Any
    mover: int | None = None
    """The seat whose submission this is (None for the server's own events): its
    answer carries its view, the stream need not (live.stream)."""
    read: store.MoveRead | None = None
    """The move's read of the game (a player's move, a draw:
    games.store.game_for_move), whose seats (``game.seat_list()`` asks nothing
    more), computers' seats and clocks the change uses; None (a server change),
    and what needs them asks."""
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
        """Store the queued events, the game row, the seats' flags, the clocks and
        the rows the change's followers give (games.after_move: the mail it calls
        for), in one round trip (games.store.Batch), only if the game is still at
        the seq they follow (``store.Stale`` otherwise, and nothing is written);
        then, after the commit, serve the new state, tell the open pages, and
        enqueue the tasks the followers ask for (the chance to draw, the ratings,
        the computer players' moves)."""
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
                                      read=None if self.read is None else self.read.clocks)
        moved = Moved(game=game, events=tuple(self.rows), clocks=change, finished=finished,
                      computer_seats=None if self.read is None else self.read.computer_seats)
        followed = [(follower, list(follower.rows(moved))) for follower in followers()]
        for _, rows in followed:
            for model in dict.fromkeys(type(row) for row in rows):  # a statement a model
                writes.insert([row for row in rows if type(row) is model])
        writes.run()
        if out and self.read is not None:  # the seats read show it too
            for seat in game.seat_list():
                seat.resigned = seat.resigned or seat.index in out
        # Only a committed state may be served to others.
        game_id, seq = game.pk, game.seq
        transaction.on_commit(lambda: states.put(game_id, seq, state), robust=True)
        for seat in sorted(set(out) - was_out):  # its player's streams of it end
            stream.seat_changed(game, seat, None)
        stream.publish_after_commit(game, seq, [s for s in awaited if s != self.mover])
        snapshots.game_snapshot_after_commit(game, self.base, self.rules, state)
        for follower, rows in followed:
            transaction.on_commit(partial(_enqueue_tasks, follower, moved, rows), robust=True)

    def result(self) -> ActionResult:
        # Where tasks run in this process as the commit enqueues them (./dev run), a
        # computer's reply or a chance draw may follow before the answer is made: the
        # answer then reads the game again.
        shown = self.read is not None and not run_inline()
        return ActionResult(seq=self.seq, events=self.rows,
                            awaiting=self.game.projection["awaiting"], status=self.game.status,
                            game=self.game if shown else None, before=self.before,
                            base=self.base, mover=self.mover)


def _enqueue_tasks(follower: Follower, moved: Moved, rows: Sequence[Any]) -> None:
    """Enqueue the tasks a follower asks for once the change is committed."""
    tasks_enqueue(follower.tasks(moved, rows))


def append_automatic(app: Appender, cause: int | None, *, draw: bool | None = None) -> None:
    """Append what follows by itself: chance events drawn from the game's seed, and
    the events the rules make by themselves (a pass forced on a player who can do
    nothing else). Chance is drawn here only with ``draw`` (by default
    settings.MARRAM_DRAW_INLINE); otherwise the game waits, and a task
    (games.tasks.resolve_chance, which the follower games.tasks.ChanceDraw
    enqueues once this commits) calls chance_resolve
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


def game_lock(game: Game | int) -> Game:
    pk = game.pk if isinstance(game, Game) else game
    try:
        return Game.objects.select_for_update().get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound(f"there is no game {pk}") from None


def seat_of(game: Game, user: User) -> Seat:
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise Forbidden("you have no seat in this game", code="not_a_player")
    return seat


def check_running(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise GameFinished("the game is over: fetch its record at /record/", seq=game.seq)
    if game.status != Game.Status.RUNNING:
        raise Conflict(
            f"the game is {game.status}: moves begin once every seat is taken",
            code="game_not_running",
        )
