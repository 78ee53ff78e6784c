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

import engine
from engine import rules
from engine.notation import describe_event
from engine.standings import standings
from engine.state import GameState
from games.models import Event, Game, Seat
from games.selectors import (
    game_fairness,
    game_list,
    game_state_get,
    game_state_view,
    seat_index_of,
)
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


SINCE_SHOWN = 40
"""The most events the "since your last move" list shows (the latest ones)."""

BOARD_MOVES = ("place", "flip")


def _own_move(row: tuple[int, str, dict[str, Any], int | None], seat: int | None) -> bool:
    """A move the seat's player made themselves (not one the server made for them)."""
    _, kind, payload, actor = row
    return actor is not None and kind != "resign" and payload.get("player") == seat


def since_last_move(game: Game, state: GameState, you: int | None,
                    names: list[str]) -> dict[str, Any]:
    """What happened since the player's own last move: each event in words
    (engine.notation.describe_event) with the points it scored and where it
    happened, and every position where a tile was laid or flipped, for the board
    to outline. A spectator sees what happened since the last move of the player
    the game waits for; with nobody to wait for (the game is over, or a draw is
    due), since the last move of anyone but the latest mover."""
    rows = list(Event.objects.filter(game_id=game.pk, seq__lt=game.seq).order_by("-seq")
                .values_list("seq", "type", "payload", "actor_id")[:SINCE_SHOWN + 1])
    rows.reverse()
    seat = you if you is not None else engine.awaiting(state)["player"]
    if seat is None:
        movers = [row[2].get("player") for row in rows if row[3] is not None]
        latest = movers[-1] if movers else None
        start = next((i + 1 for i in range(len(rows) - 1, -1, -1)
                      if rows[i][3] is not None and rows[i][2].get("player") != latest), 0)
    else:
        start = next((i + 1 for i in range(len(rows) - 1, -1, -1)
                      if _own_move(rows[i], seat)), 0)
    shown = rows[start:]
    more = start == 0 and len(rows) > SINCE_SHOWN  # more happened than the list shows
    if more:
        shown = rows[-SINCE_SHOWN:]
    scored: dict[int, list[dict[str, Any]]] = {}
    for entry in state.log:
        scored.setdefault(entry["event"], []).append(
            {"seat": entry["seat"], "points": entry["points"], "feature": entry["feature"]})
    events = []
    tiles: list[list[int]] = []
    for seq, kind, payload, actor in shown:
        at = payload.get("at") or payload.get("to")
        if kind in BOARD_MOVES and at not in tiles:
            tiles.append(at)
        events.append({
            "seq": seq, "type": kind, "player": payload.get("player"), "at": at,
            "text": describe_event(payload, names, forced=actor is None and kind == "pass"),
            "points": scored.get(seq, []),
        })
    return {"seat": seat, "events": events, "tiles": tiles, "more": more}


def page_state(game: Game, user: AbstractBaseUser) -> dict[str, Any]:
    """What the game page draws: the API's answer for the game (``GET
    /api/games/{id}/``) with the players' names, the faces of the tiles in hand,
    the move clock, what happened since the user's last move, the final standings
    once the game is over, the status line, and how many games wait for the user
    (the header's badge)."""
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
        engine_state = game_state_get(game)
        answer["since_last_move"] = since_last_move(game, engine_state, answer["you"],
                                                     answer["players"])
        answer["standings"] = standings(engine_state) if engine_state.finished else None
    answer["clock"] = move_clock(game)
    answer["status_text"] = status_text(answer)
    answer["your_turn_count"] = your_turn_count(user)
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


# ---------------------------------------------------------------- the rules page


def rule_numbers() -> dict[str, Any]:
    """Every number the rules page quotes, read from the engine's rule tables so that
    the page and the engine cannot disagree: per variant and length, the supplies,
    the spade cards and short-game targets for 2, 3 and 4 players, the flips a tile
    allows and the patch values; and the values every variant shares."""
    variants: dict[str, dict[str, Any]] = {}
    for variant in rules.VARIANTS:
        for length in rules.LENGTHS:
            try:
                by_players = [rules.rules_for(variant, length, n) for n in (2, 3, 4)]
            except ValueError:  # Animals is long only
                continue
            two = by_players[0]
            variants.setdefault(variant, {})[length] = {
                "boots": two.boots, "pitchforks": two.pitchforks,
                "spades": [r.spades for r in by_players],
                "targets": [r.target for r in by_players],
                "flips_per_tile": two.flips_per_tile, "patch": two.patch,
            }
    return {
        "variants": variants,
        "hand_size": rules.HAND_SIZE,
        "moves_per_turn": rules.MOVES_PER_TURN,
        "beast": rules.BEAST_SEGMENT_VALUE,
        "freak": rules.FREAK_VALUE,
        "end_patch": rules.END_PATCH,
        "end_segment": rules.END_SEGMENT_VALUE,
        "creatures": rules.CREATURE_THRESHOLDS,
        "max_hops": rules.CREATURE_MAX_HOPS,
        "guess_points": rules.GUESS_POINTS,
        "exact_bonus": rules.EXACT_GUESS_BONUS,
    }
