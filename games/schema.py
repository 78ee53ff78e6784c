"""How the OpenAPI schema describes what drf-spectacular cannot see for itself
(loaded by the app's ready())."""

from __future__ import annotations

import inspect
from typing import Any

from drf_spectacular.extensions import (
    OpenApiSerializerExtension,
    OpenApiSerializerFieldExtension,
)

from engine import registry
from engine.protocol import AnyGame


class StrictSerializerSchema(OpenApiSerializerExtension):
    """A body of a StrictSerializer takes no field it does not define: the schema
    says so (``additionalProperties: false``), as the 400 unknown_field does."""

    target_class = "games.serializers.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        from games.serializers import StrictSerializer

        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        schema["additionalProperties"] = False
        if schema.get("description") == inspect.getdoc(StrictSerializer):
            del schema["description"]  # the base class's, not the endpoint's
        return schema


class ActionFieldSchema(OpenApiSerializerFieldExtension):
    """An action is one of the registered games' own (each game declares the
    schema of its actions, ``Game.action_schema``)."""

    target_class = "games.serializers.ActionField"

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return action_schema()


def action_schema() -> dict[str, Any]:
    """One of each registered game's actions (oneOf, a game's each titled with its
    name); a game that declares no schema takes any object whose ``type`` is one
    of its actions."""
    return {
        "description": "An action of the game played, as its events write them: one of "
        "these, one for each game this server plays, as each game declares it.",
        "oneOf": [dict(game.action_schema) if game.action_schema is not None
                  else _any_action(game) for game in registry.games()],
    }


def _any_action(game: AnyGame) -> dict[str, Any]:
    types = list(game.action_fields) or list(game.event_types)
    return {"type": "object", "title": game.title,
            "properties": {"type": {"type": "string", "enum": types}},
            "required": ["type"]}
