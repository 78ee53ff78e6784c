"""What the API reads and writes. Input serializers refuse fields they do not know;
output serializers list every field they expose, so nothing secret (the seed,
the deck order) can slip out by being added to a model."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Event, Game, Length, Seat, Variant


class StrictSerializer(serializers.Serializer):
    """A serializer that names and refuses any field it does not define, and takes
    only a string for a text field (DRF would read 12 as "12")."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["unknown field: this endpoint does not take it"] for name in unknown},
                    code="unknown_field",
                )
            not_text = [name for name, f in self.fields.items()
                        if isinstance(f, serializers.CharField) and name in data
                        and data[name] is not None and not isinstance(data[name], str)]
            if not_text:
                raise serializers.ValidationError({name: ["must be a string"]
                                                   for name in not_text})
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A string, and only a string: 12 is not "12"."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


# ---------------------------------------------------------------- accounts


class SignupSerializer(StrictSerializer):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    email = serializers.EmailField()
    password = serializers.CharField(write_only=True, max_length=128)

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("this username is taken")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = get_user_model()(username=attrs["username"], email=attrs["email"])
        try:
            password_validation.validate_password(attrs["password"], user)
        except DjangoValidationError as e:
            raise serializers.ValidationError({"password": list(e.messages)}) from None
        return attrs


class SignedUpSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


# ---------------------------------------------------------------- requests


class GameCreateSerializer(StrictSerializer):
    variant = serializers.ChoiceField(choices=Variant.choices)
    length = serializers.ChoiceField(choices=Length.choices)
    seats = serializers.IntegerField(min_value=2, max_value=4)
    days_per_move = serializers.IntegerField(
        min_value=1, max_value=60, required=False, allow_null=True, default=None
    )


class GameListQuerySerializer(StrictSerializer):
    list = serializers.ChoiceField(choices=["mine", "open", "finished"], default="mine")
    page = serializers.IntegerField(min_value=1, required=False)


class JoinSerializer(StrictSerializer):
    token = StrictCharField(max_length=64, required=False)


class EmptySerializer(StrictSerializer):
    """No fields: the endpoint takes an empty body (or none)."""


class InviteSerializer(StrictSerializer):
    emails = serializers.ListField(
        child=serializers.EmailField(), max_length=20, required=False, default=list
    )


def _int(low: int, high: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high}


# The shape of an action, for the schema: each type takes some of these fields
# (engine.actions defines which), and the rules judge the values.
ACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": 'e.g. {"type": "place", "tile": "T17", "face": "front", "at": [1, 0], '
    '"rotation": 2, "claim": {"arc": 4}}',

    "properties": {
        "type": {"type": "string", "enum": ["place", "flip", "pass", "guess", "resign"]},
        "player": {**_int(0, 3), "description": "Your seat; may be left out."},
        "tile": {"type": "string", "maxLength": 64, "description": "place: a tile in your hand"},
        "face": {"type": "string", "enum": ["front", "back"]},
        "at": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
               "description": "place, flip: the position [x, y]"},
        "rotation": _int(0, 3),
        "claim": {
            "type": "object", "nullable": True, "additionalProperties": False,
            "description": 'place, flip: {"arc": 0-7} for a patch or {"side": 0-3} for a '
            "beast (see /claims/), or null",
            "properties": {"arc": _int(0, 7), "side": _int(0, 3),
                           "token": {"type": "string", "enum": ["boot", "pitchfork"]}},
        },
        "creature": {"type": "string", "enum": ["fly", "frog"]},
        "hops": {"oneOf": [{"type": "integer", "minimum": 1},
                           {"type": "string", "enum": ["escape"]}],
                 "description": "guess: hops, or escape"},
    },
    "required": ["type"],
    "additionalProperties": False,
}


@extend_schema_field(ACTION_SCHEMA)
class ActionField(serializers.JSONField):
    """An action object; its fields are checked by the service and the engine."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                'an action is an object such as {"type": "pass"}', code="invalid"
            )
        return data


class ActionSubmitSerializer(StrictSerializer):
    seq = serializers.IntegerField(
        min_value=0, help_text="The game's seq that this action follows (from GET the game)."
    )
    idempotency_key = StrictCharField(
        max_length=100,
        required=False,
        allow_null=True,
        default=None,
        help_text="Any string unique to this action: a retry with the same key is answered "
        "with the first answer and changes nothing.",
    )
    action = ActionField(
        help_text='e.g. {"type": "place", "tile": "T17", "face": "front", "at": [1, 0], '
        '"rotation": 2, "claim": {"arc": 4}}; "player" is your seat and may be left out.'
    )

    def validate_seq(self, value: Any) -> int:
        if isinstance(self.initial_data.get("seq"), (bool, str, float)):
            raise serializers.ValidationError("seq must be an integer")
        return value


class ClaimsSerializer(StrictSerializer):
    action = ActionField()


class RecordImportSerializer(serializers.Serializer):
    """A game record (format marram-game-record) with "fairness": {"seed", "commitment"}."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError({"record": ["a game record is a JSON object"]})
        return data


# ---------------------------------------------------------------- answers


def _when(moment: datetime | None) -> str | None:
    """As DRF writes a datetime: ISO 8601, UTC as Z."""
    if moment is None:
        return None
    text = moment.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


# The answers below are read on every request; each writes its dict by hand
# (the declared fields document it for the schema) because DRF's generic field
# machinery costs more than the rest of the request.


class SeatSerializer(serializers.ModelSerializer):
    username = serializers.CharField(allow_null=True)
    seat = serializers.IntegerField(source="index", allow_null=True)

    class Meta:
        model = Seat
        fields = ["seat", "name", "username", "resigned", "joined_at"]

    def to_representation(self, seat: Seat) -> dict[str, Any]:
        return {
            "seat": seat.index,
            "name": seat.name,
            "username": seat.user.get_username() if seat.user_id else None,
            "resigned": seat.resigned,
            "joined_at": _when(seat.joined_at),
        }


class GameSerializer(serializers.ModelSerializer):
    """A game as lists show it; never the seed or the config (the deck)."""

    seats = serializers.IntegerField(source="seat_count")
    created_by = serializers.CharField(source="created_by.username")
    players = SeatSerializer(many=True)
    projection = serializers.JSONField()

    class Meta:
        model = Game
        fields = [
            "id",
            "variant",
            "length",
            "seats",
            "days_per_move",
            "status",
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
            "rules_version",
            "commitment",
            "seq",
            "players",
            "projection",
        ]

    def to_representation(self, game: Game) -> dict[str, Any]:
        seats = sorted(
            game.seats.all(), key=lambda s: (s.index is None, s.index or 0, s.joined_at)
        )
        seat = SeatSerializer()
        return {
            "id": game.pk,
            "variant": game.variant,
            "length": game.length,
            "seats": game.seat_count,
            "days_per_move": game.days_per_move,
            "status": game.status,
            "created_by": game.created_by.get_username(),
            "created_at": _when(game.created_at),
            "started_at": _when(game.started_at),
            "finished_at": _when(game.finished_at),
            "rules_version": game.rules_version,
            "commitment": game.commitment,
            "seq": game.seq,
            "players": [seat.to_representation(s) for s in seats],
            "projection": game.projection,
        }


class EventSerializer(serializers.ModelSerializer):
    """An event as players see it: the record's event, who sent it, and when.
    Chance events exist only once drawn, so every stored event may be shown."""

    actor = serializers.CharField(allow_null=True)
    event = serializers.JSONField(source="payload")

    class Meta:
        model = Event
        fields = ["seq", "type", "event", "actor", "created_at"]

    def to_representation(self, event: Event) -> dict[str, Any]:
        return {
            "seq": event.seq,
            "type": event.type,
            "event": event.payload,
            "actor": event.actor.get_username() if event.actor_id else None,
            "created_at": _when(event.created_at),
        }


class ActionResultSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The game's seq after this action.")
    status = serializers.CharField(help_text="The game's status after this action.")
    awaiting = serializers.DictField(help_text="Whom or what the game awaits now: "
                                     "{kind: move|guess|chance|finished, player}.")
    events = EventSerializer(many=True, help_text="The events appended: yours, then the "
                             "server's (chance, forced passes).")
    repeated = serializers.BooleanField(help_text="True if this idempotency key was seen "
                                        "before: this is the first answer, nothing new was "
                                        "written.")

    def to_representation(self, result: Any) -> dict[str, Any]:
        event = EventSerializer()
        return {
            "seq": result.seq,
            "status": result.status,
            "awaiting": result.awaiting,
            "events": [event.to_representation(e) for e in result.events],
            "repeated": result.repeated,
        }


class InvitedSerializer(serializers.Serializer):
    email = serializers.EmailField(source="invitation.email", allow_blank=True)
    token = serializers.CharField(source="invitation.token")
    url = serializers.CharField()
