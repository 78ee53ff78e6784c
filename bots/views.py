"""The page that starts a game against the computer (the home page's button)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts import throttles
from accounts.auth import page_user
from bots import services
from bots.forms import PlayComputerForm
from web.bodies import form_post
from web.errors import ServiceError


@login_required
@require_POST
@form_post(more=PlayComputerForm.field_names)
def play_computer(request: HttpRequest) -> HttpResponse:
    form = PlayComputerForm(request.POST)
    if not form.is_valid():
        problems = "; ".join(f"{name}: {' '.join(map(str, errors))}" if name != "__all__"
                             else " ".join(map(str, errors))
                             for name, errors in form.errors.items())
        return render(request, "games/refused.html",
                      {"message": f"That game cannot be started: {problems}"}, status=400)
    if refused := throttles.check(throttles.GameCreateThrottle, request):
        return render(request, "games/refused.html",
                      {"message": refused[:1].upper() + refused[1:] + "."}, status=429)
    data = form.cleaned_data
    try:
        game = services.play_the_computer(user=page_user(request), game=data["game"],
                                          options=data["options"], levels=data["levels"],
                                          rated=data["rated"])
    except ServiceError as e:
        return render(request, "games/refused.html", {"message": e.message}, status=e.status)
    levels = data["levels"]
    against = (f"the {levels[0]} computer" if len(levels) == 1
               else f"{len(levels)} computer players ({', '.join(levels)})")
    rated = "a rated game" if data["rated"] else "unrated"
    messages.success(request, f"Your game of {game.title} against {against} has started "
                     f"({rated}).")
    return redirect("pages:game", game.pk)
