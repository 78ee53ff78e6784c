"""How the OpenAPI schema describes what drf-spectacular cannot see for itself
(loaded by the app's ready())."""

from __future__ import annotations

import inspect
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension


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
