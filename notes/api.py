"""GET and PUT /api/games/{id}/note/: your private note on a game."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import signed_in_user
from notes import services
from notes.models import MAX_LENGTH, Note
from web.serializers import ERROR, StrictSerializer, request_body, valid


class NoteBodySerializer(StrictSerializer):
    text = serializers.CharField(max_length=MAX_LENGTH, allow_blank=True, trim_whitespace=False,
                                 help_text="Plain text; empty to delete the note.")


class ShownNote(TypedDict):
    text: str
    updated_at: datetime | None


class NoteSerializer(serializers.Serializer[ShownNote]):
    text = serializers.CharField(allow_blank=True)
    updated_at = serializers.DateTimeField(allow_null=True)


def _shown(note: Note | None) -> ShownNote:
    return {"text": note.text if note else "", "updated_at": note.updated_at if note else None}


class GameNote(APIView):
    @extend_schema(responses={200: NoteSerializer, 404: ERROR},
                   description="Your private note on the game: nobody else sees it.")
    def get(self, request: Request, game_id: int) -> Response:
        note = services.note_get(game_id=game_id, user=signed_in_user(request))
        return Response(NoteSerializer(_shown(note)).data)

    @extend_schema(request=NoteBodySerializer, responses={200: NoteSerializer, 400: ERROR,
                                                          404: ERROR},
                   description="Write your private note on the game (empty: delete it).")
    def put(self, request: Request, game_id: int) -> Response:
        data = valid(NoteBodySerializer, request_body(request))
        note = services.note_save(game_id=game_id, user=signed_in_user(request),
                                  text=data["text"])
        return Response(NoteSerializer(_shown(note)).data)
