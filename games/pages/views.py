"""The HTML pages and the two JSON reads their scripts use. Thin: each view
checks who is asking, calls a service or a selector, and renders. Moves are
not made here: the game page's script posts them to the API."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.errors import NotFound, ServiceError
from games.forms import GameCreateForm, InviteForm, SignUpForm
from games.models import Game, Invitation
from games.pages import reads, replay
from games.selectors import game_get, game_list, seat_index_of

# ---------------------------------------------------------------- plumbing


def _game_or_404(game_id: int) -> Game:
    try:
        return game_get(game_id)
    except NotFound:
        raise Http404(f"there is no game {game_id}") from None


def _json_login_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A script's read: 403 with a message instead of a redirect to the sign-in page."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return JsonResponse({"code": "not_signed_in",
                                 "message": "you are signed out: sign in again"}, status=403)
        return view(request, *args, **kwargs)

    return wrapped


def _attempt(request: HttpRequest, action: Callable[[], Any], done: str) -> bool:
    """Run a service; say what happened as a message either way."""
    try:
        action()
    except ServiceError as e:
        messages.error(request, e.message[:1].upper() + e.message[1:] + ".")
        return False
    messages.success(request, done)
    return True


def _invite_url(request: HttpRequest) -> Callable[[str], str]:
    return lambda token: request.build_absolute_uri(reverse("pages:invitation", args=[token]))


# ---------------------------------------------------------------- accounts


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    count = reads.your_turn_count(request.user)
    return render(request, "games/home.html", {"your_turn_count": count})


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("pages:my-games")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}: find a game in the lobby "
                         "or start one.")
        return redirect("pages:lobby")
    return render(request, "registration/signup.html", {"form": form})


# ---------------------------------------------------------------- lists


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.game_create(user=request.user, variant=data["variant"],
                                        length=data["length"], seats=data["seats"],
                                        days_per_move=data["days_per_move"])
            if data["emails"]:
                services.game_invite(game=game, user=request.user, emails=data["emails"],
                                     url_for=_invite_url(request))
        except ServiceError as e:
            form.add_error(None, e.message)
        else:
            invited = f" and invited {len(data['emails'])}" if data["emails"] else ""
            messages.success(request, f"Game {game.pk} is open{invited}: it starts when every "
                             "seat is taken.")
            return redirect("pages:game", game.pk)
    games = reads.listed(game_list(user=request.user, which="open"), request.user)
    return render(request, "games/lobby.html", {"form": form, "games": games})


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    return render(request, "games/my_games.html", {"mine": reads.my_games(request.user)})


@login_required
@require_GET
def finished_games(request: HttpRequest) -> HttpResponse:
    games = reads.listed(game_list(user=request.user, which="finished")[:200], request.user)
    return render(request, "games/finished.html", {"games": games})


# ---------------------------------------------------------------- one game


@login_required
@require_GET
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(game_id)
    you = seat_index_of(game, request.user)
    state = reads.page_state(game, request.user) if game.is_started else None
    seated = any(s.user_id == request.user.pk for s in game.seats.all())
    return render(request, "games/game.html", {
        "game": game,
        "you": you,
        "seated": seated,
        "seats": sorted(game.seats.all(), key=lambda s: (s.index is None, s.index or 0)),
        "page_state": state,
        "status": reads.status_text(state) if state else None,
        "player_rows": reads.player_rows(state) if state else [],
        "invite_form": InviteForm(),
        "can_replay": game.status == Game.Status.FINISHED
        or (game.status == Game.Status.RUNNING and you is not None),
    })


@_json_login_required
@require_GET
def game_state(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = game_get(game_id)
    except NotFound as e:
        return JsonResponse(e.as_dict(), status=e.status)
    if not game.is_started:
        return JsonResponse({"code": "game_not_running", "message": "the game has not started",
                             "status": game.status}, status=409)
    return JsonResponse(reads.page_state(game, request.user))


@login_required
@require_POST
def game_join(request: HttpRequest, game_id: int) -> HttpResponse:
    def join() -> None:
        joined = services.game_join(game=game_id, user=request.user)
        if joined.status == Game.Status.RUNNING:
            messages.info(request, "Every seat is taken: the game has started.")

    _attempt(request, join, "You have a seat in this game.")
    return redirect("pages:game", game_id)


@login_required
@require_POST
def game_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    if _attempt(request, lambda: services.game_leave(game=game_id, user=request.user),
                "You left the game."):
        return redirect("pages:lobby")
    return redirect("pages:game", game_id)


@login_required
@require_POST
def game_invite(request: HttpRequest, game_id: int) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("emails", []):
            messages.error(request, error)
        return redirect("pages:game", game_id)
    emails = form.cleaned_data["emails"]
    _attempt(request, lambda: services.game_invite(game=game_id, user=request.user,
                                                   emails=emails, url_for=_invite_url(request)),
             f"Invited {', '.join(emails)}.")
    return redirect("pages:game", game_id)


@login_required
@require_POST
def game_resign(request: HttpRequest, game_id: int) -> HttpResponse:
    _attempt(request, lambda: services.game_resign(game=game_id, user=request.user),
             "You resigned: the others play on without you.")
    return redirect("pages:game", game_id)


@login_required
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    found = Invitation.objects.filter(token=token).select_related("game", "created_by").first()
    if found is None:
        raise Http404("there is no such invitation")
    if request.method == "POST":
        _attempt(request, lambda: services.invitation_accept(token=token, user=request.user),
                 "You have a seat in this game.")
        return redirect("pages:game", found.game_id)
    game = _game_or_404(found.game_id)
    return render(request, "games/invitation.html", {"invitation": found, "game": game})


# ---------------------------------------------------------------- replays


def _may_replay(game: Game, user: Any) -> bool:
    """Finished games for everyone signed in; running games for their players."""
    if game.status == Game.Status.FINISHED:
        return True
    return game.status == Game.Status.RUNNING and seat_index_of(game, user) is not None


@login_required
@require_GET
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(game_id)
    if not _may_replay(game, request.user):
        return render(request, "games/forbidden.html", {
            "message": "Only finished games, and the running games you play in, can be "
                       "replayed."}, status=403)
    return render(request, "games/replay.html", {
        "game": game,
        "steps_url": reverse("pages:replay-steps", args=[game.pk]),
        "record_url": reverse("api-game-record", args=[game.pk])
        if game.status == Game.Status.FINISHED else None,
    })


@_json_login_required
@require_GET
def game_replay_steps(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = game_get(game_id)
    except NotFound as e:
        return JsonResponse(e.as_dict(), status=e.status)
    if not _may_replay(game, request.user):
        return JsonResponse({"code": "forbidden", "message": "only finished games, and the "
                             "running games you play in, can be replayed"}, status=403)
    return replay_json(request, game, staff=False)


def replay_json(request: HttpRequest, game: Game, *, staff: bool) -> JsonResponse:
    """?at=N: the game after N events; without it, the list of every step."""
    at = request.GET.get("at")
    if at is None:
        return JsonResponse(replay.replay_index(game, staff=staff))
    try:
        n = int(at)
    except ValueError:
        return JsonResponse({"code": "invalid", "message": "'at' must be a number of events"},
                            status=400)
    return JsonResponse(replay.replay_step(game, n, staff=staff))
