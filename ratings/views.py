"""The pages: leaderboards, a player's profile, and the rematch buttons' posts.
Thin: each view asks a selector or a service and renders."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts import throttles
from accounts.auth import page_user
from engine import registry
from games.models import Game
from games.selectors import invitation_url
from ratings import selectors, services
from ratings.chart import rating_chart
from web.bodies import form_post
from web.errors import NotFound, ServiceError, sentence


@login_required
@require_GET
def leaderboards(request: HttpRequest) -> HttpResponse:
    boards = [{"pool": g.key, "title": g.title, "top": selectors.leaderboard(g.key, 3)}
              for g in registry.games()]
    return render(request, "ratings/leaderboards.html", {"boards": boards})


@login_required
@require_GET
def leaderboard(request: HttpRequest, pool: str) -> HttpResponse:
    try:
        pool = selectors.pool_get(pool)
    except NotFound as e:
        raise Http404(e.message) from None
    rows = selectors.leaderboard(pool)
    return render(request, "ratings/leaderboard.html", {
        "pool": pool, "title": selectors.pool_title(pool), "rows": rows,
        "mine": next((i + 1 for i, r in enumerate(rows) if r.user_id == request.user.pk), None)})


@login_required
@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    try:
        player = selectors.user_get(username)
    except NotFound as e:
        raise Http404(e.message) from None
    histories = selectors.rating_histories(player)
    return render(request, "ratings/profile.html", {
        "player": player,
        "is_you": player.pk == request.user.pk,
        "ratings": [{"history": h, "chart": rating_chart(h.points)} for h in histories],
        "counts": selectors.game_record_counts(player),
        "finished": selectors.player_games(player, Game.Status.FINISHED),
        "current": selectors.player_games(player, Game.Status.RUNNING),
        "played": selectors.people_played(player) if player.pk == request.user.pk else [],
    })


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """A post refused: the page says why, with the service's status; nothing changed."""
    return render(request, "games/refused.html", {"message": sentence(message)},
                  status=status)


def _done(request: HttpRequest, action: Callable[[], Any], done: str,
          then: Callable[[], HttpResponse]) -> HttpResponse:
    try:
        action()
    except ServiceError as e:  # a game or a player that does not exist too: a 404
        return _refused(request, e.message, e.status)
    messages.success(request, done)
    return then()


@login_required
@require_POST
@form_post()
def rematch_offer(request: HttpRequest, game_id: int) -> HttpResponse:
    return _done(request, lambda: services.rematch_offer(game_id=game_id, user=page_user(request)),
                 "Rematch offered: the new game starts once everyone has accepted.",
                 lambda: redirect("pages:game", game_id))


@login_required
@require_POST
@form_post("answer")
def rematch_answer(request: HttpRequest, game_id: int) -> HttpResponse:
    answer = request.POST.get("answer")
    if answer not in ("accept", "decline"):
        return _refused(request, "answer the rematch with accept or decline", 400)
    accept = answer == "accept"

    def then() -> HttpResponse:
        rematch = selectors.rematch_of(game_id)
        if accept and rematch is not None and rematch.new_game_id is not None:
            return redirect("pages:game", rematch.new_game_id)  # everyone said yes
        return redirect("pages:game", game_id)

    return _done(request, lambda: services.rematch_answer(game_id=game_id, user=page_user(request),
                                                          accept=accept),
                 "You accepted the rematch." if accept else "You declined the rematch.", then)


@login_required
@require_POST
@form_post("usernames")
def game_invite_users(request: HttpRequest, game_id: int) -> HttpResponse:
    """The open game's "invite by username" form: names apart by commas or spaces."""
    names = request.POST.get("usernames", "").replace(",", " ").split()
    if refused := throttles.check(throttles.InviteThrottle, request):
        return _refused(request, refused, 429)
    return _done(request, lambda: services.game_invite_users(
        game_id=game_id, user=page_user(request), usernames=names, url_for=invitation_url),
        f"Invited {', '.join(names)}: each has been mailed a link to join.",
        lambda: redirect("pages:game", game_id))


@login_required
@require_POST
@form_post("rated")
def game_rated_choose(request: HttpRequest, game_id: int) -> HttpResponse:
    """The open game's "rated with a computer player" checkbox."""
    rated = request.POST.get("rated") == "on"
    return _done(request, lambda: services.game_rated_choose(
        game_id=game_id, user=page_user(request), rated=rated),
                 "Rated, should a computer player take a seat." if rated
                 else "Unrated, should a computer player take a seat.",
                 lambda: redirect("pages:game", game_id))
