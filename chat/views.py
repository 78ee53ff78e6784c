"""The chat's forms on the game page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from chat import services
from games.auth import page_user
from games.bodies import form_post
from games.errors import NotFound, ServiceError


def _then_game(request: HttpRequest, game_id: int, action: Callable[[], Any]) -> HttpResponse:
    try:
        action()
    except NotFound as e:
        raise Http404(e.message) from None
    except ServiceError as e:
        response = render(request, "games/refused.html",
                          {"message": e.message[:1].upper() + e.message[1:] + "."},
                          status=e.status)
        if retry := getattr(e, "retry_after", None):
            response["Retry-After"] = str(retry)
        return response
    return redirect(f"/games/{game_id}/#chat")


@login_required
@require_POST
@form_post("text")
def chat_post(request: HttpRequest, game_id: int) -> HttpResponse:
    return _then_game(request, game_id, lambda: services.chat_post(
        game_id=game_id, user=page_user(request), text=request.POST.get("text", "")))


@login_required
@require_POST
@form_post("muted")
def chat_mute(request: HttpRequest, game_id: int) -> HttpResponse:
    return _then_game(request, game_id, lambda: services.chat_mute_set(
        game_id=game_id, user=page_user(request), muted=request.POST.get("muted") == "on"))
