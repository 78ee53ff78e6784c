"""The admin's replay of a game and its "verify" action.

The replay page (/admin/games/game/<id>/replay/) uses the same viewer as the
players' replay page, with the staff's data: each event's stored row and the
engine's summary at every step. "Verify" replays chosen games from zero
through the current engine and reports any event it refuses, or any outcome
that differs from the stored projection (the logic of ``manage.py verify_game``).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games.game_ui import ui_for
from games.management.commands.verify_game import game_problems
from games.models import Game
from games.pages.views import replay_json
from games.selectors import rules_of


def _game(object_id: str) -> Game:
    game = Game.objects.filter(pk=object_id).first()
    if game is None or game.config is None:
        raise Http404("no started game with this id")
    return game


def urls(model_admin: admin.ModelAdmin[Game]) -> list[URLPattern]:
    """The replay URLs, for GameAdmin.get_urls."""
    site = model_admin.admin_site
    name = f"{model_admin.model._meta.app_label}_{model_admin.model._meta.model_name}_replay"

    def replay_page(request: HttpRequest, object_id: str) -> HttpResponse:
        game = _game(object_id)
        context = {
            **site.each_context(request),
            "opts": model_admin.model._meta,
            "title": f"Replay of game {game.pk}",
            "game": game,
            "ui": ui_for(game.game),
            "steps_url": reverse(f"admin:{name}_steps", args=[game.pk]),
            "problems": game_problems(game),
            "rules_version": rules_of(game).rules_version,
        }
        return render(request, "admin/games/game/replay.html", context)

    def replay_steps(request: HttpRequest, object_id: str) -> HttpResponse:
        return replay_json(request, _game(object_id), staff=True)

    return [
        path("<path:object_id>/replay/", site.admin_view(replay_page),
             name=name),
        path("<path:object_id>/replay/steps.json", site.admin_view(replay_steps),
             name=f"{name}_steps"),
    ]


@admin.action(description="Verify: replay from zero and compare with the stored outcome")
def verify(model_admin: admin.ModelAdmin[Game], request: HttpRequest,
           queryset: QuerySet[Game]) -> None:
    for game in queryset.order_by("pk"):
        problems = game_problems(game)
        link = reverse("admin:games_game_replay", args=[game.pk])
        if problems:
            model_admin.message_user(request, format_html(
                'Game {}: {} problem(s): {} (<a href="{}">replay</a>)',
                game.pk, len(problems), "; ".join(problems), link), messages.ERROR)
        else:
            model_admin.message_user(
                request, f"Game {game.pk}: {game.seq} events replay to the stored outcome.",
                messages.SUCCESS)
