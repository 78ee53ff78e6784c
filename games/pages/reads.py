"""Reads the pages need beyond ``games.selectors``: a user's games sorted by who
must move, the game page's state (the API's view plus what drawing it needs),
and the move clock. Nothing here writes, and nothing here reveals the deck
order or the seed of a running game."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from engine.marram.notation import format_action
from games.models import Event, Game, Seat
from games.selectors import game_fairness, game_list, game_state_view, seat_index_of
from games.serializers import GameSerializer
from notifications.clocks import clock_remaining
from notifications.models import Clock

# ---------------------------------------------------------------- lists


def seat_letter(names: list[str], seat: int) -> str:
    """The letter board.js puts on a seat's tokens: the initial, or the seat number
    when two players share an initial."""
    initials = [(n.strip()[:1] or "?").upper() for n in names]
    unique = len(set(initials)) == len(initials)
    return initials[seat] if unique and 0 <= seat < len(initials) else str(seat + 1)


@dataclass
class Listed:
    """A game in a list, with what the lists show about it for one user."""

    game: Game
    seat: int | None
    waiting_for: int | None
    """The seat the game waits for (a move or a guess); None otherwise."""
    since: datetime | None
    """When the game started waiting: its last event, or its start."""
    user_id: int | None = None

    @property
    def seated(self) -> bool:
        return any(s.user_id == self.user_id for s in self.game.seats.all())

    @property
    def your_turn(self) -> bool:
        return self.seat is not None and self.waiting_for == self.seat

    @property
    def players(self) -> list[Seat]:
        return sorted(self.game.seats.all(), key=lambda s: (s.index is None, s.index or 0))

    @property
    def waiting_name(self) -> str | None:
        seat = next((s for s in self.game.seats.all() if s.index == self.waiting_for), None)
        return seat.name if seat else None

    @property
    def scores(self) -> list[int]:
        return list(self.game.projection.get("scores") or [])

    @property
    def score_rows(self) -> list[dict[str, Any]]:
        """Each seated player with their letter, score, and whether they are to play."""
        seats = [s for s in self.players if s.index is not None]
        names = [s.name for s in seats]
        scores = self.scores
        return [{"seat": s.index, "name": s.name, "letter": seat_letter(names, s.index),
                 "score": scores[s.index] if s.index < len(scores) else 0,
                 "you": s.index == self.seat, "to_move": s.index == self.waiting_for}
                for s in seats]

    @property
    def winners(self) -> list[str]:
        names = {s.index: s.name for s in self.game.seats.all()}
        return [names.get(w, "?") for w in self.game.projection.get("winners") or []]


@dataclass
class MyGames:
    your_turn: list[Listed] = field(default_factory=list)
    their_turn: list[Listed] = field(default_factory=list)
    open: list[Listed] = field(default_factory=list)
    finished: list[Listed] = field(default_factory=list)


def _last_event_at() -> Subquery:
    return Subquery(
        Event.objects.filter(game=OuterRef("pk")).order_by("-seq").values("created_at")[:1]
    )


def _listed(game: Game, user: AbstractBaseUser) -> Listed:
    awaiting = (game.projection or {}).get("awaiting") or {}
    waiting_for = awaiting.get("player") if game.status == Game.Status.RUNNING else None
    since = getattr(game, "last_event_at", None) or game.started_at or game.created_at
    return Listed(game, seat_index_of(game, user), waiting_for, since, user.pk)


def my_games(user: AbstractBaseUser) -> MyGames:
    """The user's games: those waiting for them first, longest waiting first."""
    games = game_list(user=user, which="mine").annotate(last_event_at=_last_event_at())
    mine = MyGames()
    for game in games:
        item = _listed(game, user)
        if game.status == Game.Status.RUNNING:
            (mine.your_turn if item.your_turn else mine.their_turn).append(item)
        elif game.status == Game.Status.OPEN:
            mine.open.append(item)
        elif game.status == Game.Status.FINISHED:
            mine.finished.append(item)
    mine.your_turn.sort(key=lambda i: i.since)
    mine.their_turn.sort(key=lambda i: i.since, reverse=True)
    return mine


def your_turn_count(user: AbstractBaseUser) -> int:
    """How many running games wait for the user's move or guess (one query)."""
    if not user.is_authenticated:
        return 0
    rows = Seat.objects.filter(user=user, game__status=Game.Status.RUNNING).values_list(
        "index", "game__projection")
    return sum(1 for index, projection in rows
               if ((projection or {}).get("awaiting") or {}).get("player") == index)


def listed(games, user: AbstractBaseUser) -> list[Listed]:
    return [_listed(g, user) for g in games.annotate(last_event_at=_last_event_at())]


# ---------------------------------------------------------------- the game page


def move_clock(game: Game, now: datetime | None = None) -> dict[str, Any] | None:
    """The time left to the seat the game waits for, from its clock (kept by the
    notifications app: a time bank per seat); just the days per move when there
    is no clock yet. None for an untimed game or one that is not running."""
    if not game.days_per_move or game.status != Game.Status.RUNNING:
        return None
    answer: dict[str, Any] = {"days_per_move": game.days_per_move, "seconds_left": None}
    seat = ((game.projection or {}).get("awaiting") or {}).get("player")
    clock = Clock.objects.filter(game_id=game.pk, seat=seat).first() if seat is not None \
        else None
    if clock is None or clock.bank is None:
        return answer
    left = clock_remaining(clock, now or timezone.now())
    if left is not None:
        answer["seconds_left"] = int(left.total_seconds())
        answer["running"] = clock.started_at is not None
    return answer


def last_move(game: Game, you: int | None) -> dict[str, Any] | None:
    """The latest place or flip made by someone other than ``you``."""
    rows = Event.objects.filter(game_id=game.pk, type__in=("place", "flip")).order_by(
        "-seq").values_list("seq", "payload")[:8]
    for seq, payload in rows:
        if you is not None and payload.get("player") == you:
            continue
        return {"seq": seq, "player": payload.get("player"), "type": payload.get("type"),
                "at": payload.get("at"), "text": format_action(payload)}
    return None


def page_state(game: Game, user: AbstractBaseUser) -> dict[str, Any]:
    """What the game page draws: the API's answer for the game (``GET
    /api/games/{id}/``) with the players' names, the faces of the tiles in hand,
    the move clock, the last move of another player and the status line."""
    view = game_state_view(game, user, faces=True)
    answer = {
        "game": GameSerializer(game).data,
        "seq": game.seq,
        "status": game.status,
        "fairness": game_fairness(game),
        **view,
    }
    seats = sorted((s for s in game.seats.all() if s.index is not None), key=lambda s: s.index)
    answer["players"] = [s.name for s in seats]
    state = answer.get("state")
    if state is not None:
        state["players"] = answer["players"]
        answer["last_move"] = last_move(game, answer["you"])
    answer["clock"] = move_clock(game)
    answer["status_text"] = status_text(answer)
    return answer


def player_rows(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The players as the page first shows them (the script redraws them)."""
    names = answer["players"]
    scores = (answer.get("state") or {}).get("scores") or [0] * len(names)
    return [{"seat": i, "name": n, "letter": seat_letter(names, i), "score": scores[i],
             "you": i == answer.get("you")} for i, n in enumerate(names)]


def status_text(answer: dict[str, Any]) -> str:
    """Whose turn it is, or how the game ended, in words, for this user: the page's
    status line (game.js shows it as it comes)."""
    state = answer.get("state")
    if state is None:
        return "The game has not started."
    names = answer["players"]
    if state["finished"]:
        winners = [names[w] for w in state["winners"]]
        best = state["scores"][state["winners"][0]] if winners else 0
        if len(winners) > 1:
            return f"Game over: {' and '.join(winners)} tie with {best} points."
        return f"Game over: {winners[0]} wins with {best} points." if winners else "Game over."
    awaiting = state["awaiting"]
    if awaiting["kind"] == "chance":
        verb = "appear" if awaiting.get("event") == "appear" else "hop"
        return f"Waiting for the {awaiting['creature']} to {verb}."
    mine = answer.get("you") is not None and awaiting["player"] == answer["you"]
    if awaiting["kind"] == "guess":
        creature = awaiting["creature"]
        return (f"Your turn: guess the {creature}'s hops." if mine else
                f"Waiting for {names[awaiting['player']]} to guess the {creature}'s hops.")
    move = awaiting.get("move", 1)
    return (f"Your turn: move {move} of 2." if mine else
            f"{names[awaiting['player']]} to play: move {move} of 2.")
