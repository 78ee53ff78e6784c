"""The HTML pages, the JSON reads their scripts use, and the game page's
move (the API's own view, answered with what the page draws next). Thin: each
view checks who is asking, calls a service or a selector, and renders."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import InvalidPage
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.authentication import SessionAuthentication

from accounts import throttles
from accounts.auth import page_user
from engine import registry
from games import services
from games.api import GameActions
from games.forms import GameCreateForm, InviteForm
from games.game_ui import ui_for
from games.mail import game_mail
from games.models import Game, Invitation
from games.pages import reads, replay
from games.seating import seat_players
from games.selectors import (
    game_get,
    game_invitations,
    game_list,
    invitation_links,
    invitation_url,
    seat_index_of,
)
from live import stream
from live.state_cache import states
from web.bodies import form_post
from web.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError, sentence
from web.http import json_bytes, state_or_changes

# ---------------------------------------------------------------- plumbing


def _game_or_404(game_id: int) -> Game:
    try:
        return game_get(game_id)
    except NotFound:
        raise Http404(f"there is no game {game_id}") from None


def _json_error(error: ServiceError) -> JsonResponse:
    """An error for a page's script, as the API gives it: {"code", "message", ...}."""
    return JsonResponse(error.as_dict(), status=error.status)


def _json_read(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A script's read (GET only): a 403 with a message instead of a redirect to the
    sign-in page, and a service's error as JSON."""

    @require_GET
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return _json_error(Forbidden("you are signed out: sign in again",
                                         code="not_signed_in"))
        try:
            return view(request, *args, **kwargs)
        except ServiceError as e:
            return _json_error(e)

    return wrapped


def _attempt(request: HttpRequest, action: Callable[[], Any], done: str) -> bool:
    """Run a service; say what happened as a message either way (a game or an
    invitation that does not exist is a 404 page)."""
    try:
        action()
    except NotFound as e:
        raise Http404(e.message) from None
    except ServiceError as e:
        messages.error(request, sentence(e.message))
        return False
    messages.success(request, done)
    return True


# ---------------------------------------------------------------- the home and rules pages


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The site's games side by side, each drawn by its own module, and what
    the signed-in player may do next."""
    count = reads.your_turn_count(request.user)
    return render(request, "games/home.html", {"your_turn_count": count,
                                               "games": reads.game_cards(),
                                               **seat_players().home_context()})


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    """Every game's rules page, a line on each game beside it."""
    return render(request, "games/rules_index.html",
                  {"games": reads.game_cards(pictures=False)})


@require_GET
def rules(request: HttpRequest, game: str) -> HttpResponse:
    """The game's rules in the project's own words, as its UI folder gives them."""
    page = ui_for(game).rules_page if game in {g.key for g in registry.games()} else None
    if page is None:
        raise Http404(f"there are no rules here for {game!r}")
    template, context = page()
    return render(request, template, context)


# ---------------------------------------------------------------- lists


def _no_such_page(request: HttpRequest) -> HttpResponse:
    """A page number past the end of a list, or no number at all (404)."""
    asked = request.GET.get("page", "")
    return render(request, "games/no_such_page.html",
                  {"asked": asked[:20], "first": request.path}, status=404)


@login_required
@form_post("game", "seats", "days_per_move", "emails", more=GameCreateForm.field_names)
def lobby(request: HttpRequest) -> HttpResponse:
    form = GameCreateForm(request.POST or None)
    status = 400 if form.is_bound else 200  # a form shown again has been refused
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if too_often := throttles.check(throttles.GameCreateThrottle, request):
                status = 429
                raise Invalid(too_often, code="throttled")
            if data["emails"] and (refused := throttles.check(throttles.InviteThrottle,
                                                               request)):
                status = 429
                raise Invalid(refused, code="throttled")
            # the game and its invitations: both, or neither
            game = seat_players().game_create(
                user=page_user(request), game=data["game"], options=data["options"],
                seats=data["seats"], days_per_move=data["days_per_move"],
                invite=data["emails"], url_for=invitation_url,
                extra={name: data[name] for name in form.extra_fields})
        except ServiceError as e:
            form.add_error(None, sentence(e.message))
            if e.code == "too_many_open_games":
                status = e.status
        else:
            sent = len(data["emails"])
            invited = f"; {sent} invitation{'s' if sent != 1 else ''} sent" if sent else ""
            if game.status == Game.Status.RUNNING:
                messages.success(request, f"Game {game.pk} has started{invited}.")
            else:
                messages.success(request, f"Game {game.pk} is open{invited}. It starts when "
                                 "every seat is taken.")
            return redirect("pages:game", game.pk)
    user = page_user(request)
    open_games = game_list(user=user, which="open")
    try:
        games, page = reads.listed_page(open_games, user, request.GET.get("page", 1))
    except InvalidPage:
        return _no_such_page(request)
    return render(request, "games/lobby.html",
                  {"form": form, "games": games, "page": page}, status=status)


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    try:
        mine = reads.my_games(page_user(request), request.GET.get("page", 1))
    except InvalidPage:
        return _no_such_page(request)
    return render(request, "games/my_games.html", {"mine": mine, "page": mine.page})


@login_required
@require_GET
def finished_games(request: HttpRequest) -> HttpResponse:
    user = page_user(request)
    finished = game_list(user=user, which="finished")
    try:
        games, page = reads.listed_page(finished, user, request.GET.get("page", 1))
    except InvalidPage:
        return _no_such_page(request)
    return render(request, "games/finished.html", {"games": games, "page": page})


# ---------------------------------------------------------------- one game


@login_required
@require_GET
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    return _game_page(request, _game_or_404(game_id), InviteForm())


def _game_page(request: HttpRequest, game: Game, invite_form: InviteForm,
               status: int = 200) -> HttpResponse:
    user = page_user(request)
    game_mail().game_viewed(game=game, user=user)
    you = seat_index_of(game, user)
    state = reads.page_state(game, user) if game.is_started else None
    seated = any(s.user_id == user.pk for s in game.seat_list())
    return render(request, "games/game.html", {
        **_panels_context(game, user),
        "you": you,
        "seated": seated,
        "seats": sorted(game.seat_list(), key=lambda s: (s.index is None, s.index or 0)),
        "page_state": state,
        "status": state["status_text"] if state else None,
        "player_rows": reads.player_rows(state) if state else [],
        "invite_form": invite_form,
        "invite_links": [invitation_url(i.token)
                         for i in invitation_links(game, user)]
        if seated and game.status == Game.Status.OPEN else [],
        "invitations": game_invitations(game, user)
        if seated and game.status == Game.Status.OPEN else [],
        # a player's page is sent its views, when it is their move
        "stream_url": _stream_url(game, user),
    }, status=status)


def _stream_url(game: Game, user: User) -> str:
    """The page's stream ("" when there is none): the user's, and their seat's
    while they hold it; a finished game's too, for its chat and rematch."""
    return stream.stream_url(game, user) if game.is_started else ""


@_json_read
def game_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    """A fresh address of the page's stream (``{"url": null}`` when there is
    none): what the page asks for when its stream ended (its token's life is
    over, or its seat changed hands)."""
    response = JsonResponse({"url": _stream_url(game_get(game_id), page_user(request)) or None})
    patch_cache_control(response, private=True, no_store=True)
    return response


@_json_read
def game_panels(request: HttpRequest, game_id: int) -> HttpResponse:
    """The parts of the game page drawn beside the game's record (games.panels),
    as the page draws them now, with the panels seq they were drawn at: what an
    open page reads when its game ends and when the panels seq passes its own."""
    game = game_get(game_id)
    html = render_to_string("games/panels.html", _panels_context(game, page_user(request)),
                            request)
    response = JsonResponse({"panels": game.panels_seq, "html": html})
    patch_cache_control(response, private=True, no_store=True)
    return response


def _panels_context(game: Game, user: User) -> dict[str, Any]:
    """What the parts of the page drawn beside the game's record are drawn from."""
    return {"game": game, "ui": ui_for(game.game), "can_replay": _may_replay(game, user),
            "resign": reads.resign_outcome(game, user)}


@_json_read
def game_state(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_get(game_id)
    user = page_user(request)
    game_mail().game_viewed(game=game, user=user)  # the page polls this
    if not game.is_started:
        raise Conflict("the game has not started", code="game_not_running", status=game.status)
    response = JsonResponse(reads.page_state(game, user))
    patch_cache_control(response, private=True, no_cache=True)  # revalidated: ETag, 304
    return response


def seat_view(game: Game, user: User) -> bytes:
    """What the page's ``state.json`` would give the player now: what the page's
    stream is sent when it is their move (live.stream). Where this process made
    the seat a view at an earlier seq (the answer to their last move, say), the
    state comes as the changes since that seq (``since``), as a move's answer
    gives them (docs/api.md); a page that holds another seq reads the game."""
    seat = seat_index_of(game, user)
    kept = states.view_latest(game.pk, seat) if seat is not None else None
    answer = reads.page_state(game, user)
    if kept is not None and kept[0] < answer["seq"] and answer.get("state") is not None:
        since, before = kept
        if state_or_changes(answer, GameActionsPage.held_state(before, answer)):
            answer["since"] = since
    return json_bytes(answer)


@extend_schema_view(post=extend_schema(exclude=True))
class GameActionsPage(GameActions):
    """The game page's move: the API's, by the page's session (and its CSRF
    token), answered with what the page draws next, so that no GET follows."""

    authentication_classes = [SessionAuthentication]

    @staticmethod
    def answer_view(game: Game, user: User) -> dict[str, Any]:
        game_mail().game_viewed(game=game, user=user)  # a visit, as a GET of state.json is
        return reads.page_state(game, user)

    @staticmethod
    def held_state(before: Any, view: dict[str, Any]) -> Any:
        return {**before, "players": view["players"]}  # as page_state gives it


@login_required
@require_POST
@form_post()
def game_join(request: HttpRequest, game_id: int) -> HttpResponse:
    def join() -> None:
        joined = services.game_join(game=game_id, user=page_user(request))
        if joined.status == Game.Status.RUNNING:
            messages.info(request, "Every seat is taken: the game has started.")

    _attempt(request, join, "You have a seat in this game.")
    return redirect("pages:game", game_id)


@login_required
@require_POST
@form_post()
def game_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    if _attempt(request, lambda: services.game_leave(game=game_id, user=page_user(request)),
                "You left the game."):
        return redirect("pages:lobby")
    return redirect("pages:game", game_id)


@login_required
@require_POST
@form_post("emails")
def game_invite(request: HttpRequest, game_id: int) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():  # the game page again, with the addresses and what is wrong
        return _game_page(request, _game_or_404(game_id), form, status=400)
    emails = form.cleaned_data["emails"]
    if refused := throttles.check(throttles.InviteThrottle, request):
        messages.error(request, sentence(refused))
        return redirect("pages:game", game_id)
    _attempt(request, lambda: services.game_invite(game=game_id, user=page_user(request),
                                                   emails=emails, url_for=invitation_url),
             f"Invited {', '.join(emails)}.")
    return redirect("pages:game", game_id)


@login_required
@require_POST
@form_post()
def game_invite_link(request: HttpRequest, game_id: int) -> HttpResponse:
    """A link to pass on (no address): it gives its seat to whoever takes it first."""
    if refused := throttles.check(throttles.InviteThrottle, request):
        messages.error(request, sentence(refused))
        return redirect("pages:game", game_id)
    _attempt(request, lambda: services.game_invite(game=game_id, user=page_user(request),
                                                   emails=[], url_for=invitation_url),
             "Here is a link to pass on: it gives a seat to the first person who takes it.")
    return redirect("pages:game", game_id)


@login_required
@require_http_methods(["GET", "POST"])
@form_post()
def game_resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET asks to confirm, saying what resigning does in this game; POST resigns."""
    game = _game_or_404(game_id)
    user = page_user(request)
    outcome = reads.resign_outcome(game, user)
    if request.method == "GET":
        if outcome is None:
            messages.info(request, "You cannot resign from this game: you have no seat in it "
                          "that is still playing, or it is not running.")
            return redirect("pages:game", game_id)
        return render(request, "games/resign.html", {"game": game, "outcome": outcome})
    try:
        result = services.game_resign(game=game_id, user=user)
    except ServiceError as e:
        messages.error(request, sentence(e.message))
    else:
        if result.status == Game.Status.FINISHED:
            winner = f" and {outcome.others[0]} wins" if outcome and outcome.ends_game else ""
            messages.success(request, f"You resigned: the game is over{winner}.")
        else:
            messages.success(request, "You resigned: the others play on without you.")
    return redirect("pages:game", game_id)


@login_required
@form_post()
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    found = Invitation.objects.with_token(token).select_related(
        "game", "created_by", "invitee", "accepted_by").first()
    if found is None:
        raise Http404("there is no such invitation")
    user = page_user(request)
    if request.method == "POST":
        _attempt(request, lambda: services.invitation_accept(token=token, user=user),
                 "You have a seat in this game.")
        return redirect("pages:game", found.game_id)
    game = _game_or_404(found.game_id)
    # what a click would do, said before it: a used invitation, someone else's
    refusal = services.invitation_refusal(found, user) \
        if found.accepted_by_id != user.pk else ""
    return render(request, "games/invitation.html", {
        "invitation": found, "game": game, "refusal": sentence(refusal) if refusal else "",
        "seated": any(s.user_id == user.pk for s in game.seat_list())})


# ---------------------------------------------------------------- replays


REPLAY_REFUSED = "only finished games, and the running games you play in, can be replayed"


def _may_replay(game: Game, user: User) -> bool:
    """Finished games for everyone signed in; running games for their players."""
    if game.status == Game.Status.FINISHED:
        return True
    return game.status == Game.Status.RUNNING and seat_index_of(game, user) is not None


@login_required
@require_GET
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(game_id)
    if not _may_replay(game, page_user(request)):
        return render(request, "games/forbidden.html", {"message": sentence(REPLAY_REFUSED)},
                      status=403)
    return render(request, "games/replay.html", {
        "game": game,
        "ui": ui_for(game.game),
        "steps_url": reverse("pages:replay-steps", args=[game.pk]),
        "record_url": reverse("api-game-record", args=[game.pk])
        if game.status == Game.Status.FINISHED else None,
    })


@_json_read
def game_replay_steps(request: HttpRequest, game_id: int) -> HttpResponse:
    game = game_get(game_id)
    if not _may_replay(game, page_user(request)):
        raise Forbidden(REPLAY_REFUSED)
    return replay_json(request, game, staff=False)


def replay_json(request: HttpRequest, game: Game, *, staff: bool) -> JsonResponse:
    """?at=N: the game after N events; without it, the list of every step. Each
    as the user knew it: the view of their seat (staff: everything)."""
    at = request.GET.get("at")
    seat = None if staff else seat_index_of(game, page_user(request))
    if at is None:
        return JsonResponse(replay.replay_index(game, seat=seat, staff=staff))
    try:
        n = int(at)
    except ValueError:
        return _json_error(Invalid("'at' must be a number of events", field="at"))
    return JsonResponse(replay.replay_step(game, n, seat=seat, staff=staff))
