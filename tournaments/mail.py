"""Mail (and a push, where the player has turned them on) to a tournament's
players: "round N has started: your games" and "the tournament is over: you
finished 3rd of 12". Written to the notifications outbox in the transaction that
appends the event, sent after it commits, as every mail of the site is."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse

from games.models import Game
from notifications import emails, push
from notifications.models import Notification
from notifications.services import notifications_queue
from tournaments.log import RoundState, State
from tournaments.models import Tournament
from tournaments.scoring import shown
from web.links import site_url


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _path(tournament: Tournament) -> str:
    return reverse("tournaments:detail", args=[tournament.pk])


def _row(tournament: Tournament, user_id: int, key: str, subject: str, template: str,
         context: dict[str, Any], push_body: str) -> Notification:
    context = {**emails.links(user_id=user_id, game=None), **context,
               "tournament": tournament, "url": site_url(_path(tournament))}
    row = Notification(
        user_id=user_id, kind=Notification.Kind.TOURNAMENT, dedup_key=key, subject=subject,
        body_text=render_to_string(f"tournaments/email/{template}.txt", context).strip() + "\n",
        body_html=render_to_string(f"tournaments/email/{template}.html", context))
    return push.words(row, tournament.name, push_body, url=_path(tournament))


def round_started(tournament: Tournament, state: State, rnd: RoundState) -> None:
    """Each player of the round: their games (with the others at each table), or
    their bye."""
    games = Game.objects.in_bulk([g for t in rnd.tables for g in t.games])
    rows = []
    for player in sorted({p for t in rnd.tables for p in t.players} | set(rnd.byes)):
        mine = [{"url": site_url(f"/games/{g}/"), "id": g, "title": emails.game_title(games[g]),
                 "against": [state.entrants.get(p, "?") for p in t.players if p != player]}
                for t in rnd.tables if player in t.players for g in t.games]
        subject = f"{tournament.name}: round {rnd.number} has started: your games" if mine \
            else f"{tournament.name}: round {rnd.number} has started: you have a bye"
        said = (f"Round {rnd.number}: {len(mine)} game{'s' if len(mine) != 1 else ''} to play"
                if mine else f"Round {rnd.number}: a bye")
        rows.append(_row(tournament, player, f"tournament:{tournament.pk}:round:{rnd.number}:"
                         f"{player}", subject, "round_started",
                         {"round": rnd, "games": mine, "user_name": state.entrants.get(player),
                          "deadline": rnd.deadline}, said))
    if rows:
        notifications_queue(rows)


def tournament_over(tournament: Tournament, state: State) -> None:
    from tournaments.log import standings

    table = standings(state)
    names = state.entrants
    rows = []
    for row in table:
        subject = (f"{tournament.name} is over: you finished {ordinal(row.rank)} of "
                   f"{len(table)}")
        rows.append(_row(tournament, row.player, f"tournament:{tournament.pk}:over:"
                         f"{row.player}", subject, "over",
                         {"place": ordinal(row.rank), "count": len(table),
                          "user_name": names.get(row.player),
                          "table": [{"rank": r.rank, "name": names.get(r.player, "?"),
                                     "points": shown(r.points)} for r in table[:10]]},
                         f"You finished {ordinal(row.rank)} of {len(table)}"))
    if rows:
        notifications_queue(rows)
