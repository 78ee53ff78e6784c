"""The tournaments' pages: the list, the new-tournament form, a tournament's page
(entrants, rounds, standings), and the join, leave and start buttons' posts.
Thin: each view asks a selector or a service and renders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.auth import page_user
from games.models import Game
from ratings.models import Rating
from tournaments import selectors, services
from tournaments.forms import TournamentForm, option_field_names
from tournaments.models import Tournament
from tournaments.scoring import TIE_BREAKS
from web.bodies import form_post
from web.errors import NotFound, ServiceError


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    sentence = message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
    return render(request, "games/refused.html", {"message": sentence}, status=status)


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {
        "here": "tournaments",
        "lists": [("Upcoming", selectors.tournament_list("open")),
                  ("Running", selectors.tournament_list("running")),
                  ("Finished", selectors.tournament_list("finished"))]})


@login_required
@require_http_methods(["GET", "POST"])
@form_post(*TournamentForm.base_fields, more=option_field_names)
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = services.tournament_create(user=page_user(request),
                                                 **form.create_fields())
        except ServiceError as e:
            form.add_error(e.extra.get("field") if e.extra.get("field") in form.fields
                           else None, e.message)
            return render(request, "tournaments/new.html", {"form": form}, status=e.status)
        messages.success(request, "Tournament created: you are its first entrant.")
        return redirect("tournaments:detail", created.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/new.html", {"form": form, "here": "tournaments"},
                  status=status)


def _detail_context(tournament: Tournament, user: Any) -> dict[str, Any]:
    p = tournament.projection or {}
    names = {e["user"]: e["name"] for e in p.get("entrants", [])}
    names.update({s["user"]: s["name"] for s in p.get("seeding", []) if s.get("name")})
    computers = {e["user"] for e in p.get("entrants", []) if e.get("computer")}
    ordinal = {r.user_id: r.ordinal for r in Rating.objects.filter(
        pool=tournament.game, user_id__in=list(names))}
    seeded = {s["user"]: s["rating"] for s in p.get("seeding", [])}
    entrants = [{"name": names.get(e["user"], "?"), "computer": e["user"] in computers,
                 "rating": seeded.get(e["user"], ordinal.get(e["user"])),
                 "withdrawn": str(e["user"]) in p.get("withdrawn", {})}
                for e in p.get("entrants", [])]
    game_ids = [g for r in p.get("rounds", []) for t in r["tables"] for g in t["games"]]
    games = Game.objects.in_bulk(game_ids)
    rounds = []
    for r in p.get("rounds", []):
        tables = []
        for t in r["tables"]:
            rows = []
            for g in t["games"]:
                places = t["places"].get(str(g), {})
                game = games.get(g)
                rows.append({"id": g, "status": game.status if game else "?",
                             "result": ", ".join(f"{names.get(int(u), '?')} {pl}."
                                                 for u, pl in sorted(places.items(),
                                                                     key=lambda i: i[1]))})
            tables.append({"number": t["table"], "part": t["part"],
                           "players": [names.get(u, "?") for u in t["players"]],
                           "games": rows})
        deadline = parse_datetime(r["deadline"]) if r.get("deadline") else None
        rounds.append({"number": r["round"], "tables": tables, "deadline": deadline,
                       "byes": [names.get(u, "?") for u in r["byes"]]})
    standings = [{**row, "name": names.get(row["user"], "?")} for row in p.get("standings", [])]
    entered = user.is_authenticated and user.pk in names
    return {
        "t": tournament, "entrants": entrants, "rounds": rounds, "standings": standings,
        "tie_breaks": TIE_BREAKS[tournament.format], "now": timezone.now(),
        "winner": names.get(p.get("winner")) if p.get("winner") else None,
        "entered": entered, "why": p.get("why", ""),
        "can_join": tournament.status == "open" and not entered and user.is_authenticated,
        "can_leave": tournament.status == "open" and entered,
        "can_start": tournament.status == "open" and user.is_authenticated
        and tournament.created_by_id == user.pk,
        "here": "tournaments",
    }


@require_GET
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        tournament = selectors.tournament_get(tournament_id)
    except NotFound as e:
        raise Http404(e.message) from None
    return render(request, "tournaments/detail.html", _detail_context(tournament, request.user))


def _post(request: HttpRequest, tournament_id: int, action: Callable[..., Any], done: str
          ) -> HttpResponse:
    try:
        action(tournament=tournament_id, user=page_user(request))
    except ServiceError as e:
        return _refused(request, e.message, e.status)
    messages.success(request, done)
    return redirect("tournaments:detail", tournament_id)


@login_required
@require_POST
@form_post()
def tournament_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _post(request, tournament_id, services.tournament_join, "You have joined.")


@login_required
@require_POST
@form_post()
def tournament_leave(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _post(request, tournament_id, services.tournament_leave, "You have left.")


@login_required
@require_POST
@form_post()
def tournament_start(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _post(request, tournament_id, services.tournament_start,
                 "The tournament has started: its first round is paired.")
