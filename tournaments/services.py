"""Everything that changes a tournament: create, join, leave, start, pair a round,
record a game's result, withdraw a player, finish; and the sweep that catches up
on what is due.

Each change is judged here, then appended to the tournament's log
(tournaments.log) with the tournament's row locked, and the projection stored
beside it is the fold of the whole log. Games are made through
games.services.game_start_seated, so a tournament's games are games like any
other: the same clocks, mail, computer players and ratings. The games app tells
of a game's end by enqueuing ``tournaments.tasks.tournament_game_ended`` (its one
call, games.services.game_ended_hooks); the sweep finds any whose task was lost.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from bots.accounts import bot_accounts
from bots.models import Level
from engine import fairness, registry
from engine.errors import BadOptions
from engine.protocol import read_options
from games import services as game_services
from games.models import Game, Seat
from ratings.models import Rating
from ratings.services import game_standings, rated_choice_set
from tournaments import log, mail
from tournaments.log import State
from tournaments.models import Tournament, TournamentEvent, TournamentGame
from tournaments.pairing import Pairing
from tournaments.scoring import shown
from web.errors import Conflict, Forbidden, Invalid, NotFound

MAX_ROUNDS = 20
ROUND_ROBIN_MAX_PLAYERS = 20
"""A round robin starts all its games at once: 190 for 20 players at tables of two."""
MAX_BEST_OF = 7
MAX_DAYS = 60
NAME_MAX = 80


# ---------------------------------------------------------------- the log


def events_of(tournament: Tournament) -> list[dict[str, Any]]:
    return list(TournamentEvent.objects.filter(tournament=tournament).order_by("seq")
                .values_list("payload", flat=True))


def state_of(tournament: Tournament) -> State:
    return log.fold(events_of(tournament))


def _lock(tournament: Tournament | int) -> Tournament:
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    found = Tournament.objects.select_for_update().filter(pk=pk).first()
    if found is None:
        raise NotFound(f"there is no tournament {pk}", code="no_such_tournament")
    return found


def _append(tournament: Tournament, state: State, *events: dict[str, Any]) -> State:
    """Append events (already judged) to the locked tournament's log, and store the
    projection of the state after them."""
    rows: list[TournamentEvent] = []
    for event in events:
        event = {**event, "v": log.VERSION}
        rows.append(TournamentEvent(tournament=tournament, seq=tournament.seq + len(rows),
                                    type=event["type"], payload=event))
        log.evolve(state, event)
    TournamentEvent.objects.bulk_create(rows)
    tournament.seq += len(rows)
    tournament.status = state.status
    tournament.projection = projection(state)
    tournament.save(update_fields=["seq", "status", "projection"])
    return state


def projection(state: State) -> dict[str, Any]:
    """What the pages and the API show of a tournament, all of it from the log."""
    rows = log.standings(state)
    return {
        "status": state.status,
        "entrants": [{"user": p, "name": n, "computer": p in state.computers}
                     for p, n in state.entrants.items()],
        "seeding": [{"user": p, "name": state.entrants.get(p, ""),
                     "rating": state.ratings.get(p)} for p in state.seeding],
        "withdrawn": {str(p): r for p, r in state.withdrawn.items()},
        "rounds": [{
            "round": rnd.number, "deadline": rnd.deadline, "byes": list(rnd.byes),
            "tables": [{"table": t.number, "part": t.part, "players": list(t.players),
                        "games": list(t.games),
                        "places": {str(g): {str(p): pl for p, pl in places.items()}
                                   for g, places in t.places.items()}}
                       for t in rnd.tables]}
            for rnd in state.rounds],
        "standings": [{"user": r.player, "rank": r.rank, "points": shown(r.points),
                       "tie_breaks": [shown(b) for b in r.tie_breaks], "games": r.games,
                       "wins": r.wins} for r in rows],
        "winner": log.winner(state),
        "why": state.why,
    }


# ---------------------------------------------------------------- before the start


def _int(value: Any, name: str, low: int, high: int, *, optional: bool = False) -> int | None:
    if optional and value in (None, ""):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"{name} is a whole number from {low} to {high}", field=name)
    number: int = value
    if not low <= number <= high:
        raise Invalid(f"{name} is a whole number from {low} to {high}, not {number}",
                      field=name)
    return number


def _check_daily_limit(user: User) -> None:
    """At most MARRAM_TOURNAMENTS_PER_DAY created in 24 hours; the user's row stays
    locked so that simultaneous requests count one after the other."""
    limit = settings.MARRAM_TOURNAMENTS_PER_DAY
    list(get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk)
         .values_list("pk", flat=True))
    since = timezone.now() - timedelta(days=1)
    if Tournament.objects.filter(created_by=user, created_at__gte=since).count() >= limit:
        raise Conflict(f"you have created {limit} tournaments in the last 24 hours, the most "
                       "one player may: try again tomorrow", code="too_many_tournaments",
                       limit=limit)


def tournament_create(*, user: User, name: Any, game: Any, format: Any, table_size: Any = 2,
                      options: Any = None, rounds: Any = None, best_of: Any = 1,
                      days_per_move: Any = None, round_days: Any = None, rated: Any = True,
                      by_invitation: Any = False, invited: Any = (), max_players: Any = 8,
                      start_at: Any = None, bots: Any = "", now: datetime | None = None
                      ) -> Tournament:
    """A new tournament, its creator its first entrant. Every option is checked
    (Invalid, 400, naming the field; nothing written)."""
    now = now or timezone.now()
    if not isinstance(name, str) or not name.strip():
        raise Invalid("give the tournament a name", field="name")
    name = " ".join(name.split())[:NAME_MAX]
    if not isinstance(game, str):
        raise Invalid("game is a game's key, such as \"marram\"", field="game")
    try:
        rules = registry.get(game)
    except registry.UnknownGame as e:
        raise Invalid(str(e), code="unknown_game", field="game") from None
    if format not in Tournament.Format.values:
        raise Invalid(f"format is one of {', '.join(Tournament.Format.values)}",
                      field="format")
    size = _int(table_size, "table_size", 2, 4)
    assert size is not None
    if options is not None and not isinstance(options, dict):
        raise Invalid("options is an object of the game's options", field="options")
    try:
        chosen = read_options(rules, options or {}, size)
    except BadOptions as e:
        raise Invalid(str(e), code="bad_config", field="table_size") from None
    if format == Tournament.Format.KNOCKOUT and size > 2:
        # snake seeding makes tables of every size from 2 up as the field shrinks
        short = [n for n in range(2, size) if n not in rules.seat_counts]
        if short:
            raise Invalid(f"a knockout of tables of {size} plays tables of {short[0]} as the "
                          f"field shrinks, and {rules.title} is not for {short[0]} players",
                          code="bad_config", field="table_size")
    limit = settings.MARRAM_TOURNAMENT_MAX_PLAYERS
    if format == Tournament.Format.ROUND_ROBIN:
        limit = min(limit, ROUND_ROBIN_MAX_PLAYERS)  # every game of it starts at once
    most = _int(max_players, "max_players", size, limit)
    assert most is not None
    rounds = _int(rounds, "rounds", 1, MAX_ROUNDS) if format == Tournament.Format.SWISS else None
    best = _int(best_of, "best_of", 1, MAX_BEST_OF) if format == "knockout" else 1
    if best is not None and best % 2 == 0:
        raise Invalid("best_of is odd (1, 3, 5 or 7): a match must be decided",
                      field="best_of")
    days = _int(days_per_move, "days_per_move", 1, 30, optional=True)
    calendar = _int(round_days, "round_days", 1, MAX_DAYS, optional=True)
    if calendar is not None and format != Tournament.Format.SWISS:
        raise Invalid("only a Swiss's rounds run on a calendar: a round robin plays every "
                      "game at once, a knockout waits for each match", field="round_days")
    if not isinstance(rated, bool) or not isinstance(by_invitation, bool):
        raise Invalid("rated and by_invitation are true or false", field="rated")
    if bots not in ("", None, *Level.values):
        raise Invalid(f"bots is empty or a computer level: {', '.join(Level.values)}",
                      field="bots")
    if isinstance(start_at, str) and start_at:
        from django.utils.dateparse import parse_datetime

        try:
            parsed = parse_datetime(start_at)
        except ValueError:
            parsed = None
        if parsed is None:
            raise Invalid("start_at is a date and time (ISO 8601)", field="start_at")
        start_at = parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)
    if start_at in ("", None):
        start_at = None
    elif not isinstance(start_at, datetime):
        raise Invalid("start_at is a date and time (ISO 8601)", field="start_at")
    elif start_at <= now:
        raise Invalid("start_at is in the future", field="start_at")
    guests = _invited(invited, user) if by_invitation else []
    seed = fairness.new_seed()
    with transaction.atomic():
        _check_daily_limit(user)
        tournament = Tournament.objects.create(
            name=name, game=rules.key, options=chosen, format=format, table_size=size,
            rounds=rounds, best_of=best or 1, days_per_move=days, round_days=calendar,
            rated=rated, by_invitation=by_invitation, max_players=most, start_at=start_at,
            bots=bots or "", created_by=user, seed=seed, commitment=fairness.commitment(seed))
        state = State()
        _append(tournament, state, {
            "type": "created", "name": name, "game": rules.key, "options": chosen,
            "format": format, "table_size": size, "rounds": rounds, "best_of": best or 1,
            "days_per_move": days, "round_days": calendar, "rated": rated,
            "by_invitation": by_invitation, "invited": guests, "max_players": most,
            "start_at": start_at.isoformat() if start_at else None, "bots": bots or "",
            "creator": user.pk, "commitment": tournament.commitment})
        _join(tournament, state, user)
    return tournament


def _invited(invited: Any, user: User) -> list[int]:
    if not isinstance(invited, (list, tuple)) or not all(isinstance(n, str) for n in invited):
        raise Invalid("invited is a list of usernames", field="invited")
    names = sorted({n.strip() for n in invited if n.strip()})
    if len(names) > settings.MARRAM_TOURNAMENT_MAX_PLAYERS:
        raise Invalid("too many usernames", field="invited")
    found = dict(get_user_model().objects.filter(username__in=names)
                 .values_list("username", "pk"))
    missing = [n for n in names if n not in found]
    if missing:
        raise Invalid(f"nobody here is called {missing[0][:40]!r}", code="no_such_player",
                      field="invited")
    return sorted({*found.values(), user.pk})


def _join(tournament: Tournament, state: State, user: User) -> State:
    state = _append(tournament, state, {"type": "joined", "user": user.pk,
                                        "name": user.get_username()})
    if tournament.start_at is None and len(state.entrants) >= tournament.max_players:
        state = _start(tournament, state)
    return state


def tournament_join(*, tournament: Tournament | int, user: User) -> Tournament:
    with transaction.atomic():
        tournament = _lock(tournament)
        state = state_of(tournament)
        if state.status != "open":
            raise Conflict(f"the tournament is {state.status}: only an open tournament takes "
                           "entrants", code="tournament_not_open")
        if user.pk in state.entrants:
            raise Conflict("you have already joined this tournament", code="already_joined")
        if hasattr(user, "bot"):
            raise Forbidden("computer players join only to fill places at the start",
                            code="computer_player")
        if state.config.get("by_invitation") and user.pk not in state.config["invited"]:
            raise Forbidden("this tournament is by invitation, and you are not invited: ask "
                            "its creator", code="not_invited")
        if len(state.entrants) >= tournament.max_players:
            raise Conflict("the tournament is full", code="tournament_full")
        _join(tournament, state, user)
    return tournament


def tournament_leave(*, tournament: Tournament | int, user: User) -> Tournament:
    with transaction.atomic():
        tournament = _lock(tournament)
        state = state_of(tournament)
        if state.status != "open":
            raise Conflict("the tournament has started: you can leave only before the start "
                           "(resign your games instead)", code="tournament_not_open")
        if user.pk not in state.entrants:
            raise Conflict("you have not joined this tournament", code="not_joined")
        _append(tournament, state, {"type": "left", "user": user.pk})
    return tournament


def tournament_start(*, tournament: Tournament | int, user: User) -> Tournament:
    """The creator starts an open tournament now, with the entrants it has."""
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.created_by_id != user.pk:
            raise Forbidden("only the tournament's creator may start it", code="not_the_creator")
        state = state_of(tournament)
        if state.status != "open":
            raise Conflict(f"the tournament is {state.status}", code="tournament_not_open")
        if len(state.entrants) < _fewest(tournament) and not tournament.bots:
            raise Conflict(f"a tournament of tables of {tournament.table_size} starts with "
                           f"{_fewest(tournament)} entrants at least", code="too_few_entrants")
        _start(tournament, state)
    return tournament


def _fewest(tournament: Tournament) -> int:
    """The fewest entrants a tournament starts with: one table's."""
    return tournament.table_size


def _seed_key(seed: str, user_id: int) -> str:
    return hashlib.sha256(f"marram-tournament:{seed}:{user_id}".encode()).hexdigest()


def seeding_of(tournament: Tournament, users: Sequence[int]) -> list[dict[str, Any]]:
    """The entrants by rating in the tournament's game (the rating shown, mu - 3
    sigma; an unrated player's is that of a new rating), best first; equal ratings in
    an order drawn from the tournament's seed."""
    held = {r.user_id: r.ordinal for r in Rating.objects.filter(
        pool=tournament.game, user_id__in=users)}
    fresh = Rating()
    ratings = {u: round(held.get(u, fresh.ordinal), 3) for u in users}
    return [{"user": u, "rating": ratings[u]}
            for u in seeding_of_ratings(tournament.seed, ratings)]


def seeding_of_ratings(seed: str, ratings: Mapping[int, float]) -> list[int]:
    """Players by rating, best first; equal ratings in an order drawn from the seed."""
    return sorted(ratings, key=lambda u: (-ratings[u], _seed_key(seed, u)))


def _start(tournament: Tournament, state: State) -> State:
    if tournament.bots:
        short = tournament.max_players - len(state.entrants)
        for account in bot_accounts([tournament.bots] * max(short, 0)):
            state = _append(tournament, state, {
                "type": "joined", "user": account.pk, "name": account.get_username(),
                "computer": tournament.bots})
    if len(state.entrants) < _fewest(tournament):
        return _append(tournament, state, {
            "type": "cancelled",
            "why": f"{len(state.entrants)} entrants at the start, fewer than the "
                   f"{_fewest(tournament)} it needs"})
    state = _append(tournament, state, {"type": "started",
                                        "seeding": seeding_of(tournament,
                                                              list(state.entrants))})
    return _pair_next(tournament, state)


# ---------------------------------------------------------------- rounds


def _pair_next(tournament: Tournament, state: State, now: datetime | None = None) -> State:
    """Pair the next round and start its games; or finish the tournament."""
    found = log.next_pairing(state)
    if found is None:
        state = _append(tournament, state, {"type": "finished", "seed": tournament.seed})
        mail.tournament_over(tournament, state)
        return state
    return _start_round(tournament, state, found, now or timezone.now())


def _start_round(tournament: Tournament, state: State, found: Pairing, now: datetime
                 ) -> State:
    number = len(state.rounds) + 1
    users = get_user_model().objects.in_bulk(
        [p for t in found.tables for p in t.players])
    tables = []
    for i, table in enumerate(found.tables, start=1):
        if len(set(table.players)) != len(table.players):  # never: the pairings' own rule
            raise ValueError(f"a table seats a player twice: {table.players}")
        games = []
        for g in range(tournament.best_of):
            # a match's games alternate the seat order
            seated = table.players if g % 2 == 0 else table.players[::-1]
            game = game_services.game_start_seated(
                game=tournament.game, options=tournament.options,
                players=[users[p] for p in seated], days_per_move=tournament.days_per_move,
                created_by=tournament.created_by)
            # rated even with a computer player at the table, or not even between people
            rated_choice_set(game=game, rated=tournament.rated)
            TournamentGame.objects.create(tournament=tournament, game=game, round=number,
                                          table=i)
            games.append(game.pk)
        tables.append({"table": i, "players": list(table.players), "part": table.part,
                       "games": games})
    deadline = (now + timedelta(days=tournament.round_days)).isoformat() \
        if tournament.round_days else None
    state = _append(tournament, state, {
        "type": "round_paired", "round": number, "tables": tables, "byes": list(found.byes),
        "slots": [list(s) for s in found.slots], "deadline": deadline})
    mail.round_started(tournament, state, state.rounds[-1])
    if not tables:  # byes only: no game will end it, so it is over at once
        return _pair_next(tournament, state, now)
    return state


def places_in(game: Game) -> tuple[list[list[int]], list[int]]:
    """A finished game's places by player ([user, place] pairs) and the players who
    resigned or ran out of time: from the game's own standings."""
    users = dict(Seat.objects.filter(game=game).values_list("index", "user_id"))
    places = [[int(users[s.seat]), s.rank] for s in game_standings(game)]
    out = [int(users[s]) for s in (game.projection or {}).get("resigned") or ()]
    return sorted(places), sorted(out)


def tournament_game_ended(game_id: int) -> bool:
    """A game has finished: record its result in its tournament (if it is a
    tournament's and not recorded yet), withdraw who is due, and pair the next round
    when this one is over. True if it recorded anything. Safe to run twice."""
    table = TournamentGame.objects.filter(game_id=game_id).first()
    if table is None:
        return False
    with transaction.atomic():
        tournament = _lock(table.tournament_id)
        state = state_of(tournament)
        return _record(tournament, state, game_id)


def _record(tournament: Tournament, state: State, game_id: int) -> bool:
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    found = state.table_of_game(game_id)
    if game is None or found is None or game_id in found[1].places \
            or state.status != "running":
        return False
    places, out = places_in(game)
    rnd, _ = found
    state = _append(tournament, state, {"type": "result_recorded", "round": rnd.number,
                                        "game": game_id, "places": places, "out": out})
    due = log.withdrawals_due(state)
    if due:
        state = _append(tournament, state, *({"type": "withdrawn", "user": p, "round": r}
                                              for p, r in due))
        _resign_withdrawn(tournament, state, [p for p, _ in due])
    if state.status == "running" and state.rounds[-1].done:
        _pair_next(tournament, state)
    return True


def _resign_withdrawn(tournament: Tournament, state: State, players: list[int]) -> None:
    """Resign the withdrawn players' games of this tournament still running (each
    ends, or plays on without them, by its own rules; their results come back here
    as any game's)."""
    running = Seat.objects.filter(
        user_id__in=players, resigned=False, game__status=Game.Status.RUNNING,
        game__tournament_table__tournament=tournament).select_related("user")
    for seat in running:
        assert seat.user is not None
        transaction.on_commit(functools.partial(_resign_later, seat.game_id, seat.user),
                              robust=True)


def _resign_later(game_id: int, user: User) -> None:
    with contextlib.suppress(Conflict):  # the game ended meanwhile
        game_services.game_resign(game=game_id, user=user)


def tournaments_sweep(now: datetime | None = None) -> dict[str, int]:
    """What is due: tournaments whose start date has come, Swiss rounds whose
    calendar deadline has passed, and finished games whose result is not recorded
    (their task lost)."""
    now = now or timezone.now()
    done = {"started": 0, "rounds": 0, "results": 0}
    for pk in Tournament.objects.filter(status=Tournament.Status.OPEN, start_at__lte=now
                                        ).values_list("pk", flat=True):
        with transaction.atomic():
            tournament = _lock(pk)
            state = state_of(tournament)
            if state.status == "open":
                _start(tournament, state)
                done["started"] += 1
    for pk, stored in Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list(
            "pk", "projection"):
        recorded = {int(g) for r in (stored or {}).get("rounds", []) for t in r["tables"]
                    for g in t["places"]}
        lost = TournamentGame.objects.filter(tournament_id=pk,
                                             game__status=Game.Status.FINISHED
                                             ).exclude(game_id__in=recorded)
        for game_id in lost.values_list("game_id", flat=True):
            with transaction.atomic():
                tournament = _lock(pk)
                done["results"] += _record(tournament, state_of(tournament), game_id)
        with transaction.atomic():
            tournament = _lock(pk)
            state = state_of(tournament)
            # the last round's deadline pairs nothing: the tournament ends with its games
            if state.status == "running" and state.rounds and _overdue(state, now) \
                    and log.next_pairing(state) is not None:
                _pair_next(tournament, state, now)
                done["rounds"] += 1
    return done


def _overdue(state: State, now: datetime) -> bool:
    last = state.rounds[-1]
    return (not last.done and last.deadline is not None
            and datetime.fromisoformat(last.deadline) <= now)


def result_key(places: Mapping[int, int]) -> list[list[int]]:
    return sorted([p, pl] for p, pl in places.items())
