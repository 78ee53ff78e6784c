"""Reads: game lists, the state of a game as one user may see it, its events, its
record. Nothing here writes, and nothing here lets the hidden order, the seed or
a future draw out of a game that is still running."""

from __future__ import annotations

import functools
from typing import Any, TypeVar

import orjson
from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet
from django.urls import reverse

from engine import registry
from engine.errors import IllegalAction
from engine.protocol import JSON, AnyGame, Awaiting, JSONObject, query
from engine.replay import Replay, replay_events
from games import snapshots, store
from games.models import Event, Game, Invitation, Seat
from live.state_cache import states
from web.errors import Conflict, Forbidden, GameFinished, Invalid, NotFound, NotYourTurn
from web.links import site_url

T = TypeVar("T")

# ---------------------------------------------------------------- state


def rules_of(game: Game) -> AnyGame:
    """The game's rules, from the registry."""
    return registry.get(game.game)


def awaiting_json(wait: Awaiting) -> dict[str, Any]:
    """What the game awaits, as the API and the projection give it: ``kind``
    ``finished``, ``chance`` (with ``what``), the one awaited seat's task (its
    kind, ``player`` and the task's details) or ``several`` (each seat's task)."""
    if wait.finished:
        return {"kind": "finished"}
    if wait.chance is not None:
        return {"kind": "chance", "what": wait.chance}
    if len(wait.tasks) == 1:
        task = wait.tasks[0]
        return {"kind": task.kind, "player": task.seat, **task.detail}
    return {"kind": "several", "seats": [t.to_json() for t in sorted(wait.tasks,
                                                                      key=lambda t: t.seat)]}


def projection_of(rules: AnyGame, state: Any) -> dict[str, Any]:
    """The few facts of a state that game lists show: the game's Projection and
    what it awaits; ``waiting_for`` names the awaited seats as text ("|0||2|")
    for the lists' SQL to look a seat up in."""
    p = rules.projection(state)
    return {"finished": p.finished, "scores": list(p.scores), "winners": list(p.winners),
            "to_act": list(p.to_act), "resigned": list(p.out), "better": p.better,
            "cooperative": p.cooperative, "result": p.result, "end": p.end,
            "awaiting": awaiting_json(rules.awaiting(state)),
            "waiting_for": "".join(f"|{s}|" for s in p.to_act)}


def awaited_seats(game: Game, projection: dict[str, Any] | None = None) -> list[int]:
    """The seats a running game waits for, from its projection (or from
    ``projection``, one made afresh: verify_game's)."""
    if game.status != Game.Status.RUNNING:
        return []
    return list(((game.projection if projection is None else projection) or {})
                .get("to_act") or [])


def game_kinds() -> list[dict[str, Any]]:
    """Every registered game with its seat counts and options, for the lobby's forms."""
    return [{"game": g.key, "title": g.title, "seats": list(g.seat_counts),
             "options": [{"name": o.name, "label": o.label, "default": o.default,
                          "help": o.help,
                          "choices": [{"value": c.value, "label": c.label} for c in o.choices]}
                         for o in g.options_declared]}
            for g in registry.games()]


@functools.cache
def view_table_get(kind: str, name: str) -> bytes:
    """One of the tables a game's views refer to by key (the game's
    ``view_tables``), as the JSON the API serves; the same for the process's life."""
    try:
        table = registry.get(kind).view_tables().get(name)
    except registry.UnknownGame:
        table = None
    if table is None:
        raise NotFound(f"there is no table {name!r} of game {kind!r}")
    return orjson.dumps(table)


def events_wanted(game_id: int) -> store.EventsWanted:
    """The events a read of the game's state in this process will fold
    (``game_state_get``): from the state of it this process holds, else from
    where its newest snapshot is. The game's read reads them with it
    (games.store), so that the state's read need not ask for them."""
    return store.EventsWanted(states.newest(game_id), snapshots.snapshot_every())


def event_payloads(game: Game, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
    """The payloads of the game's events from seq ``start`` (up to ``stop``):
    those read with the game if they were (``events_wanted``), else read now."""
    if stop is not None and (held := game.events_held(start, stop)) is not None:
        return held
    return Event.objects.payloads(game.pk, start, stop)


def game_replay(game: Game, stop: int | None = None) -> Replay[Any]:
    """The game's first ``game.seq`` (or ``stop``) events replayed from zero
    through its rules; no cache involved. Only up to the row's seq: a move
    committed since the row was read is not part of the game this row describes."""
    rules = rules_of(game)
    return replay_events(rules, rules.start(game.started_config()),
                         event_payloads(game, 0, game.seq if stop is None else stop))


def game_state_get(game: Game) -> Any:
    """The state after the game's ``game.seq`` events. Never mutate it.

    From this process's cache if it holds the game (caught up on newer events if
    need be); else from the game's newest snapshot and the events after it
    (games.snapshots); else a replay from zero."""
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
        if state is not None:
            states.catch_ups += 1
    if state is None:
        stored = snapshots.game_snapshot_latest(game, rules_of(game))
        if stored is not None:
            state = _catch_up(game, *stored, owned=True)
            if state is not None:
                states.snapshots += 1
    if state is None:
        states.misses += 1
        replay = game_replay(game)
        if replay.error is not None:
            raise RuntimeError(
                f"game {game.pk} does not replay: event {replay.error_index} is refused "
                f"({replay.error.code}: {replay.error.message}); run manage.py verify_game"
            )
        state = replay.state
    states.put(game.pk, seq, state)
    return state


def _catch_up(game: Game, since: int, state: Any, *, owned: bool = False) -> Any | None:
    """Fold the events after ``since`` into a copy of ``state`` (into ``state``
    itself if ``owned``: nobody else holds it)."""
    newer = event_payloads(game, since, game.seq)
    if len(newer) != game.seq - since:
        return None
    rules = rules_of(game)
    if not owned:
        state = rules.copy(state)
    try:
        for event in newer:
            state = rules.fold(state, rules.read_event(event))
    except IllegalAction:
        return None  # not the history the cache or snapshot saw: replay from zero
    return state


# ---------------------------------------------------------------- games


def game_get(game_id: int) -> Game:
    """The game with its creator and seats (and their users) loaded, and the
    events a read of its state here will fold (``events_wanted``): one statement
    (games.store.game_with_seats)."""
    game = store.game_with_seats(game_id, events_wanted(game_id))
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    return game


def game_seqs_get(game_id: int) -> tuple[int, int]:
    """The game's seq and its panels' seq (``Game.panels_seq``), in one small read
    (games.store): what a poll asks first."""
    seqs = store.game_seqs(game_id)
    if seqs is None:
        raise NotFound(f"there is no game {game_id}")
    return seqs


def invitation_url(token: str) -> str:
    """The invitation's page: what a mailed invitation and a link to pass on both give."""
    return site_url(reverse("pages:invitation", args=[token]))


LISTS = ("mine", "open", "finished")


def game_list(*, user: User, which: str = "mine") -> QuerySet[Game]:
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


def seat_index_of(game: Game, user: User | None) -> int | None:
    """The user's seat in the game (None for a spectator or before the start)."""
    if user is None:
        return None
    return next((s.index for s in game.seat_list() if s.user_id == user.pk), None)


def game_fairness(game: Game) -> dict[str, Any]:
    """The commitment always; the seed only once the game is over."""
    shown: dict[str, Any] = {"commitment": game.commitment or None}
    if game.status == Game.Status.FINISHED:
        shown["seed"] = game.seed
    return shown


def game_state_view(game: Game, user: User | None) -> dict[str, Any]:
    """The game as this user sees it (the game's own view for their seat, which
    keeps every secret), and what they may do now."""
    you = seat_index_of(game, user)
    view: dict[str, Any] = {"you": you, "state": None, "legal_actions": []}
    if game.config is None:
        return view
    rules = rules_of(game)
    state = game_state_get(game)
    seen = view["state"] = rules.view(state, you)
    if you is not None:
        states.view_put(game.pk, you, game.seq, seen)
        view["state"] = dict(seen)  # the one kept is never changed: callers may add to this
        # the cached state itself: the rules' reads never change the state they read
        # (tests/service/test_state_cache.py holds the engine to that)
        view["legal_actions"] = rules.legal_actions(state, you)
    return view


def seat_state_view_at(game: Game, seat: int, seq: int, state: Any) -> Any:
    """The game's view for ``seat`` of ``state``, the state at ``seq``: as
    ``game_state_view`` made it then if this process still keeps it, else made
    again. Never change it."""
    kept = states.view_get(game.pk, seat, seq)
    return kept if kept is not None else rules_of(game).view(state, seat)


def player_names(rules: AnyGame, state: Any) -> list[str]:
    """The players' names, by seat, in the config of the game ``state`` is of."""
    players = rules.config(state).get("players")
    return [str(n) for n in players] if isinstance(players, list) else []


def not_your_turn(rules: AnyGame, state: Any) -> NotYourTurn:
    """The rules' ``not_your_turn`` told with the awaited players' names."""
    return NotYourTurn.waiting_for(rules.awaiting(state), player_names(rules, state))


def game_query_get(game: Game, user: User | None, name: str,
                   args: dict[str, JSON]) -> JSON:
    """One of the game's named queries (a page's score preview, say),
    asked by a seat of the running game; IllegalAction if the rules refuse it."""
    if game.status == Game.Status.FINISHED:
        raise GameFinished("the game is over")
    you = seat_index_of(game, user)
    if you is None:
        raise Forbidden("you have no seat in this game", code="not_a_player")
    rules = rules_of(game)
    action = args.get("action")
    if isinstance(action, dict):  # a move about to be made: read as a submission is
        if action.get("player", you) != you:
            raise Forbidden(f"you play seat {you}", code="not_your_seat")
        try:
            normal = rules.normalise_event({**action, "player": you})
        except IllegalAction as e:
            field = getattr(e, "field", None)
            raise Invalid(e.message, code=e.code,
                          **({"field": f"action.{field}"} if field else {})) from None
        args = {**args, "action": normal if normal is not None else {**action, "player": you}}
    state = game_state_get(game)
    try:
        return query(rules, state, name, you, args)
    except IllegalAction as refused:
        if refused.code == "not_your_turn":  # said with the player's name, as moves say it
            raise not_your_turn(rules, state) from None
        if refused.code == "bad_query":  # the request's fault: a 400 like any bad input
            raise Invalid(refused.message) from None
        raise


def game_preview_get(game: Game, user: User, action: dict[str, Any]) -> JSONObject:
    """The game's ``score_preview`` query for the user's move about to be made (the
    API's /preview/): a JSON object."""
    answer = game_query_get(game, user, "score_preview", {"action": action})
    if not isinstance(answer, dict):
        raise TypeError(f"{game.game}'s score_preview answers {type(answer).__name__}, "
                        "not an object")
    return answer


def invitation_get(token: str) -> Invitation:
    invitation = Invitation.objects.with_token(token).select_related("game").first()
    if invitation is None:
        raise NotFound("there is no such invitation: ask for a new link")
    return invitation


def invitation_links(game: Game, user: User) -> QuerySet[Invitation]:
    """The links to pass on that the user made for the game and nobody has used yet
    (each gives one seat to whoever takes it first); never a personal invitation,
    by address or by username, whose link is its addressee's alone."""
    return Invitation.objects.filter(game=game, created_by=user, email="",
                                     invitee__isnull=True,
                                     accepted_by__isnull=True).order_by("created_at", "pk")


def game_invitations(game: Game, user: User) -> list[dict[str, Any]]:
    """Every invitation to the game, oldest first, as its page lists them for its
    players: who it is for (``to``; an address only to whoever wrote it, "someone"
    to the others), how (``by``: "username", "mail" or "link"), who made it, and
    who took the seat with it (``answered``, '' while nobody has)."""
    rows = (Invitation.objects.filter(game=game)
            .select_related("invitee", "created_by", "accepted_by").order_by("created_at", "pk"))
    listed = []
    for invitation in rows:
        if invitation.invitee is not None:
            by, to = "username", invitation.invitee.get_username()
        elif invitation.email:
            by = "mail"
            to = invitation.email if invitation.created_by_id == user.pk else "someone"
        else:
            by, to = "link", "a link to pass on"
        listed.append({
            "by": by, "to": to, "from": invitation.created_by.get_username(),
            "answered": invitation.accepted_by.get_username()
            if invitation.accepted_by is not None else "",
            "at": invitation.accepted_at})
    return listed


def game_events_get(game: Game, user: User | None,
                    since: int = 0) -> list[tuple[Event, dict[str, Any]]]:
    """The events from ``since`` on, each with what the user may read of it. Until
    the game is over, a game keeps out of the list what a seat must not know yet
    (``Game.event_view``: another player's secret choice); after, all is shown."""
    rows = list(Event.objects.filter(game_id=game.pk, seq__gte=since)
                .select_related("actor").order_by("seq"))
    if game.status == Game.Status.FINISHED or not rows:
        return [(event, event.payload) for event in rows]
    rules, state = rules_of(game), game_state_get(game)
    seat = seat_index_of(game, user)
    return [(event, rules.event_view(state, event.payload, seat)) for event in rows]


def game_record_get(game: Game) -> dict[str, Any]:
    """The game record with its revealed seed (finished games only)."""
    if game.status != Game.Status.FINISHED:
        raise Conflict(
            "the full record is published when the game is over; until then only the "
            "commitment is",
            code="game_running",
            commitment=game.commitment or None,
        )
    rules = rules_of(game)
    return {
        "format": rules.record_format,
        "version": rules.record_version,
        "rules_version": game.rules_version,
        "config": game.config,
        "events": event_payloads(game),
        "fairness": {"seed": game.seed, "commitment": game.commitment},
    }
