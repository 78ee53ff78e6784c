"""The replay page's "Review my moves" button: a form posted here."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.auth import page_user
from reviews import services
from web.bodies import form_post
from web.errors import ServiceError


@login_required
@require_POST
@form_post()
def review_ask(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        review, started = services.review_request(game_id=game_id, user=page_user(request))
    except ServiceError as e:
        return render(request, "games/refused.html", {"message": e.message[:1].upper()
                                                      + e.message[1:] + "."}, status=e.status)
    if started:
        messages.success(request, "The computer is going through the moves: this page shows "
                         "the review when it is ready.")
    return redirect("pages:replay", game_id)
