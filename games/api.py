"""The REST API: thin views that check the shape of a request, call a service or
a selector, and serialize the answer. Errors cross this boundary one way only:
see ``exception_handler``."""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth.models import User
from django.http import HttpResponse
from django.utils.cache import patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from accounts.auth import LazyAuthentication, signed_in_user
from accounts.throttles import GameCreateThrottle
from games import selectors, services
from games.mail import game_mail
from games.models import Game
from games.seating import seat_players
from games.serializers import (
    ActionAnswerSerializer,
    ActionResultSerializer,
    ActionSubmitSerializer,
    EventSerializer,
    GameCreateSerializer,
    GameListQuerySerializer,
    GameSerializer,
    GameStateSerializer,
    InvitedSerializer,
    InviteSerializer,
    JoinSerializer,
    MoveQuerySerializer,
    QuerySerializer,
    RecordImportSerializer,
    action_result_json,
    game_json,
)
from live import stream
from web.bodies import MAX_QUERY_JSON, json_parse
from web.errors import Invalid, NotFound
from web.http import FastJSONRenderer, state_or_changes
from web.serializers import ERROR, EmptySerializer, request_body, valid

# ---------------------------------------------------------------- plumbing


def _polled(response: Response) -> Response:
    """An answer that clients poll: kept by the browser, but for this user only and
    asked again each time (If-None-Match, answered 304 while it has not changed)."""
    patch_cache_control(response, private=True, no_cache=True)
    return response


class Ping(APIView):
    """A trivial DRF endpoint: the floor under every other endpoint's latency."""

    permission_classes = [AllowAny]
    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(responses=inline_serializer("Pong", {"ping": serializers.CharField()}))
    def get(self, request: Request) -> Response:
        return Response({"ping": "pong"})


# ---------------------------------------------------------------- games


class GamePage(PageNumberPagination):
    page_size = 50
    invalid_page_message = "there is no page {page_number} of this list: {message}"


GAME_PAGE = inline_serializer(
    "GamePage",
    {
        "count": serializers.IntegerField(help_text="Games in the whole list."),
        "next": serializers.URLField(allow_null=True, help_text="The next page, if any."),
        "previous": serializers.URLField(allow_null=True,
                                         help_text="The page before, if any."),
        "results": GameSerializer(many=True, help_text="This page's games, newest first."),
    },
)


class GameList(APIView):
    def get_throttles(self) -> list[BaseThrottle]:
        # only starting games is counted; reading the lists is not
        return [GameCreateThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        parameters=[
            OpenApiParameter("list", str, enum=list(selectors.LISTS), default="mine",
                             description="mine: your games; open: games with a free seat; "
                             "finished: games that are over"),
            OpenApiParameter("page", int),
        ],
        responses={200: GAME_PAGE, 400: ERROR, 404: ERROR},
        operation_id="games_list",
    )
    def get(self, request: Request) -> Response:
        query = valid(GameListQuerySerializer, request.query_params.dict())
        games = selectors.game_list(user=signed_in_user(request), which=query["list"])
        paginator = GamePage()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response(GameSerializer(page, many=True).data)

    @extend_schema(
        request=GameCreateSerializer,
        responses={201: GameSerializer, 400: ERROR, 409: ERROR, 429: ERROR},
        description="Start an open game with you in its first seat, and computer players "
        "(`bots`, by level, in any mix: `[\"medium\", \"medium\"]` seats two) in others: "
        "with every seat taken it starts at once. 400: an unknown level, more bots than "
        "seats but yours, `takeover` in a game of fewer than 3 players. 409 "
        "too_many_open_games: you have MARRAM_MAX_OPEN_GAMES games still waiting for "
        "players; 429: you have started too many games lately (Retry-After says when to "
        "try again).",
    )
    def post(self, request: Request) -> Response:
        data = valid(GameCreateSerializer, request_body(request))
        game = seat_players().game_create(
            user=signed_in_user(request),
            game=data["game"],
            options=data["options"],
            seats=data["seats"],
            days_per_move=data["days_per_move"],
            extra={"bots": data["bots"], "takeover": data["takeover"]},
        )
        return Response(game_json(game), status=status.HTTP_201_CREATED)


class GameDetail(APIView):
    @extend_schema(responses=GameStateSerializer)
    def get(self, request: Request, game_id: int) -> Response:
        user = signed_in_user(request)
        game = selectors.game_get(game_id)
        game_mail().game_viewed(game=game, user=user)
        return _polled(Response(_game_state(game, user)))


class GameStream(APIView):
    @extend_schema(
        responses={200: inline_serializer("GameStream", {
            "url": serializers.CharField(allow_null=True, help_text=(
                "Server-sent events of the game (marram_site/stream.py), or null when "
                "the site runs no stream server or the game is not running: `data: "
                "<seq>` at each move; to a player, when it is their move, `event: view` "
                "with what GET /api/games/{id}/ would answer them. The address names "
                "you (and your seat while you hold it) and is good for an hour; the "
                "stream ends with `event: end` (`data: expired`, or `data: seat` when "
                "your seat changed hands or you left the game): ask here again.")),
        }), 404: ERROR},
        description="Where to follow the game as it is played, instead of polling.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.game_get(game_id)
        url = ""
        if game.status == Game.Status.RUNNING:
            url = stream.stream_url(game, signed_in_user(request), "api")
        return Response({"url": url or None})


def _game_state(game: Game, user: User) -> dict[str, Any]:
    """The game as the user sees it: GET /api/games/{id}/, and a move's ``view``."""
    return {
        "game": game_json(game),
        "seq": game.seq,
        "status": game.status,
        "fairness": selectors.game_fairness(game),
        **selectors.game_state_view(game, user),
    }


_RENDERER = FastJSONRenderer()


def seat_view(game: Game, user: User) -> bytes:
    """What ``GET /api/games/{id}/`` would give the player now, encoded as its
    answer is: what their stream is sent when it is their move (live.stream)."""
    return _RENDERER.render(_game_state(game, user))


def _game_answer(game: Game, code: int = status.HTTP_200_OK) -> Response:
    game = selectors.game_get(game.pk)
    return Response(game_json(game), status=code)


class GameJoin(APIView):
    @extend_schema(request=JoinSerializer, responses={200: GameSerializer, 409: ERROR})
    def post(self, request: Request, game_id: int) -> Response:
        data = valid(JoinSerializer, request_body(request))
        game = services.game_join(game=game_id, user=signed_in_user(request),
                                  token=data.get("token"))
        return _game_answer(game)


class GameLeave(APIView):
    @extend_schema(request=EmptySerializer, responses={200: GameSerializer, 409: ERROR})
    def post(self, request: Request, game_id: int) -> Response:
        valid(EmptySerializer, request_body(request))
        return _game_answer(services.game_leave(game=game_id, user=signed_in_user(request)))


class GameResign(APIView):
    @extend_schema(request=EmptySerializer, responses={200: ActionResultSerializer, 409: ERROR})
    def post(self, request: Request, game_id: int) -> Response:
        valid(EmptySerializer, request_body(request))
        result = services.game_resign(game=game_id, user=signed_in_user(request))
        return Response(action_result_json(result))


class GameInvite(APIView):
    @extend_schema(
        request=InviteSerializer,
        responses={201: InvitedSerializer(many=True), 409: ERROR},
        description="Invite by email (each address gets a mail with a join link), or with "
        "no addresses get one join link to pass on.",
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = valid(InviteSerializer, request_body(request))
        invited = services.game_invite(
            game=game_id,
            user=signed_in_user(request),
            emails=data["emails"],
            url_for=selectors.invitation_url,  # the page: a browser cannot use the API's
        )
        return Response(InvitedSerializer.many_init(invited).data,
                        status=status.HTTP_201_CREATED)


class InvitationDetail(APIView):
    """GET shows the game an invitation is for; POST accepts it (takes the seat)."""

    @extend_schema(responses=GameSerializer)
    def get(self, request: Request, token: str) -> Response:
        return Response(game_json(selectors.invitation_get(token).game))

    @extend_schema(request=EmptySerializer, responses={200: GameSerializer, 409: ERROR})
    def post(self, request: Request, token: str) -> Response:
        valid(EmptySerializer, request_body(request))
        return _game_answer(services.invitation_accept(token=token,
                                                       user=signed_in_user(request)))


class GameActions(APIView):
    """A move. Its answer carries, as ``view``, what the mover's client needs next
    (``answer_view``): the API's state here, the page's state on the page's own
    address (games.pages.views.GameActionsPage)."""

    @staticmethod
    def answer_view(game: Game, user: User) -> dict[str, Any]:
        return _game_state(game, user)

    @staticmethod
    def held_state(before: Any, view: dict[str, Any]) -> Any:
        """The ``state`` of the mover's view as it was at the seq they moved at,
        from the game's view then (``before``): what they hold, the base of the
        answer's ``state_changes``."""
        return before

    @extend_schema(
        request=ActionSubmitSerializer,
        responses={
            201: ActionAnswerSerializer,
            200: ActionAnswerSerializer,
            400: ERROR,
            403: ERROR,
            409: ERROR,
            413: ERROR,
        },
        description="Submit your next action. 400: not legal ({code, message} from the "
        "rules); 403: not your seat or not your turn; 409: the game is over, or it has "
        "moved on past 'seq' (the answer gives the current seq). A repeated "
        "idempotency_key gets the first answer (200) and changes nothing.",
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = valid(ActionSubmitSerializer, request_body(request))
        user = signed_in_user(request)
        result = services.action_submit(
            game=game_id,
            user=user,
            action=data["action"],
            expected_seq=data["seq"],
            idempotency_key=data["idempotency_key"],
        )
        answer = action_result_json(result)
        # the game as the mover sees it now: no GET need follow a move
        game = result.game if result.game is not None else selectors.game_get(game_id)
        before = None
        if data["changes"] and result.before is not None and result.mover is not None:
            # (before the answer's view, which this process keeps in its place)
            before = selectors.seat_state_view_at(game, result.mover, result.base,
                                                  result.before)
        view = answer["view"] = self.answer_view(game, user)
        if before is not None and view.get("state") is not None:
            state_or_changes(view, self.held_state(before, view))
        return Response(
            answer, status=status.HTTP_200_OK if result.repeated else status.HTTP_201_CREATED)


class _MoveQuery(APIView):
    """A read about a move the player is about to make: GET with ?action=<json>,
    or POST {action}; ``_answer`` says what is read."""

    def _answer(self, request: Request, game_id: int, action: dict[str, Any],
                **kwargs: Any) -> Response:
        raise NotImplementedError

    def _check(self, game_id: int, **kwargs: Any) -> None:
        """Refuse the address itself before reading the request's move."""

    @extend_schema(
        parameters=[OpenApiParameter("action", OpenApiTypes.STR, required=True,
                                     description="The move, as JSON")],
        responses={200: OpenApiTypes.OBJECT, 400: ERROR},
    )
    def get(self, request: Request, game_id: int, **kwargs: Any) -> Response:
        self._check(game_id, **kwargs)
        raw = request.query_params.get("action")
        if raw is None:
            raise Invalid("give the move as ?action=<json>", field="action")
        action = json_parse(raw, field="action", limit=MAX_QUERY_JSON)
        data = valid(MoveQuerySerializer, {"action": action})
        return self._answer(request, game_id, data["action"], **kwargs)

    @extend_schema(request=MoveQuerySerializer, responses={200: OpenApiTypes.OBJECT, 400: ERROR})
    def post(self, request: Request, game_id: int, **kwargs: Any) -> Response:
        self._check(game_id, **kwargs)
        data = valid(MoveQuerySerializer, request_body(request))
        return self._answer(request, game_id, data["action"], **kwargs)


@extend_schema_view(
    get=extend_schema(operation_id="games_named_query_retrieve"),
    post=extend_schema(operation_id="games_named_query_create"),
)
class GameNamedQuery(_MoveQuery):
    """One of the game's named queries about a move you are about to make, at its
    own address (/api/games/{id}/{name}/): ``{action, <name>: answer}``. A name the
    game does not answer is a 404."""

    def _check(self, game_id: int, **kwargs: Any) -> None:
        game = selectors.game_get(game_id)
        if kwargs["name"] not in selectors.rules_of(game).queries:
            raise NotFound(f"{game.title} answers no query {kwargs['name']!r}")

    def _answer(self, request: Request, game_id: int, action: dict[str, Any],
                **kwargs: Any) -> Response:
        name = kwargs["name"]
        answer = selectors.game_query_get(selectors.game_get(game_id), signed_in_user(request),
                                          name, {"action": action})
        return Response({"action": action, name: answer})


class GameQuery(APIView):
    """One of the game's named queries (a score preview, say), asked
    by a seat of the running game with JSON arguments."""

    @extend_schema(request=QuerySerializer, responses={200: OpenApiTypes.OBJECT, 400: ERROR})
    def post(self, request: Request, game_id: int, name: str) -> Response:
        data = valid(QuerySerializer, request_body(request))
        answer = selectors.game_query_get(selectors.game_get(game_id), signed_in_user(request),
                                          name, data["args"])
        return Response({"query": name, "args": data["args"], "answer": answer})


class GameKinds(APIView):
    """The games this server plays, each with its seat counts and declared options:
    what the lobby builds its forms from."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response({"games": selectors.game_kinds()})


class GameViewTable(APIView):
    """A table the game's views refer to by key, fixed by its rules (the game's
    ``view_tables``: what a view would otherwise repeat in every answer, named
    once by its key). Kept by the browser and asked again with If-None-Match,
    answered 304 until a new version of the rules changes it."""

    permission_classes = [AllowAny]
    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: ERROR})
    def get(self, request: Request, kind: str, name: str) -> HttpResponse:
        table = selectors.view_table_get(kind, name)
        response = HttpResponse(table, content_type="application/json")
        response["ETag"] = f'"{hashlib.sha256(table).hexdigest()[:32]}"'
        patch_cache_control(response, public=True, no_cache=True)
        return response


class GameScorePreview(_MoveQuery):
    """What a move you are about to make would score, for whom and why: the
    ``action`` with the game's ``score_preview`` answer (its own fields). Asked as
    the named queries are: GET with ?action=<json>, or POST {action}."""

    def _answer(self, request: Request, game_id: int, action: dict[str, Any],
                **kwargs: Any) -> Response:
        preview = selectors.game_preview_get(selectors.game_get(game_id),
                                             signed_in_user(request), action)
        return Response({"action": action, **preview})


class GameEvents(LazyAuthentication, APIView):
    """What happened since a seq: what a page polls. An answer carries an ETag, and
    a request whose If-None-Match names it gets a 304 (ConditionalGetMiddleware)."""

    @extend_schema(
        parameters=[OpenApiParameter("since", int, description="First seq to list")],
        responses={
            200: inline_serializer("GameEvents", {
                "seq": serializers.IntegerField(help_text="The game's seq: events so far."),
                "panels": serializers.IntegerField(help_text=(
                    "Changes so far to what the game's page shows beside its record (the "
                    "chat, the rematch, the rating changes): a page reads those again "
                    "when this passes the one it shows.")),
                "events": EventSerializer(many=True, help_text="The events from 'since' on."),
            }),
            400: ERROR,
            404: ERROR,
        },
        operation_id="games_events_list",
    )
    def get(self, request: Request, game_id: int) -> Response:
        try:
            since = max(int(request.query_params.get("since", 0)), 0)
        except ValueError:
            raise Invalid("'since' must be an integer", field="since") from None
        seq, panels = selectors.game_seqs_get(game_id)
        if since >= seq:
            # nothing new: the same answer for everyone who may ask, from the seqs
            # alone (a page's poll, nearly always); 304 if the client has it
            return _polled(Response({"seq": seq, "panels": panels, "events": []},
                                    headers={"ETag": f'"seq-{seq}-{panels}"'}))
        user = signed_in_user(request)
        game = selectors.game_get(game_id)
        events = selectors.game_events_get(game, user, since=since)
        return _polled(Response({"seq": game.seq, "panels": game.panels_seq, "events": [
            EventSerializer(event).to_representation(event, shown=shown)
            for event, shown in events]}))


class GameRecord(APIView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, 409: ERROR},
        description="The game record (the game's record format) with its config and "
        '"fairness": {"seed", "commitment"}: once the game is over. Check it with '
        "`python -m engine verify RECORD.json`.",
    )
    def get(self, request: Request, game_id: int) -> Response:
        return Response(selectors.game_record_get(selectors.game_get(game_id)))


class GameImport(APIView):
    permission_classes = [IsAdminUser]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: GameSerializer, 400: ERROR})
    def post(self, request: Request) -> Response:
        record = valid(RecordImportSerializer, request_body(request))
        game = services.game_import(record=record, user=signed_in_user(request))
        return _game_answer(game, status.HTTP_201_CREATED)
