"""The chat's forms on the game page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.auth import page_user
from chat import services
from web.bodies import form_post
from web.errors import NotFound, ServiceError


def _then_game(request: HttpRequest, game_id: int, action: Callable[[], Any]) -> HttpResponse:
    """Do ``action``, then back to the game's chat; a page that sent the form itself
    (``Accept: application/json``: games/static/games/client.js, ``sendInPlace``)
    is answered in JSON instead, an error with its code and message."""
    in_place = "application/json" in request.headers.get("Accept", "")
    try:
        action()
    except NotFound as e:
        if in_place:
            return JsonResponse(e.as_dict(), status=404)
        raise Http404(e.message) from None
    except ServiceError as e:
        response: HttpResponse = JsonResponse(e.as_dict(), status=e.status) if in_place \
            else render(request, "games/refused.html",
                        {"message": e.message[:1].upper() + e.message[1:] + "."},
                        status=e.status)
        if retry := getattr(e, "retry_after", None):
            response["Retry-After"] = str(retry)
        return response
    if in_place:
        return JsonResponse({"done": True})
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
