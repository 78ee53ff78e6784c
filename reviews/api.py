"""GET and POST /api/games/{id}/review/: the review of a finished game by the
strongest computer player."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import signed_in_user
from reviews import services
from reviews.selectors import ShownReview, review_shown
from web.errors import NotFound
from web.serializers import ERROR

MOVE_FIELDS: dict[str, serializers.Field[Any, Any, Any, Any]] = {
    "seq": serializers.IntegerField(help_text="The move's index in the game's events."),
    "seat": serializers.IntegerField(),
    "player": serializers.CharField(),
    "played": serializers.CharField(help_text="The move, in words."),
    "best": serializers.CharField(help_text="What the strong computer player recommends "
                                  "(the move itself when it held up against its choice)."),
    "suggested": serializers.CharField(help_text="What its search chose."),
    "played_action": serializers.DictField(),
    "best_action": serializers.DictField(),
    "value_played": serializers.FloatField(),
    "value_best": serializers.FloatField(),
    "cost": serializers.FloatField(help_text="value_best - value_played, 0 or more, in "
                                   "the review's unit."),
    "choices": serializers.IntegerField(help_text="Actions weighed; 1 for a forced move."),
    "marked": serializers.BooleanField(help_text="One of the seat's costliest moves."),
}


class ReviewSerializer(serializers.Serializer[ShownReview]):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending", "ready", "failed"])
    measure = serializers.ChoiceField(choices=["", "points", "win"],
                                      help_text="Empty until the review is ready.")
    unit = serializers.CharField(help_text="What a cost counts, in words.")
    requested_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    playouts = serializers.IntegerField(allow_null=True,
                                        help_text="The search's playouts a move.")
    samples = serializers.IntegerField(allow_null=True,
                                       help_text="Paired samples judging a move.")
    cpu_seconds = serializers.FloatField(allow_null=True)
    seats = inline_serializer("ReviewedSeat", {
        "seat": serializers.IntegerField(), "player": serializers.CharField(),
        "moves": serializers.IntegerField(), "cost": serializers.FloatField()}, many=True)
    moves = inline_serializer("ReviewedMove", MOVE_FIELDS, many=True)


class GameReview(APIView):
    @extend_schema(responses={200: ReviewSerializer, 404: ERROR, 409: ERROR},
                   description="The review of a finished game, for anyone signed in: "
                   "pending until the computer has gone through every move its players "
                   "made, then each move with what the strongest computer player would "
                   "have played and what the move cost. 404 until a player asks for it; "
                   "409 while the game is played.")
    def get(self, request: Request, game_id: int) -> Response:
        signed_in_user(request)
        game, review = services.review_get(game_id=game_id)
        if review is None:
            raise NotFound("nobody has asked for this game's review yet: a player of the "
                           "game can, with POST", code="no_review")
        return Response(ReviewSerializer(review_shown(game, review)).data)

    @extend_schema(request=None,
                   responses={200: ReviewSerializer, 202: ReviewSerializer, 403: ERROR,
                              404: ERROR, 409: ERROR},
                   description="Ask for the review of a finished game you played: 202 "
                   "while it is made (GET it until it is ready), 200 once it is. 409 while "
                   "the game is played, 403 for a game you did not play.")
    def post(self, request: Request, game_id: int) -> Response:
        review, _ = services.review_request(game_id=game_id, user=signed_in_user(request))
        game = review.game
        code = status.HTTP_200_OK if review.status == "ready" else status.HTTP_202_ACCEPTED
        return Response(ReviewSerializer(review_shown(game, review)).data, status=code)
