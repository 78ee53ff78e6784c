"""Reads: game lists, the state of a game as one user may see it, its events, its
record. Nothing here writes, and nothing here lets the deck order, the seed or
a future draw out of a game that is still running."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import Prefetch, QuerySet

from engine import marram as engine
from engine.marram.record import FORMAT, VERSION
from engine.marram.state import GameState
from games import rawsql
from games.errors import Conflict, Forbidden, GameFinished, Invalid, NotFound, NotYourTurn
from games.models import Event, Game, Invitation, Seat
from games.state_cache import states

# ---------------------------------------------------------------- state


def projection_of(state: GameState) -> dict[str, Any]:
    """The few facts of a state that game lists show."""
    return {
        "scores": list(state.scores),
        "current": None if state.finished else state.current,
        "awaiting": engine.awaiting(state),
        "winners": list(state.winners),
        "finished": state.finished,
        "resigned": sorted(state.resigned),
        "tiles_on_board": len(state.board),
    }


def _events_of(game: Game, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
    rows = Event.objects.filter(game_id=game.pk, seq__gte=start)
    if stop is not None:
        rows = rows.filter(seq__lt=stop)
    return list(rows.order_by("seq").values_list("payload", flat=True))


def game_replay(game: Game) -> engine.Replay:
    """The game's first ``game.seq`` events replayed from zero through the current
    engine; no cache involved. Only up to the row's seq: a move committed since the
    row was read is not part of the game this row describes."""
    return engine.record.replay_events(engine.config_from_json(game.config),
                                       _events_of(game, 0, game.seq))


def game_state_get(game: Game) -> GameState:
    """The state after the game's ``game.seq`` events. Never mutate it."""
    if game.config is None:
        raise Conflict("the game has not started", code="game_not_running")
    seq = game.seq
    state = states.get(game.pk, seq)
    if state is not None:
        states.hits += 1
        return state
    base = states.latest_before(game.pk, seq)
    if base is not None:
        state = _catch_up(game, *base)
    if state is None:
        states.misses += 1
        replay = game_replay(game)
        if replay.error is not None:
            raise RuntimeError(
                f"game {game.pk} does not replay: event {replay.error_index} is refused "
                f"({replay.error.code}: {replay.error.message}); run manage.py verify_game"
            )
        state = replay.state
        if state.events != seq:
            raise RuntimeError(f"game {game.pk} has {state.events} events but seq {seq}")
    else:
        states.catch_ups += 1
    states.put(game.pk, seq, state)
    return state


def _catch_up(game: Game, since: int, state: GameState) -> GameState | None:
    """Fold the events after ``since`` into a copy of the cached state."""
    newer = _events_of(game, since, game.seq)
    if len(newer) != game.seq - since:
        return None
    state = state.copy()
    try:
        for event in newer:
            engine.step(state, event)
    except engine.IllegalAction:
        return None  # not the history the cache saw: replay from zero
    return state


# ---------------------------------------------------------------- games


def _seats_loaded(game: Game, seats: list[Seat]) -> Game:
    """Store the seats where prefetch_related("seats") would: game.seats.all() reads them."""
    for seat in seats:
        seat.game = game
    loaded = game.seats.get_queryset()
    loaded._result_cache, loaded._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": loaded}
    return game


def _game_get_query(game_id: int) -> Game:
    seats = list(
        Seat.objects.select_related("game__created_by", "user").filter(game_id=game_id)
    )
    if seats:
        return _seats_loaded(seats[0].game, seats)
    try:  # a game nobody sits in any more
        game = Game.objects.select_related("created_by").get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(f"there is no game {game_id}") from None
    return _seats_loaded(game, [])


# Read on every GET of a game: one statement, none of the ORM's compilation. The
# users come back with only their id and username loaded (the rest deferred).
_GAME_WITH_SEATS = """
SELECT {game_columns}, c.{username} AS creator_name, COALESCE((
    SELECT json_agg(json_build_object(
        'id', s.id, 'user_id', s.user_id, 'username', u.{username}, 'name', s.name,
        'index', s."index", 'joined_at', s.joined_at, 'resigned', s.resigned)
        ORDER BY s."index" NULLS LAST, s.joined_at, s.id)
    FROM games_seat s LEFT JOIN {users} u ON u.id = s.user_id
    WHERE s.game_id = g.id), '[]') AS seat_rows
FROM games_game g JOIN {users} c ON c.id = g.created_by_id
WHERE g.id = %s
"""


def game_get(game_id: int) -> Game:
    """The game with its creator and seats (and their users) loaded, in one query."""
    if connection.vendor != "postgresql":
        return _game_get_query(game_id)
    User = get_user_model()
    sql = _GAME_WITH_SEATS.format(users=User._meta.db_table, username=User.USERNAME_FIELD,
                                  game_columns=rawsql.columns(Game, "g"))
    rows = rawsql.fetch(Game, sql, [game_id])
    if not rows:
        raise NotFound(f"there is no game {game_id}")
    game = rows[0]
    fields = ["id", User.USERNAME_FIELD]
    game.created_by = User.from_db(DEFAULT_DB_ALIAS, fields, [game.created_by_id,
                                                              game.creator_name])
    seats = []
    for raw in game.seat_rows:
        seat = Seat.from_db(
            DEFAULT_DB_ALIAS,
            ["id", "game_id", "user_id", "name", "index", "joined_at", "resigned"],
            [raw["id"], game.pk, raw["user_id"], raw["name"], raw["index"],
             datetime.fromisoformat(raw["joined_at"]), raw["resigned"]],
        )
        if raw["user_id"] is not None:
            seat.user = User.from_db(DEFAULT_DB_ALIAS, fields, [raw["user_id"], raw["username"]])
        seats.append(seat)
    return _seats_loaded(game, seats)


LISTS = ("mine", "open", "finished")


def game_list(*, user: AbstractBaseUser, which: str = "mine") -> QuerySet[Game]:
    """Games the user has a seat in (abandoned ones aside), open games, or finished
    games; newest first."""
    games = Game.objects.all()
    if which == "mine":
        games = games.filter(seats__user=user).exclude(status=Game.Status.ABANDONED)
    elif which == "open":
        games = games.filter(status=Game.Status.OPEN)
    elif which == "finished":
        games = games.filter(status=Game.Status.FINISHED)
    else:
        raise ValueError(f"unknown list {which!r}")
    # No DISTINCT: "mine" joins the seats, but a user has one seat a game at most
    # (seat_one_per_user); and DISTINCT over every column made each page of a long
    # list sort all of its games.
    return (
        games.select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
    )


def seat_index_of(game: Game, user: AbstractBaseUser | None) -> int | None:
    """The user's seat in the game (None for a spectator or before the start)."""
    if user is None or not user.is_authenticated:
        return None
    return next((s.index for s in game.seats.all() if s.user_id == user.pk), None)


def game_fairness(game: Game) -> dict[str, Any]:
    """The commitment always; the seed only once the game is over."""
    shown: dict[str, Any] = {"commitment": game.commitment or None}
    if game.status == Game.Status.FINISHED:
        shown["seed"] = game.seed
    return shown


def public_state(seen: dict[str, Any], *, faces: bool = False) -> dict[str, Any]:
    """What anyone may see of a game, from the engine's player view (``seen``): the
    API's view, the game page's and each step of a replay. Hands are public; the
    draw pile is only a count, never the order. With ``faces``, both faces of every
    tile in a hand too, for a page to draw them.

    Built key by key so that nothing new the engine adds to its view reaches
    players without a decision here.
    """
    shown = {
        "awaiting": seen["awaiting"],
        "current_player": seen["current_player"],
        "finished": seen["finished"],
        "winners": seen["winners"],
        "scores": seen["scores"],
        "target": seen["target"],
        "supply": seen["supply"],
        "tiles_left": seen["tiles_left"],  # a count
        "tiles_on_board": seen["tiles_on_board"],
        "hands": seen["hands"],
        "resigned": seen["resigned"],
        "moves_in_turn": seen["moves_in_turn"],
        # row by row, the same however the game got there
        "board": sorted(seen["board"], key=lambda tile: (tile["at"][1], tile["at"][0])),
        "creatures": seen["creatures"],
        "log": seen["log"],
    }
    if faces:
        shown["hand_tiles"] = seen["hand_tiles"]
    return shown


def game_state_view(game: Game, user: AbstractBaseUser | None, *,
                    faces: bool = False) -> dict[str, Any]:
    """The game as this user sees it (see public_state), and what they may do now."""
    you = seat_index_of(game, user)
    view: dict[str, Any] = {"you": you, "state": None, "legal_actions": []}
    if game.config is None:
        return view
    state = game_state_get(game)
    view["state"] = public_state(engine.player_view(state, you), faces=faces)
    if you is not None and not state.finished and view["state"]["awaiting"]["player"] == you:
        # the cached state itself: engine queries never change the state they read
        # (tests/service/test_state_cache.py holds the engine to that)
        view["legal_actions"] = engine.legal_actions(state)
    return view


def game_claims_get(
    game: Game, user: AbstractBaseUser, action: dict[str, Any]
) -> list[dict[str, Any]]:
    """The claims that may go with the user's place or flip now; IllegalAction if the
    move itself is not legal."""
    if game.status == Game.Status.FINISHED:
        raise GameFinished("the game is over")
    you = seat_index_of(game, user)
    if you is None:
        raise Forbidden("you have no seat in this game", code="not_a_player")
    if action.get("type") not in ("place", "flip"):
        raise Invalid("claims go with a place or a flip", field="action.type")
    if action.get("player", you) != you:
        raise Forbidden(f"you play seat {you}", code="not_your_seat")
    state = game_state_get(game)
    try:
        return engine.claim_options(state, {**action, "player": you})
    except engine.IllegalAction as refused:
        if refused.code == "not_your_turn":  # said with the player's name, as moves say it
            raise NotYourTurn.waiting_for(engine.awaiting(state), state.config.players) \
                from None
        raise


def invitation_get(token: str) -> Invitation:
    invitation = Invitation.objects.filter(token=token).select_related("game").first()
    if invitation is None:
        raise NotFound("there is no such invitation: ask for a new link")
    return invitation


def invitation_links(game: Game, user: AbstractBaseUser) -> QuerySet[Invitation]:
    """The links to pass on that the user made for the game and nobody has used yet
    (each gives one seat)."""
    return Invitation.objects.filter(game=game, created_by=user, email="",
                                     accepted_by__isnull=True).order_by("created_at", "pk")


def game_events_get(game: Game, since: int = 0) -> QuerySet[Event]:
    return (
        Event.objects.filter(game_id=game.pk, seq__gte=since)
        .select_related("actor")
        .order_by("seq")
    )


def game_record_get(game: Game) -> dict[str, Any]:
    """The game record with its revealed seed (finished games only)."""
    if game.status != Game.Status.FINISHED:
        raise Conflict(
            "the full record is published when the game is over; until then only the "
            "commitment is",
            code="game_running",
            commitment=game.commitment or None,
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules_version": game.rules_version,
        "config": game.config,
        "events": _events_of(game),
        "fairness": {"seed": game.seed, "commitment": game.commitment},
    }
