"""What the API reads and writes. Input serializers refuse fields they do not know;
output serializers list every field they expose, so nothing secret (the seed,
the order of what is hidden) can slip out by being added to a model."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rest_framework import serializers

from engine import registry
from engine.bots import LEVELS as BOT_LEVELS
from games.mail import Invited
from games.models import Event, Game, Seat
from games.services import ActionResult
from web.serializers import (
    Shape,
    StrictBooleanField,
    StrictCharField,
    StrictSerializer,
)

# ---------------------------------------------------------------- requests


class GameCreateSerializer(StrictSerializer):
    """``{game, options, seats, days_per_move, bots, takeover}``. The options of the game (the
    registry's default one when ``game`` is left out) may also come at the top level,
    the shape the API took before it served several games."""

    game = StrictCharField(max_length=32, required=False, default=None, allow_null=True,
                           help_text="The game's key (GET /api/games/kinds/ lists them); "
                           "the default game when left out.")
    options = serializers.DictField(required=False, default=dict,
                                    help_text="The game's options by name; each left out "
                                    "takes its default.")
    seats = serializers.IntegerField(min_value=1, max_value=16,
                                     help_text="One of the game's seat counts.")
    days_per_move = serializers.IntegerField(
        min_value=1, max_value=60, required=False, allow_null=True, default=None
    )
    bots = serializers.ListField(
        child=serializers.ChoiceField(choices=list(BOT_LEVELS), error_messages={
            "invalid_choice": '"{input}" is not a computer level: the levels are '
            + ", ".join(BOT_LEVELS)}), required=False, default=list,
        max_length=15,
        help_text="Computer players to seat at once, by level, in any mix (a level "
        'twice is two computers of it), such as ["strong"] or ["medium", "medium"]: the '
        "game starts when they take the last seats.")
    takeover = serializers.ChoiceField(
        choices=list(BOT_LEVELS), required=False, allow_null=True, default=None,
        error_messages={"invalid_choice": '"{input}" is not a computer level: the levels are '
                        + ", ".join(BOT_LEVELS)},
        help_text="Games of 3 or more players: the level of the computer player that takes "
        "over the seat of a player whose time runs out twice, instead of resigning it.")

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            return super().to_internal_value(data)
        key = data.get("game")
        try:
            rules = registry.default() if key is None else registry.get(str(key))
        except registry.UnknownGame as e:
            raise serializers.ValidationError({"game": [str(e)]}) from None
        named = {o.name for o in rules.options_declared}
        inline = {k: v for k, v in data.items() if k in named and k not in self.fields}
        rest = {k: v for k, v in data.items() if k not in inline}
        if inline and not isinstance(rest.get("options", {}), dict):
            return super().to_internal_value(rest)
        attrs = super().to_internal_value(rest)
        attrs["options"] = {**attrs["options"], **inline}
        _check_options(rules, attrs["options"], attrs["seats"], inline)
        return attrs


def _check_options(rules: Any, options: dict[str, Any], seats: int, inline: dict[str, Any]
                   ) -> None:
    """Refuse options the game does not declare, or a choice it does not offer, naming
    the field as it came (an option's name at the top level, ``options.<name>`` inside);
    the old shape (options at the top level) names every option. What depends on
    several options is the service's to refuse (bad_config)."""
    def name(option: str) -> str:
        return option if option in inline else f"options.{option}"

    declared = {o.name: o for o in rules.options_declared}
    if inline:
        missing = [o for o in declared if o not in inline and o not in options]
        if missing:
            raise serializers.ValidationError({missing[0]: ["This field is required."]})
    for option, value in options.items():
        known = declared.get(option)
        if known is None:
            raise serializers.ValidationError({name(option): [
                f"{rules.title} has no option {option!r}: its options are "
                + (", ".join(declared) or "none")]})
        if not any(type(value) is type(v) and value == v for v in known.values()):
            choices = ", ".join(repr(v) for v in known.values())
            raise serializers.ValidationError({name(option): [
                f"{known.label} must be one of {choices}, not {value!r}"]})
    if seats not in rules.seat_counts:
        counts = ", ".join(map(str, rules.seat_counts))
        raise serializers.ValidationError({"seats": [f"{rules.title} is for {counts} players"]})


class GameListQuerySerializer(StrictSerializer):
    list = serializers.ChoiceField(choices=["mine", "open", "finished"], default="mine")
    page = serializers.IntegerField(min_value=1, required=False)


class JoinSerializer(StrictSerializer):
    token = StrictCharField(max_length=64, required=False)


class InviteSerializer(StrictSerializer):
    emails = serializers.ListField(
        child=serializers.EmailField(), max_length=20, required=False, default=list
    )


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
        help_text="One of the game's actions as its events write them (legal_actions in "
        'GET the game lists them), such as {"type": "pass"}; "player" is your seat and '
        "may be left out."
    )
    changes = StrictBooleanField(
        required=False,
        default=False,
        help_text="true: the answer's view carries, as 'state_changes', the changes to "
        "the state you had at 'seq' (a JSON Patch, RFC 6902: add, remove and replace) "
        "instead of the whole 'state', unless they would take more room. A repeated "
        "submission is answered with the whole state.",
    )

    def validate_seq(self, value: int) -> int:
        if isinstance(self.initial_data.get("seq"), (bool, str, float)):
            raise serializers.ValidationError("seq must be an integer")
        return value


class MoveQuerySerializer(StrictSerializer):
    action = ActionField()


class QuerySerializer(StrictSerializer):
    args = serializers.DictField(required=False, default=dict,
                                 help_text="The query's arguments, by name.")


class RecordImportSerializer(serializers.Serializer[Shape]):
    """A game record (of any game this server plays) with "fairness": {"seed", "commitment"}."""

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


class SeatSerializer(serializers.ModelSerializer[Seat]):
    username = serializers.CharField(allow_null=True)
    seat = serializers.IntegerField(source="index", allow_null=True)

    class Meta:
        model = Seat
        fields = ["seat", "name", "username", "resigned", "joined_at"]

    def to_representation(self, seat: Seat) -> dict[str, Any]:
        return {
            "seat": seat.index,
            "name": seat.name,
            "username": seat.user.get_username() if seat.user is not None else None,
            "resigned": seat.resigned,
            "joined_at": _when(seat.joined_at),
        }


_SEAT = SeatSerializer()
"""Whose ``to_representation`` shows each seat (it keeps nothing between calls):
made once, as a serializer costs several microseconds to make."""

GAME_FIELDS = frozenset({
    "id", "game", "title", "options", "seats", "days_per_move", "status", "created_by",
    "created_at", "started_at", "finished_at", "rules_version", "commitment", "seq",
    "players", "projection"})


class GameSerializer(serializers.ModelSerializer[Game]):
    """A game as lists show it; never the seed or the config (hidden orders). Each
    option is also given at the top level, as the API gave them before it served
    several games."""

    title = serializers.CharField(help_text="The game and its options, in words.")

    seats = serializers.IntegerField(source="seat_count")
    created_by = serializers.CharField(source="created_by.username")
    players = SeatSerializer(many=True)
    projection = serializers.JSONField()

    class Meta:
        model = Game
        fields = [
            "id",
            "game",
            "title",
            "options",
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
            game.seat_list(), key=lambda s: (s.index is None, s.index or 0, s.joined_at)
        )
        seat = _SEAT
        return {
            **{k: v for k, v in game.options.items() if k not in GAME_FIELDS},
            "id": game.pk,
            "game": game.game,
            "title": game.title,
            "options": game.options,
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


def game_json(game: Game) -> dict[str, Any]:
    """The game as ``GameSerializer`` shows it, through one serializer made once
    (a serializer costs several microseconds to make; every move's answer, its
    pushed view and every read of a game show the game)."""
    return _GAME.to_representation(game)


_GAME = GameSerializer()


class EventSerializer(serializers.ModelSerializer[Event]):
    """An event as players see it: the record's event, who sent it, and when.
    Chance events exist only once drawn, so every stored event may be shown."""

    actor = serializers.CharField(allow_null=True)
    event = serializers.JSONField(source="payload")

    class Meta:
        model = Event
        fields = ["seq", "type", "event", "actor", "created_at"]

    def to_representation(self, event: Event, shown: dict[str, Any] | None = None
                          ) -> dict[str, Any]:
        """``shown``: the event as the reader may see it (selectors.game_events_get),
        when that is less than the stored event."""
        return {
            "seq": event.seq,
            "type": event.type,
            "event": event.payload if shown is None else shown,
            "actor": event.actor.get_username() if event.actor is not None else None,
            "created_at": _when(event.created_at),
        }


_EVENT = EventSerializer()
"""Whose ``to_representation`` shows each event of a move (see ``_SEAT``)."""


class ActionResultSerializer(serializers.Serializer[ActionResult]):
    seq = serializers.IntegerField(help_text="The game's seq after this action.")
    status = serializers.CharField(help_text="The game's status after this action.")
    awaiting = serializers.DictField(help_text="Whom or what the game awaits now: "
                                     "{kind: finished|chance|several|<the task's kind>, "
                                     "player, ...the task's details}.")
    events = EventSerializer(many=True, help_text="The events appended: yours, then the "
                             "server's (chance, forced passes).")
    repeated = serializers.BooleanField(help_text="True if this idempotency key was seen "
                                        "before: this is the first answer, nothing new was "
                                        "written.")

    def to_representation(self, result: ActionResult) -> dict[str, Any]:
        event = _EVENT
        return {
            "seq": result.seq,
            "status": result.status,
            "awaiting": result.awaiting,
            "events": [event.to_representation(e) for e in result.events],
            "repeated": result.repeated,
        }


def action_result_json(result: ActionResult) -> dict[str, Any]:
    """A move's answer without its view, as ``ActionResultSerializer`` shows it
    (see ``game_json``)."""
    return _ACTION_RESULT.to_representation(result)


_ACTION_RESULT = ActionResultSerializer()


class GameStateSerializer(serializers.Serializer[Shape]):
    """The game as the asking user sees it (GET /api/games/{id}/); only describes
    the answer, which api builds."""

    game = GameSerializer()
    seq = serializers.IntegerField(help_text="Events so far: send it with your next action.")
    status = serializers.CharField()
    you = serializers.IntegerField(allow_null=True, help_text="Your seat, if you play.")
    fairness = serializers.DictField(
        help_text="The commitment; the seed too once the game is over.")
    state = serializers.DictField(
        allow_null=True,
        help_text="The game's view for your seat (a spectator's if you do not play): "
        "everything but its secrets; null before the start.")
    legal_actions = serializers.ListField(
        child=serializers.DictField(),
        help_text="What you may submit now, if the game waits for you (the game's "
        "queries: see /query/{name}/).")


class ActionViewSerializer(GameStateSerializer):
    state_changes = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="In place of 'state' when the submission asked for 'changes' and they "
        "take less room: the JSON Patch (RFC 6902) that turns the state you had at the "
        "submission's seq into the state now.")


class ActionAnswerSerializer(ActionResultSerializer):
    """A submission's answer: what it appended, and the game as the mover sees it
    now (describes the answer, which api builds)."""

    view = ActionViewSerializer(help_text="What GET /api/games/{id}/ would answer the "
                                "mover now: no GET need follow a move.")


class InvitedSerializer(serializers.Serializer[Invited]):
    email = serializers.EmailField(source="invitation.email", allow_blank=True)
    token = serializers.CharField(source="invitation.token")
    url = serializers.CharField()
