"""How the OpenAPI schema describes what drf-spectacular cannot see for itself
(loaded by the app's ready())."""

from __future__ import annotations

import inspect
import json
import random
from functools import cache
from typing import TYPE_CHECKING, Any

from drf_spectacular.extensions import (
    OpenApiSerializerExtension,
    OpenApiSerializerFieldExtension,
)

from engine import registry
from engine.fairness import draw_event
from engine.protocol import AnyGame
from web.serializers import StrictSerializer

if TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema
    from drf_spectacular.utils import Direction


class StrictSerializerSchema(OpenApiSerializerExtension):
    """A body of a StrictSerializer takes no field it does not define: the schema
    says so (``additionalProperties: false``), as the 400 unknown_field does."""

    target_class = "web.serializers.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer(self.target, direction,
                                                             bypass_extensions=True)
        schema["additionalProperties"] = False
        if schema.get("description") == inspect.getdoc(StrictSerializer):
            del schema["description"]  # the base class's, not the endpoint's
        return schema


class ActionFieldSchema(OpenApiSerializerFieldExtension):
    """An action is one of the registered games' own (each game declares the
    schema of its actions, ``Game.action_schema``)."""

    target_class = "games.serializers.ActionField"

    def map_serializer_field(self, auto_schema: AutoSchema, direction: Direction
                             ) -> dict[str, Any]:
        return action_schema()


def action_schema() -> dict[str, Any]:
    """One of each registered game's actions (oneOf, a game's each titled with its
    name, with an example from its legal actions); a game that declares no schema
    takes any object whose ``type`` is one of its actions."""
    schemas = []
    for game in registry.games():
        schema = dict(game.action_schema) if game.action_schema is not None \
            else _any_action(game)
        examples = action_examples(game.key)
        if examples:
            schema["example"] = next(iter(examples.values()))
        schemas.append(schema)
    return {
        "description": "An action of the game played, as its events write them: one of "
        "these, one for each game this server plays, as each game declares it.",
        "oneOf": schemas,
    }


def _any_action(game: AnyGame) -> dict[str, Any]:
    types = list(game.action_fields) or list(game.event_types)
    return {"type": "object", "title": game.title,
            "properties": {"type": {"type": "string", "enum": types}},
            "required": ["type"]}


EXAMPLE_EVENTS = 400
"""How long the game that finds a game's example actions plays at most."""


@cache
def action_examples(key: str) -> dict[str, dict[str, Any]]:
    """An action of each type the game's players submit, as its ``legal_actions``
    give them: the first of each type in a game of its default options between
    its fewest seats, played by random legal actions from a fixed seed (chance
    drawn as the server draws it), until every type has come up or
    ``EXAMPLE_EVENTS`` events."""
    game = registry.get(key)
    seed = "0" * 64
    rng = random.Random(0)
    options = {o.name: o.default for o in game.options_declared}
    seats = min(game.seat_counts)
    state = game.start(game.setup(options, [f"p{i + 1}" for i in range(seats)], seed))
    wanted = set(game.action_fields) if game.action_fields else None
    found: dict[str, dict[str, Any]] = {}
    for at in range(EXAMPLE_EVENTS):
        wait = game.awaiting(state)
        if wait.finished or (wanted is not None and wanted <= set(found)):
            break
        event = game.automatic(state)
        if event is None and wait.chance is not None:
            chance = game.chance(state)
            assert chance is not None
            event = draw_event(seed, at, chance)
        if event is None:
            legal = [a for seat in wait.players for a in game.legal_actions(state, seat)]
            for action in legal:
                found.setdefault(str(action["type"]), json.loads(json.dumps(action)))
            event = rng.choice(legal)
        state = game.fold(state, event)
    return found


def _action_types(game: AnyGame) -> list[str]:
    """The types of the game's actions: its action fields', else its action
    schema's enumerated ``type``, else its event types."""
    if game.action_fields:
        return list(game.action_fields)
    properties = (game.action_schema or {}).get("properties")
    kind = properties.get("type") if isinstance(properties, dict) else None
    enum = kind.get("enum") if isinstance(kind, dict) else None
    return [str(t) for t in (enum if isinstance(enum, list) else game.event_types)]


def games_description() -> str:
    """The games of this server and their actions, each with an example from its
    legal actions, in Markdown: what the API's documentation says of them."""
    lines = ["Each game this server plays (`GET /api/games/kinds/`) has actions of its "
             "own: a move (`POST /api/games/{id}/actions/`) sends one as `action`, and "
             "`legal_actions` in `GET /api/games/{id}/` lists those you may send now.", ""]
    for game in registry.games():
        types = _action_types(game)
        examples = action_examples(game.key)
        lines.append(f"- **{game.title}** (`{game.key}`): "
                     + ", ".join(f"`{t}`" for t in types) + "; for example "
                     + ", ".join(f"`{json.dumps(e)}`" for e in examples.values()) + ".")
    return "\n".join(lines)


def describe_games(result: dict[str, Any], generator: Any, request: Any,
                   public: Any) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: the games and their actions after
    the API's own description."""
    info = result.setdefault("info", {})
    info["description"] = f"{info.get('description', '')}\n\n{games_description()}".strip()
    return result
