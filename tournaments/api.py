"""The tournaments API: list, create, read (with its log), join, leave, start,
verify. Thin views over tournaments.services and tournaments.selectors; errors
are the services' (web.http.exception_handler)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import signed_in_user
from tournaments import selectors, services
from tournaments.models import Tournament
from tournaments.serializers import (
    TournamentBriefSerializer,
    TournamentCreateSerializer,
    TournamentEventSerializer,
    TournamentSerializer,
)
from tournaments.verify import tournament_verify
from web.serializers import ERROR, EmptySerializer, request_body, valid

VERIFIED = inline_serializer("TournamentVerified", {
    "ok": serializers.BooleanField(),
    "problems": serializers.ListField(child=serializers.CharField())})


class TournamentList(APIView):
    def get_permissions(self):  # type: ignore[no-untyped-def]
        return [AllowAny()] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(parameters=[OpenApiParameter("status", str, enum=selectors.LISTS)],
                   responses={200: TournamentBriefSerializer(many=True), 400: ERROR},
                   description="Tournaments by status: open (upcoming), running, finished.")
    def get(self, request: Request) -> Response:
        found = selectors.tournament_list(request.query_params.get("status", "open"))
        return Response(TournamentBriefSerializer(found, many=True).data)

    @extend_schema(request=TournamentCreateSerializer,
                   responses={201: TournamentSerializer, 400: ERROR, 409: ERROR},
                   description="Create a tournament; its creator is its first entrant.")
    def post(self, request: Request) -> Response:
        fields = valid(TournamentCreateSerializer, request_body(request))
        tournament = services.tournament_create(user=signed_in_user(request), **fields)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentSerializer, 404: ERROR},
                   description="A tournament: its options, entrants, rounds and standings.")
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(TournamentSerializer(selectors.tournament_get(tournament_id)).data)


class TournamentEvents(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentEventSerializer(many=True), 404: ERROR},
                   description="The tournament's event log, from which everything it shows "
                   "is folded.")
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.tournament_get(tournament_id)
        events = tournament.events.order_by("seq").values("seq", "payload")
        return Response(TournamentEventSerializer(events, many=True).data)


class _Action(APIView):
    @extend_schema(request=EmptySerializer, responses={200: TournamentSerializer, 403: ERROR,
                                                       404: ERROR, 409: ERROR})
    def post(self, request: Request, tournament_id: int) -> Response:
        valid(EmptySerializer, request_body(request))
        selectors.tournament_get(tournament_id)
        found = self.act(tournament_id, request)
        found.refresh_from_db()
        return Response(TournamentSerializer(found).data)

    def act(self, tournament_id: int, request: Request) -> Tournament:
        raise NotImplementedError


class TournamentJoin(_Action):
    def act(self, tournament_id: int, request: Request) -> Tournament:
        return services.tournament_join(tournament=tournament_id,
                                        user=signed_in_user(request))


class TournamentLeave(_Action):
    def act(self, tournament_id: int, request: Request) -> Tournament:
        return services.tournament_leave(tournament=tournament_id,
                                         user=signed_in_user(request))


class TournamentStart(_Action):
    def act(self, tournament_id: int, request: Request) -> Tournament:
        return services.tournament_start(tournament=tournament_id,
                                         user=signed_in_user(request))


class TournamentVerify(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: VERIFIED, 404: ERROR},
                   description="Pair every round again from the log and read every result "
                   "again from its game: ``problems`` is empty when everything checks out.")
    def get(self, request: Request, tournament_id: int) -> Response:
        problems = tournament_verify(selectors.tournament_get(tournament_id))
        return Response({"ok": not problems, "problems": problems})
