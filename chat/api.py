"""The chat API: a game's messages, posting one, muting its mail."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import signed_in_user
from chat import services
from chat.models import MAX_LENGTH, Message
from web.serializers import ERROR, StrictSerializer, request_body, valid


class MessageSerializer(serializers.Serializer[Message]):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    text = serializers.CharField(help_text="Plain text: escape it wherever it is shown.")
    via = serializers.CharField()
    created_at = serializers.DateTimeField()


class PostSerializer(StrictSerializer):
    text = serializers.CharField(max_length=MAX_LENGTH, trim_whitespace=False)


class MuteSerializer(StrictSerializer):
    muted = serializers.BooleanField()

    def to_internal_value(self, data: Any) -> Any:  # true or false only
        if isinstance(data, dict) and not isinstance(data.get("muted"), bool | None):
            raise serializers.ValidationError({"muted": ["must be true or false"]},
                                              code="invalid")
        return super().to_internal_value(data)


class GameChat(APIView):
    @extend_schema(responses={200: MessageSerializer(many=True), 403: ERROR, 404: ERROR},
                   description="The game's latest 100 messages, oldest first (players only).")
    def get(self, request: Request, game_id: int) -> Response:
        messages = services.chat_messages(game_id=game_id, user=signed_in_user(request))
        # many_init: what MessageSerializer(messages, many=True) calls, typed for a list
        return Response(MessageSerializer.many_init(messages).data)

    @extend_schema(request=PostSerializer,
                   responses={201: MessageSerializer, 400: ERROR, 403: ERROR, 404: ERROR,
                              429: ERROR},
                   description=f"Post to the game's chat: plain text, at most {MAX_LENGTH} "
                   f"characters, {services.THROTTLE_COUNT} a minute; the other players are "
                   "mailed it under their mail settings unless they muted the chat.")
    def post(self, request: Request, game_id: int) -> Response:
        data = valid(PostSerializer, request_body(request))
        message = services.chat_post(game_id=game_id, user=signed_in_user(request),
                                     text=data["text"])
        return Response(MessageSerializer(message).data, status=status.HTTP_201_CREATED)


class GameChatMute(APIView):
    @extend_schema(request=MuteSerializer,
                   responses={200: MuteSerializer, 400: ERROR, 403: ERROR, 404: ERROR},
                   description="Mute (or unmute) the mail of the game's chat for you.")
    def put(self, request: Request, game_id: int) -> Response:
        data = valid(MuteSerializer, request_body(request))
        muted = services.chat_mute_set(game_id=game_id, user=signed_in_user(request),
                                       muted=data["muted"])
        return Response({"muted": muted})
