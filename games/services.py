"""Everything that changes a game: create, invite, join, leave, start, resign,
submit an action, draw chance, import a record.

Every change to a running game appends events, in one transaction holding the
game row (``SELECT ... FOR UPDATE``), so concurrent submissions are applied
one after the other and the event sequence never has a gap. The engine judges
every event before it is stored; what it refuses is never written.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from engine import marram as engine
from engine.marram import fairness
from engine.marram.game import first_placement
from engine.marram.state import GameState
from games import rawsql
from games.batch import Batch
from games.errors import Conflict, Forbidden, GameFinished, Invalid, NotFound, NotYourTurn, StaleSeq
from games.models import Event, Game, Invitation, Seat
from games.selectors import game_state_get, projection_of
from games.signals import events_appended, invitations_created
from games.state_cache import states

# What a player may submit, and the fields each kind of action has. Chance events
# and timeouts are the server's to append.
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "place": ("type", "player", "tile", "face", "at", "rotation", "claim"),
    "flip": ("type", "player", "at", "rotation", "claim"),
    "pass": ("type", "player"),
    "guess": ("type", "player", "creature", "hops"),
    "resign": ("type", "player"),
}


# ---------------------------------------------------------------- appending events


@dataclass
class ActionResult:
    """What a submission appended: the player's event first, then the server's."""

    seq: int
    """The game's seq after the submission."""
    events: list[Event]
    awaiting: dict[str, Any]
    """What the game awaited right after (engine.awaiting)."""
    status: str
    repeated: bool = False
    """True when the idempotency key matched an earlier submission: nothing was written."""


@dataclass
class _Appender:
    """Events about to be appended to a locked game, with the state after them."""

    game: Game
    state: GameState
    rows: list[Event] = field(default_factory=list)
    _owned: bool = False
    base: int = -1

    def __post_init__(self) -> None:
        self.base = self.game.seq

    @property
    def seq(self) -> int:
        """The seq of the next event: the game's seq once the queued events are in."""
        return self.base + len(self.rows)

    def add(
        self,
        event: dict[str, Any],
        *,
        actor: AbstractBaseUser | None = None,
        key: str | None = None,
        cause: int | None = None,
    ) -> Event:
        """Judge the event (IllegalAction if the rules refuse it) and queue it."""
        if self._owned:
            engine.step(self.state, event)  # our own copy: no need to copy again
        else:
            self.state = engine.apply(self.state, event)  # never touch a cached state
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
        """Store the queued events and bring the game row up to date, with whatever
        the receivers of events_appended write, in one round trip (games.batch)."""
        game, state = self.game, self.state
        game.seq = self.seq
        game.projection = projection_of(state)
        if state.finished and game.status != Game.Status.FINISHED:
            game.status = Game.Status.FINISHED
            game.finished_at = timezone.now()
        writes = Batch()
        _queue_events_and_game(game, self.rows, writes)
        events_appended.send(sender=Game, game=game, events=self.rows, state=state,
                             writes=writes)
        writes.run()
        resigned = [e.payload["player"] for e in self.rows if e.type == "resign"]
        if resigned:
            game.seats.filter(index__in=resigned).update(resigned=True)
        # Only a committed state may be served to others.
        game_id, seq = game.pk, game.seq
        transaction.on_commit(lambda: states.put(game_id, seq, state))
        if game.projection["awaiting"]["kind"] == "chance":
            _draw_after_commit(game_id)

    def result(self) -> ActionResult:
        return ActionResult(seq=self.seq, events=self.rows, awaiting=engine.awaiting(self.state),
                            status=self.game.status)


def _queue_events_and_game(game: Game, rows: list[Event], writes: Batch) -> None:
    """Queue the events (their ``created_at`` set as they are written) and the game
    row's update."""
    writes.insert(rows)
    writes.update(game, ["seq", "projection", "status", "finished_at"])


def _draw_after_commit(game_id: int) -> None:
    """Have a task draw the fly or the frog the game now waits for, as soon as the
    events that call for it are committed (see _append_automatic)."""
    from games import tasks  # the tasks call these services

    tasks.enqueue_on_commit(tasks.resolve_chance, game_id)


def _forced_pass(state: GameState) -> dict[str, Any] | None:
    """The pass the player to move must make when nothing else is legal."""
    wait = engine.awaiting(state)
    if wait["kind"] != "move":
        return None
    if first_placement(state, wait["player"]) is not None:
        return None  # a quick way to the usual answer: some tile fits, so no pass
    only_pass = {"type": "pass", "player": wait["player"]}
    return only_pass if engine.legal_actions(state) == [only_pass] else None


def _append_automatic(app: _Appender, cause: int | None, *, draw: bool | None = None) -> None:
    """Append what follows by itself: chance events drawn from the game's seed,
    and passes forced on a player who can do nothing else. Chance is drawn here
    only with ``draw`` (by default settings.MARRAM_DRAW_INLINE); otherwise the game
    waits for the fly, and a task (games.tasks.resolve_chance, enqueued by
    _Appender.commit) calls chance_resolve once this commits."""
    if draw is None:
        draw = settings.MARRAM_DRAW_INLINE
    while not app.state.finished:
        odds = engine.chance_odds(app.state)
        if odds is not None:
            if not draw:
                return
            outcome = fairness.draw(app.game.seed, app.seq, odds)
            app.add(engine.chance_event(app.state, outcome), cause=cause)
            continue
        forced = _forced_pass(app.state)
        if forced is None:
            return
        app.add(forced, cause=cause)


def _lock(game: Game | int) -> Game:
    pk = game.pk if isinstance(game, Game) else game
    try:
        return Game.objects.select_for_update().get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound(f"there is no game {pk}") from None


def _seat_of(game: Game, user: AbstractBaseUser) -> Seat:
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise Forbidden("you have no seat in this game", code="not_a_player")
    return seat


def _check_running(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise GameFinished("the game is over: fetch its record at /record/")
    if game.status != Game.Status.RUNNING:
        raise Conflict(
            f"the game is {game.status}: moves begin once every seat is taken",
            code="game_not_running",
        )


def chance_resolve(game: Game | int) -> list[Event]:
    """Append the chance events now due (drawn from the seed) and any forced passes
    that follow them: what the task resolve_chance does after a move leaves the game
    waiting for the fly or the frog. Idempotent: only what is due is appended."""
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
    """The seat ran out of time: append the spec's timeout event (the server's: no
    actor), and with ``resign`` its resignation too. Nothing (None) if the game has
    moved on from ``expected_seq`` or no longer waits for that seat."""
    with transaction.atomic():
        game = _lock(game)
        if game.seq != expected_seq or game.status != Game.Status.RUNNING:
            return None
        state = game_state_get(game)
        if engine.awaiting(state)["player"] != seat:
            return None
        app = _Appender(game, state)
        first = app.add({"type": "timeout", "player": seat})
        if resign and not app.state.finished:
            app.add({"type": "resign", "player": seat}, cause=first.seq)
        _append_automatic(app, cause=first.seq)
        app.commit()
        return app.result()


def _normalise_action(action: Any, seat: int) -> dict[str, Any]:
    if not isinstance(action, Mapping):
        raise Invalid("'action' must be an object such as {\"type\": \"pass\"}", field="action")
    kind = action.get("type")
    if kind not in ACTION_FIELDS:
        raise Invalid(
            f"'action.type' must be one of {', '.join(ACTION_FIELDS)}, got {kind!r}",
            code="not_a_player_action",
            field="action.type",
        )
    unknown = sorted(set(action) - set(ACTION_FIELDS[kind]))
    if unknown:
        raise Invalid(
            f"unknown field(s) in a {kind} action: {', '.join(unknown)}; a {kind} has "
            f"{', '.join(ACTION_FIELDS[kind])}",
            code="unknown_field",
            field=f"action.{unknown[0]}",
        )
    player = action.get("player", seat)
    if player != seat:
        raise Forbidden(
            f"you play seat {seat}, not {player!r}: leave 'player' out or send {seat}",
            code="not_your_seat",
        )
    event = {k: action[k] for k in ACTION_FIELDS[kind] if k in action}
    event["player"] = seat
    if kind in ("place", "flip"):
        event.setdefault("claim", None)
    return event


def _earlier_answer(
    game: Game, first: Event, user: AbstractBaseUser, action: Any
) -> ActionResult:
    if first.actor_id != user.pk:
        raise Conflict(
            "this idempotency key was used by another player; use a fresh key",
            code="idempotency_key_reused",
        )
    try:
        again = _normalise_action(action, first.payload.get("player"))
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
    config = engine.config_from_json(game.config)
    payloads = Event.objects.filter(game=game, seq__lt=seq).order_by("seq")
    then = engine.record.replay_events(config, list(payloads.values_list("payload", flat=True)))
    status = Game.Status.FINISHED if then.state.finished else Game.Status.RUNNING
    return ActionResult(seq=seq, events=rows, awaiting=engine.awaiting(then.state),
                        status=status, repeated=True)


# One round trip on the hot path: the game row, locked, and the user's seat in it.
_LOCK_WITH_SEAT = (
    'SELECT {game_columns}, s."index" AS seat_index FROM games_game g LEFT JOIN games_seat s '
    "ON s.game_id = g.id AND s.user_id = %s WHERE g.id = %s FOR UPDATE OF g"
)


def _lock_with_seat(game: Game | int, user: AbstractBaseUser) -> tuple[Game, int | None]:
    """Lock the game row; the user's seat index (None if they have no seat, or
    before the start)."""
    pk = game.pk if isinstance(game, Game) else game
    if connection.vendor != "postgresql":  # FOR UPDATE OF is PostgreSQL's
        locked = _lock(pk)
        index = locked.seats.filter(user=user).values_list("index", flat=True).first()
        return locked, index
    sql = _LOCK_WITH_SEAT.format(game_columns=rawsql.columns(Game, "g"))
    rows = rawsql.fetch(Game, sql, [user.pk, pk])
    if not rows:
        raise NotFound(f"there is no game {pk}")
    return rows[0], rows[0].seat_index


def action_submit(
    *,
    game: Game | int,
    user: AbstractBaseUser,
    action: Any,
    expected_seq: int,
    idempotency_key: str | None = None,
) -> ActionResult:
    """Append the user's action to the game, with whatever follows automatically.

    A repeated idempotency key returns the first answer and writes nothing. The
    checks go from the game to the user to the rules: a finished game (409), a
    stale ``expected_seq`` (409 with the current seq), not a player / not their
    seat / not their turn (403), then the engine (IllegalAction, 400).
    """
    pk = game.pk if isinstance(game, Game) else game
    try:
        with transaction.atomic():
            game, seat_index = _lock_with_seat(pk, user)
            if expected_seq != game.seq or game.status != Game.Status.RUNNING:
                # A retry of an action that went through always arrives with a
                # stale seq: only then can its key have been seen before.
                if idempotency_key is not None:
                    earlier = Event.objects.filter(game=game, idempotency_key=idempotency_key)
                    if (earlier_event := earlier.first()) is not None:
                        return _earlier_answer(game, earlier_event, user, action)
                _check_running(game)
                raise StaleSeq(game.seq)
            if seat_index is None:
                raise Forbidden("you have no seat in this game", code="not_a_player")
            event = _normalise_action(action, seat_index)
            state = game_state_get(game)
            if event["type"] != "resign":  # a player may leave at any time
                wait = engine.awaiting(state)
                if wait["kind"] == "chance":  # a task draws it right after the last commit
                    raise Conflict(f"waiting for the {wait['creature']} to {wait['event']}: "
                                   "fetch the game again in a moment", code="awaiting_chance")
                if wait["player"] != seat_index:
                    raise NotYourTurn.waiting_for(wait, state.config.players)
            app = _Appender(game, state)
            first = app.add(event, actor=user, key=idempotency_key)
            _append_automatic(app, cause=first.seq)
            app.commit()
            return app.result()
    except IntegrityError:
        # The key was used for an earlier action of this game (at another seq).
        used = Event.objects.filter(game_id=pk, idempotency_key=idempotency_key).exists()
        if idempotency_key is None or not used:
            raise
        raise Conflict(
            "this idempotency key was used for an earlier action; use a fresh key",
            code="idempotency_key_reused",
        ) from None


def game_resign(*, game: Game | int, user: AbstractBaseUser) -> ActionResult:
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
        app = _Appender(game, game_state_get(game))
        first = app.add({"type": "resign", "player": seat.index}, actor=user)
        _append_automatic(app, cause=first.seq)
        app.commit()
        return app.result()


# ---------------------------------------------------------------- before the start


def game_create(
    *,
    user: AbstractBaseUser,
    variant: str,
    length: str,
    seats: int,
    days_per_move: int | None = None,
    invite: Sequence[str] = (),
    url_for: Callable[[str], str] | None = None,
) -> Game:
    """A new open game with its creator in the first seat; with ``invite``, the
    invitations to those addresses too (see game_invite; ``url_for`` makes their
    links), in the same transaction: the game and its invitations, or nothing."""
    try:
        engine.rules_for(variant, length, seats)
    except ValueError as e:
        raise Invalid(str(e), code="bad_config") from None
    if invite and url_for is None:
        raise ValueError("invitations need url_for to make their links")
    with transaction.atomic():
        _check_open_games(user)
        game = Game.objects.create(
            variant=variant,
            length=length,
            seat_count=seats,
            days_per_move=days_per_move,
            created_by=user,
            rules_version=engine.RULES_VERSION,
        )
        Seat.objects.create(game=game, user=user, name=user.get_username())
        if invite:
            game_invite(game=game, user=user, emails=list(invite), url_for=url_for)
    return game


def _check_open_games(user: AbstractBaseUser) -> None:
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


def game_join(*, game: Game | int, user: AbstractBaseUser, token: str | None = None) -> Game:
    """Take a seat in an open game; the game starts when the last seat is taken."""
    with transaction.atomic():
        game = _lock(game)
        invitation = None
        if token is not None:
            invitation = Invitation.objects.filter(game=game, token=token).first()
            if invitation is None:
                raise NotFound("this invitation does not exist for this game", code="bad_token")
            if invitation.accepted_by_id not in (None, user.pk):
                raise Conflict("this invitation has been used", code="invitation_used")
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


def invitation_accept(*, token: str, user: AbstractBaseUser) -> Game:
    invitation = Invitation.objects.filter(token=token).first()
    if invitation is None:
        raise NotFound("there is no such invitation", code="bad_token")
    return game_join(game=invitation.game_id, user=user, token=token)


# ---------------------------------------------------------------- accounts


def user_email_change(*, user: AbstractBaseUser, email: str) -> str:
    """Send the user's mail to a new address, which replies by mail must then come
    from too; the address as stored. The caller has checked the user's password."""
    address = get_user_model().objects.normalize_email(email.strip())
    try:
        validate_email(address)
    except ValidationError:
        raise Invalid(f"{email!r} is not an email address", field="email") from None
    if address.lower() == (getattr(user, "email", "") or "").lower():
        raise Invalid("that is already your address", field="email", code="unchanged")
    user.email = address  # type: ignore[attr-defined]
    user.save(update_fields=["email"])
    return address


def game_leave(*, game: Game | int, user: AbstractBaseUser) -> Game:
    """Give up a seat before the start; a game nobody is left in is abandoned."""
    with transaction.atomic():
        game = _lock(game)
        if game.status != Game.Status.OPEN:
            raise Conflict("the game has started: resign instead", code="game_not_open")
        _seat_of(game, user).delete()
        if not game.seats.exists():
            game.status = Game.Status.ABANDONED
            game.save(update_fields=["status"])
    return game


def game_start(game: Game) -> None:
    """Draw the seat order and the seed, publish the commitment, deal. The caller
    holds the game row locked and every seat is taken."""
    seats = list(game.seats.select_related("user"))
    secrets.SystemRandom().shuffle(seats)
    for index, seat in enumerate(seats):
        seat.index = index
        seat.name = seat.user.get_username()
    Seat.objects.bulk_update(seats, ["index", "name"])
    seed = fairness.new_seed()
    deck = fairness.deck_from_seed(seed, engine.standard().deck_ids())
    config = engine.make_config(game.variant, game.length, [s.name for s in seats], deck=deck)
    game.seed = seed
    game.commitment = fairness.commitment(seed)
    game.config = engine.config_to_json(config)
    game.status = Game.Status.RUNNING
    game.started_at = timezone.now()
    game.save(update_fields=["seed", "commitment", "config", "status", "started_at"])
    app = _Appender(game, engine.new_game(config))
    _append_automatic(app, cause=None)
    app.commit()


@dataclass
class Invited:
    invitation: Invitation
    url: str


def game_invite(
    *,
    game: Game | int,
    user: AbstractBaseUser,
    emails: list[str],
    url_for: Callable[[str], str],
) -> list[Invited]:
    """Invite people to an open game: by email (each address is mailed a join link,
    by whoever receives ``invitations_created``: the notifications outbox) or, with
    no addresses, one join link to pass on."""
    with transaction.atomic():
        game = _lock(game)
        _seat_of(game, user)
        if game.status != Game.Status.OPEN:
            raise Conflict("only an open game takes invitations", code="game_not_open")
        invited = []
        for email in emails or [""]:
            invitation = Invitation.objects.create(
                game=game, email=email, token=secrets.token_urlsafe(24), created_by=user
            )
            invited.append(Invited(invitation, url_for(invitation.token)))
        invitations_created.send(sender=Game, game=game, user=user, invited=invited)
    return invited


# ---------------------------------------------------------------- projections and imports


def projection_rebuild(game: Game | int) -> bool:
    """Recompute what is stored beside the events (the game's projection and which
    seats have resigned) by replaying it from zero; True if any of it changed."""
    from games.selectors import game_replay

    with transaction.atomic():
        game = _lock(game)
        if game.config is None:
            return _projection_set(game, {})
        replay = game_replay(game)
        if replay.error is not None:
            raise Invalid(
                f"game {game.pk}: event {replay.error_index} is refused by the engine: "
                f"{replay.error.message}",
                code="bad_record",
            )
        changed = _projection_set(game, projection_of(replay.state))
        resigned = sorted(replay.state.resigned)
        seats = game.seats.exclude(index=None)
        changed |= bool(seats.filter(index__in=resigned, resigned=False).update(resigned=True))
        changed |= bool(seats.exclude(index__in=resigned).filter(resigned=True)
                        .update(resigned=False))
        return changed


def _projection_set(game: Game, fresh: dict[str, Any]) -> bool:
    if fresh == game.projection:
        return False
    game.projection = fresh
    game.save(update_fields=["projection"])
    return True


PLAYER_EVENT_TYPES = frozenset(ACTION_FIELDS)


def _import_accounts(accounts: Any, names: list[str]) -> dict[str, AbstractBaseUser]:
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


def game_import(*, record: Any, user: AbstractBaseUser,
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
        parsed = engine.parse_record(record)
        seed, published = fairness.seed_from_record(record)
        if parsed.config.catalogue.name != "standard":
            raise engine.RecordError("only games on the standard catalogue can be imported")
        problems = fairness.verify(record, seed, published, engine.standard().deck_ids())
    except ValueError as e:  # RecordError, or a seed that is not hex
        raise Invalid(f"not an importable record: {e}", code="bad_record",
                      problems=[str(e)]) from None
    if problems:
        raise Invalid("the record does not follow from its seed", code="unfair_record",
                      problems=problems)
    replay = engine.record.replay_events(parsed.config, parsed.events)
    if replay.error is not None:  # verify reports it too; kept for a clear message
        raise Invalid("the record does not replay", code="bad_record",
                      problems=[f"event {replay.error_index}: {replay.error.message}"])
    state = replay.state
    if not state.finished:
        raise Invalid("only finished games can be imported", code="bad_record",
                      problems=["the game is not finished"])
    config = parsed.config
    now = timezone.now()
    names = list(config.players)
    users = _import_accounts(accounts, names)
    seat_users = [users.get(name) for name in names]
    with transaction.atomic():
        game = Game.objects.create(
            variant=config.variant,
            length=config.length,
            seat_count=len(names),
            status=Game.Status.FINISHED,
            created_by=user,
            started_at=now,
            finished_at=now,
            rules_version=engine.RULES_VERSION,
            seed=seed,
            commitment=published,
            config=engine.config_to_json(config),
            seq=len(parsed.events),
            projection=projection_of(state),
        )
        for index, name in enumerate(names):
            Seat.objects.create(game=game, user=seat_users[index], name=name, index=index,
                                resigned=index in state.resigned)
        Event.objects.bulk_create(
            Event(
                game=game,
                seq=i,
                type=event["type"],
                payload=event,
                actor=seat_users[event["player"]] if event["type"] in PLAYER_EVENT_TYPES
                else None,
            )
            for i, event in enumerate(parsed.events)
        )
    return game
