"""The game page's note form."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.auth import page_user
from notes import services
from web.bodies import form_post
from web.errors import NotFound, ServiceError


@login_required
@require_POST
@form_post("text")
def note_save(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        note = services.note_save(game_id=game_id, user=page_user(request),
                                  text=request.POST.get("text", ""))
    except NotFound as e:
        raise Http404(e.message) from None
    except ServiceError as e:
        return render(request, "games/refused.html", {"message": e.message[:1].upper()
                                                      + e.message[1:] + "."}, status=e.status)
    messages.success(request, "Note kept: only you can see it." if note else "Note deleted.")
    return redirect("pages:game", game_id)
