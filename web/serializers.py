"""What the API's endpoints share in reading bodies and describing answers: input
serializers that refuse fields they do not know (``StrictSerializer``), the
error every 4xx answers with (``ERROR``, for the schema), and reading a body
through one (``valid``, ``request_body``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers
from rest_framework.request import Request

from web.errors import Invalid

Shape = dict[str, object]
"""What a body or an answer that a serializer only describes (for the schema, or to
validate a body) would be given as an instance: the JSON object itself."""


class StrictSerializer(serializers.Serializer[Shape]):
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


class StrictBooleanField(serializers.BooleanField):
    """true or false, and only those: DRF would read "yes", "on" and 1 as true."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class EmptySerializer(StrictSerializer):
    """No fields: the endpoint takes an empty body (or none)."""


ERROR = inline_serializer(
    "Error",
    {
        "code": serializers.CharField(),
        "message": serializers.CharField(),
    },
)


def valid(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    validated: dict[str, Any] = serializer.validated_data  # a Serializer's: a dict
    return validated


def request_body(request: Request) -> Any:
    """The parsed body; an empty body reads as {}."""
    data = request.data
    if data is None:  # the JSON document null, which no endpoint takes
        raise Invalid("the body is null: send a JSON object, or no body", code="invalid")
    return data.dict() if hasattr(data, "dict") else data  # an empty body is a QueryDict
