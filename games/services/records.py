"""What is rebuilt from a game's events or imported with them: the projection
beside the events, and a finished game from a record that reveals its seed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from engine import fairness
from engine.errors import IllegalAction, RecordError
from engine.protocol import AnyGame
from engine.replay import read_record, replay_events
from games.models import Event, Game, Seat
from games.selectors import (
    awaited_seats,
    game_replay,
    player_names,
    projection_of,
    rules_of,
)
from games.services.append import (
    game_lock,
)
from web.errors import Invalid


def projection_rebuild(game: Game | int) -> list[str]:
    """Recompute what is stored beside the events (the game's seq, its projection,
    which seats have resigned and which it awaits) by replaying it from zero; what
    it changed, in words (empty if nothing).

    The seq is the number of events (their seqs run 0, 1, ... with no gap: the
    database's unique seq and the guarded writes keep them so); a row whose seq
    disagrees, say one written back from an old read, is set to it first, so that
    the replay and the next move start from the last event."""
    with transaction.atomic():
        game = game_lock(game)
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
