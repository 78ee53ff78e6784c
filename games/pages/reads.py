"""Reads the pages need beyond ``games.selectors``: a user's games sorted by who
must move, the game page's state (the API's view plus what drawing it needs),
and the move clock. Nothing here writes, and nothing here reveals the hidden
order or the seed of a running game."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypedDict

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.paginator import Page, Paginator
from django.db.models import (
    Case,
    CharField,
    Count,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce, Concat
from django.urls import reverse
from django.utils import timezone
from django_stubs_ext import WithAnnotations

from engine import registry
from engine.protocol import AnyGame
from games.clocks import clock_remaining
from games.game_ui import ui_for
from games.models import Clock, Event, Game, Seat, Vacation
from games.pages.since import since_last_move
from games.pages.standings import final_standings
from games.seating import seat_players
from games.selectors import (
    awaited_seats,
    game_fairness,
    game_list,
    game_state_get,
    game_state_view,
    rules_of,
    seat_index_of,
)
from games.serializers import game_json

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
    """The seat the game waits for (any action of its); None otherwise."""
    since: datetime | None
    """When the game started waiting: its last event, or its start."""
    user_id: int | None = None

    @property
    def seated(self) -> bool:
        return any(s.user_id == self.user_id for s in self.game.seat_list())

    @property
    def your_turn(self) -> bool:
        return self.seat is not None and self.waiting_for == self.seat

    @property
    def players(self) -> list[Seat]:
        return sorted(self.game.seat_list(), key=lambda s: (s.index is None, s.index or 0))

    @property
    def waiting_name(self) -> str | None:
        seat = next((s for s in self.game.seat_list() if s.index == self.waiting_for), None)
        return seat.name if seat else None

    @property
    def waiting_chance(self) -> str | None:
        """The chance event the game waits for, in the game's words (its
        awaiting's ``what``), when it waits for one."""
        awaiting = (self.game.projection or {}).get("awaiting") or {}
        return awaiting.get("what") if awaiting.get("kind") == "chance" else None

    @property
    def scores(self) -> list[int]:
        return list(self.game.projection.get("scores") or [])

    @property
    def score_rows(self) -> list[dict[str, Any]]:
        """Each seated player with their letter, score, and whether they are to play."""
        seats = [(s.index, s) for s in self.players if s.index is not None]
        names = [s.name for _, s in seats]
        scores = self.scores
        return [{"seat": i, "name": s.name, "letter": seat_letter(names, i),
                 "score": scores[i] if i < len(scores) else 0,
                 "you": i == self.seat, "to_move": i == self.waiting_for}
                for i, s in seats]

    @property
    def winners(self) -> list[str]:
        names = {s.index: s.name for s in self.game.seat_list()}
        return [names.get(w, "?") for w in self.game.projection.get("winners") or []]


SECTIONS = ("your_turn", "their_turn", "open", "finished")


class _InOrder(TypedDict):
    """What _my_games_in_order annotates each game with."""

    last_event_at: datetime | None
    my_seat: int | None
    waiting_for: str | None
    my_mark: str
    since: datetime
    section: int
    waited_since: datetime | None
    moved_at: datetime | None


@dataclass
class MyGames:
    """One page of a user's games, by section (see my_games)."""

    your_turn: list[Listed] = field(default_factory=list)
    their_turn: list[Listed] = field(default_factory=list)
    open: list[Listed] = field(default_factory=list)
    finished: list[Listed] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    """How many games each section has over every page."""
    page: Page[WithAnnotations[Game, _InOrder]] | None = None


def _last_event_at() -> Subquery:
    return Subquery(
        Event.objects.filter(game=OuterRef("pk")).order_by("-seq").values("created_at")[:1]
    )


def _listed(game: Game, user: User) -> Listed:
    awaited = awaited_seats(game)
    seat = seat_index_of(game, user)
    waiting_for = seat if seat in awaited else (awaited[0] if awaited else None)
    since = getattr(game, "last_event_at", None) or game.started_at or game.created_at
    return Listed(game, seat, waiting_for, since, user.pk)


def _my_games_in_order(user: User) -> QuerySet[WithAnnotations[Game, _InOrder]]:
    """The user's games in the order the page lists them, sorted by the database so
    that a page is a slice: those waiting for the user (longest waiting first), those
    waiting for others (latest move first), open games, finished games (newest
    first). ``section`` is the index in SECTIONS."""
    seat = Seat.objects.filter(game=OuterRef("pk"), user=user).values("index")[:1]
    running = Q(status=Game.Status.RUNNING)
    return (
        game_list(user=user, which="mine")
        .annotate(last_event_at=_last_event_at(), my_seat=Subquery(seat),
                  waiting_for=KT("projection__waiting_for"),
                  my_mark=Concat(Value("|"), Cast(Subquery(seat), CharField()), Value("|")))
        .annotate(since=Coalesce("last_event_at", "started_at", "created_at"),
                  section=Case(When(running & Q(waiting_for__contains=F("my_mark")),
                                    then=Value(0)),
                               When(running, then=Value(1)),
                               When(status=Game.Status.OPEN, then=Value(2)),
                               default=Value(3)))
        # each section's own order: the others' rows have NULL here
        .annotate(waited_since=Case(When(section=0, then="since")),
                  moved_at=Case(When(section=1, then="since")))
        .order_by("section", "waited_since", F("moved_at").desc(), "-created_at", "-id")
    )


def my_games(user: User, number: int | str = 1) -> MyGames:
    """A page of the user's games, those waiting for them first (see
    _my_games_in_order); InvalidPage for a page that does not exist."""
    games = _my_games_in_order(user)
    page = Paginator(games, settings.MARRAM_LIST_PAGE_SIZE).page(number)
    totals = dict.fromkeys(SECTIONS, 0)
    for section, count in games.order_by().values_list("section").annotate(n=Count("pk")):
        totals[SECTIONS[section]] = count
    mine = MyGames(totals=totals, page=page)
    for game in page.object_list:
        getattr(mine, SECTIONS[game.section]).append(_listed(game, user))
    return mine


def your_turn_count(user: User | AnonymousUser) -> int:
    """How many running games wait for the user to act: one COUNT over
    the index of awaited seats (a player may sit in hundreds of running games,
    and every read of a game page asks). Only a running game's seats are ever
    awaited: the move that ends a game clears them (games.services)."""
    if not user.is_authenticated:
        return 0
    return Seat.objects.filter(user=user, awaited=True).count()


def listed(games: QuerySet[Game], user: User) -> list[Listed]:
    return [_listed(g, user) for g in games.annotate(last_event_at=_last_event_at())]


def listed_page(games: QuerySet[Game], user: User, number: int | str
                ) -> tuple[list[Listed], Page[Game]]:
    """One page of a list of games: its games as Listed, and the page (for the links
    to the others); InvalidPage for a page that does not exist."""
    page = Paginator(games, settings.MARRAM_LIST_PAGE_SIZE).page(number)
    assert isinstance(page.object_list, QuerySet)  # a page of a QuerySet is a slice of it
    return listed(page.object_list, user), page


# ---------------------------------------------------------------- the games


def players_words(counts: Sequence[int]) -> str:
    """How many play a game, from its seat counts: "2 players", "2 to 4
    players", "2 or 4 players"."""
    n = sorted(counts)
    if len(n) == 1:
        return f"{n[0]} player{'s' if n[0] != 1 else ''}"
    if len(n) > 2 and n == list(range(n[0], n[-1] + 1)):
        return f"{n[0]} to {n[-1]} players"
    return f"{', '.join(map(str, n[:-1]))} or {n[-1]} players"


def game_cards(*, pictures: bool = True) -> list[dict[str, Any]]:
    """Each game the site serves, as the home page and the rules index show it:
    its title, its line (``ui.GameUI.tagline``), some moves in its notation, how
    many play it, its rules page if it has one, and (``pictures``) the position
    its own module draws."""
    cards = []
    for rules in registry.games():
        ui = ui_for(rules.key)
        picture = ui.home_picture() if pictures and ui.home_picture and ui.picture_module \
            else None
        cards.append({
            "key": rules.key, "title": rules.title, "tagline": ui.tagline,
            "notation": ui.notation,
            "players": players_words(rules.seat_counts),
            "rules_url": reverse("pages:rules", args=[rules.key]) if ui.rules_page else None,
            "picture": picture, "picture_module": ui.picture_module if picture else None,
            "stylesheets": ui.stylesheets,
        })
    return cards


# ---------------------------------------------------------------- the game page


def _days(n: int) -> str:
    return f"{n} day{'s' if n != 1 else ''}"


def time_words(seconds: float) -> str:
    """A time left in words, to the nearest hour (to the minute under an hour):
    "6 days", "5 days 23 hours", "1 day 1 hour", "7 hours", "40 minutes"."""
    if seconds < 3600:
        minutes = max(int(seconds // 60), 1)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = round(seconds / 3600)
    days, hours = divmod(hours, 24)
    said = [_days(days)] if days else []
    if hours:
        said.append(f"{hours} hour{'s' if hours != 1 else ''}")
    return " ".join(said)


def clock_text(days_per_move: int, seconds_left: float | None, *,
               on_vacation: bool = False) -> str:
    """The clock of the seat to play, in plain words, with the rule that fills it
    (games.clocks: a bank of 2d to begin with; a turn played in time adds d,
    up to 3d): "6 days left on the clock. Each turn played in time adds 3 days, up
    to 9 days." """
    rule = f"Each turn played in time adds {_days(days_per_move)}, up to " \
        f"{_days(3 * days_per_move)}."
    if seconds_left is None:  # the clock is made as the turn begins
        return f"{_days(2 * days_per_move)} on the clock to begin with. {rule}"
    if seconds_left <= 0:
        return "No time left on the clock: the turn passes to the next player within minutes."
    still = " It stands still while they are on vacation." if on_vacation else ""
    return f"{time_words(seconds_left)} left on the clock.{still} {rule}"


def move_clock(game: Game, now: datetime | None = None,
               user: User | None = None) -> dict[str, Any] | None:
    """The time left to the seat the game waits for (the user's, when several are
    awaited and theirs is one), from its clock (kept by the
    notifications app: a time bank per seat), and that in words (``text``); just
    the days per move when there is no clock yet. None for an untimed game or one
    that is not running."""
    if not game.days_per_move or game.status != Game.Status.RUNNING:
        return None
    answer: dict[str, Any] = {"days_per_move": game.days_per_move, "seconds_left": None,
                              "text": clock_text(game.days_per_move, None)}
    awaited = awaited_seats(game)
    mine = next((s.index for s in game.seat_list() if s.user_id is not None
                 and s.index in awaited and s.user_id == getattr(user, "pk", None)), None)
    seat = mine if mine is not None else (awaited[0] if awaited else None)
    clock = Clock.objects.filter(game_id=game.pk, seat=seat).first() if seat is not None \
        else None
    if clock is None or clock.bank is None:
        return answer
    now = now or timezone.now()
    left = clock_remaining(clock, now)
    if left is not None:
        away = clock.user_id is not None and Vacation.objects.filter(
            user_id=clock.user_id, starts_at__lte=now, ends_at__gt=now).exists()
        answer["seconds_left"] = int(left.total_seconds())
        answer["running"] = clock.started_at is not None
        answer["text"] = clock_text(game.days_per_move, left.total_seconds(), on_vacation=away)
    return answer


@dataclass
class ResignOutcome:
    """What resigning would do, told before the player confirms it."""

    others: list[str]
    """The players who have not resigned, in seat order, but the one resigning."""

    @property
    def ends_game(self) -> bool:
        # The engine ends the game when one seat is left, and that seat wins.
        return len(self.others) == 1

    @property
    def text(self) -> str:
        if self.ends_game:
            return (f"If you resign, the game ends now and {self.others[0]} wins. "
                    "Your points stay on the score sheet.")
        others = f"{', '.join(self.others[:-1])} and {self.others[-1]}"
        return ("If you resign, you cannot win; your points stay on the score sheet, and "
                f"{others} play on without you.")


def resign_outcome(game: Game, user: User) -> ResignOutcome | None:
    """What the user's resigning would do; None if they cannot resign (no seat, not
    running, or already resigned)."""
    if game.status != Game.Status.RUNNING:
        return None
    seats = sorted((s for s in game.seat_list() if s.index is not None),
                   key=lambda s: s.index or 0)
    if not any(s.user_id == user.pk and not s.resigned for s in seats):
        return None
    return ResignOutcome([s.name for s in seats if s.user_id != user.pk and not s.resigned])


def last_move(game: Game, you: int | None,
              names: Sequence[str] = ()) -> dict[str, Any] | None:
    """The latest action a player made (not the server's), by someone other than
    ``you``: its event, it in the notation (``text``) and in words (``words``,
    the game's ``describe_event``)."""
    rules = rules_of(game)
    rows = Event.objects.filter(game_id=game.pk, actor__isnull=False).order_by(
        "-seq").values_list("seq", "payload")[:8]
    for seq, payload in rows:
        if you is not None and payload.get("player") == you:
            continue
        if game.status != Game.Status.FINISHED:  # what the reader may not know yet, kept out
            payload = rules.event_view(game_state_get(game), payload, you)
        try:
            text = rules.format_action(payload)
        except (ValueError, KeyError):  # not written in the notation (leaving), or hidden
            continue
        return {**payload, "seq": seq, "text": text,
                "words": rules.describe_event(payload, list(names))}
    return None


def _notation(rules: AnyGame, action: dict[str, Any]) -> str:
    try:
        return rules.format_action(action)
    except ValueError:  # NotationError: an action the notation does not write
        return json.dumps(action)


def page_state(game: Game, user: User) -> dict[str, Any]:
    """What the game page draws: the API's answer for the game (``GET
    /api/games/{id}/``) with the players' names, what the game awaits of whom,
    the move clock, the last move of another player, what happened since the
    player's last move (games.pages.since, told by the game's UI), what the
    game's UI adds (GameUI.page_extras), the final standings once it is over
    (games.pages.standings), the status line, and how many games wait for the
    user (the header's badge)."""
    view = game_state_view(game, user)
    answer = {
        "game": game_json(game),
        "seq": game.seq,
        "status": game.status,
        "fairness": game_fairness(game),
        **view,
    }
    seats = sorted((s for s in game.seat_list() if s.index is not None),
                   key=lambda s: s.index or 0)
    answer["players"] = [s.name for s in seats]
    state = answer.get("state")
    if state is not None:
        state["players"] = answer["players"]
        answer["last_move"] = last_move(game, answer["you"], answer["players"])
    if state is not None:
        rules = rules_of(game)
        engine_state = game_state_get(game)
        answer["awaiting"] = game.projection.get("awaiting")
        answer["tasks"] = [{**t.to_json(), "short": t.short or t.kind}
                           for t in rules.awaiting(engine_state).tasks]
        game_ui = ui_for(game.game)
        if game_ui.action_texts:
            answer["action_texts"] = [_notation(rules, a) for a in answer["legal_actions"]]
        if game_ui.since_last_move is not None:
            since = since_last_move(game, rules, engine_state, answer["you"],
                                    before=game_ui.since_needs_before)
            answer["since_last_move"] = game_ui.since_last_move(engine_state, since,
                                                                answer["players"])
        if game_ui.page_extras is not None:
            answer.update(game_ui.page_extras(engine_state, answer["you"], answer["players"]))
        names = answer["players"]
        answer["final_standings"] = final_standings(
            game, engine_state, names, [seat_letter(names, i) for i in range(len(names))],
            answer["you"])
    answer["clock"] = move_clock(game, user=user)
    answer["status_text"] = status_text(answer, _computers_to_move(answer, seats))
    answer["your_turn_count"] = your_turn_count(user)
    return answer


def player_rows(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """The players as the page first shows them (the script redraws them)."""
    names = answer["players"]
    scores = answer["game"]["projection"].get("scores") or [0] * len(names)
    return [{"seat": i, "name": n, "letter": seat_letter(names, i), "score": scores[i],
             "you": i == answer.get("you")} for i, n in enumerate(names)]


def score_words(score: Any, unit: tuple[str, str] = ("point", "points")) -> str:
    """A score and what it counts, in the game's words (``Game.score_unit``):
    "1 point", "10 pieces", "34.5 cm"."""
    if isinstance(score, float) and score.is_integer():
        score = int(score)
    return f"{score} {unit[0] if score == 1 else unit[1]}"


def result_text(seen: dict[str, Any], names: list[str],
                unit: tuple[str, str] = ("point", "points")) -> str:
    """How a finished game ended, in words, from its projection: a shared result
    for a co-operative game, and a winner's score said as the game counts it
    (``unit``: the game's ``score_unit``; the lowest score where lower wins)."""
    winners = [names[w] for w in seen["winners"]]
    if seen.get("cooperative"):
        return "Game over: the players won together." if winners else \
            "Game over: the players lost together."
    if not winners:
        return "Game over."
    best = score_words(seen["scores"][seen["winners"][0]], unit)
    score = f"the lowest score, {best}" if seen.get("better") == "lower" else best
    if len(winners) > 1:
        return f"Game over: {' and '.join(winners)} tie with {score}."
    return f"Game over: {winners[0]} wins with {score}."


def _computers_to_move(answer: dict[str, Any], seats: list[Seat]) -> set[int]:
    """The seats the game awaits that computers hold (no query when the game
    awaits nobody else than the user)."""
    awaited = {t["seat"] for t in answer.get("tasks") or ()} - {answer.get("you")}
    users = {s.index: s.user_id for s in seats if s.index is not None and s.index in awaited}
    if not users:
        return set()
    computers = seat_players().computers(users.values())
    return {seat for seat, user in users.items() if user in computers}


def status_text(answer: dict[str, Any], computers: Collection[int] = ()) -> str:
    """Whose turn it is, or how the game ended, in words, for this user: the page's
    status line (game.js shows it as it comes). ``computers``: the seats of
    computer players, which are thinking while it is their move (their move is
    made by a task after the commit that left it to them: bots.hooks)."""
    state = answer.get("state")
    if state is None:
        return "The game has not started."
    names = answer["players"]
    seen = answer["game"]["projection"]
    if seen.get("finished"):
        return result_text(seen, names, registry.get(answer["game"]["game"]).score_unit)
    awaiting = answer.get("awaiting") or {}
    if awaiting.get("kind") == "chance":
        return f"Waiting for chance to decide {awaiting['what']}."
    tasks = answer.get("tasks") or []
    you = answer.get("you")
    mine = next((t for t in tasks if t["seat"] == you and you is not None), None)
    if mine is not None:
        return f"Your turn: {mine['short']} ({mine['prompt']})."
    return " and ".join(f"{names[t['seat']]} is thinking about its move"
                        if t["seat"] in computers else f"{names[t['seat']]} to play: {t['short']}"
                        for t in tasks) + "."
