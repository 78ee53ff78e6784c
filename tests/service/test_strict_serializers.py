"""The API's input serializers copy their declared fields cheaply
(games.serializers._copied) and still read every body as DRF's own copies would."""

from __future__ import annotations

import threading

import pytest
from rest_framework import serializers

from chat.api import PostSerializer
from games.serializers import ActionSubmitSerializer, GameCreateSerializer, InviteSerializer
from ratings.serializers import InviteUsersSerializer

BODIES = [
    {"seq": 3, "action": {"type": "pass"}},
    {"seq": 3, "idempotency_key": "k1", "action": {"type": "place", "at": [0, 1]}},
    {"seq": 3, "idempotency_key": None, "action": {"type": "pass"}},
    {"seq": -1, "action": {"type": "pass"}},
    {"seq": "3", "action": {"type": "pass"}},
    {"seq": 3.5, "action": {"type": "pass"}},
    {"seq": 3, "idempotency_key": 12, "action": {"type": "pass"}},
    {"seq": 3, "idempotency_key": "k" * 101, "action": {"type": "pass"}},
    {"seq": 3, "action": ["pass"]},
    {"seq": 3},
    {"action": {"type": "pass"}},
    {"seq": 3, "action": {"type": "pass"}, "player": 1},
    {},
    [],
    "seq",
    {"game": "pond", "seats": 2}, {"game": 7, "seats": "two"}, {"seats": 99},
    {"game": "marram", "seats": 2, "bots": ["easy"], "options": {"variant": "classic"}},
    {"bots": ["godlike"]}, {"bots": "easy"}, {"takeover": "nope"}, {"options": []},
    {"emails": ["a@example.org"]}, {"emails": "a@example.org"}, {"emails": [1, None]},
    {"usernames": ["ann", "bob"]}, {"usernames": [["ann"]]},
    {"text": "hello"}, {"text": ""}, {"text": None}, {"text": ["x"]},
]


def drf_copies(serializer_class: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The same serializer with DRF's own copies of its fields."""
    return type(f"DRF{serializer_class.__name__}", (serializer_class,),
                {"get_fields": serializers.Serializer.get_fields})


def outcome(serializer_class: type[serializers.Serializer], body: object) -> object:
    serializer = serializer_class(data=body)
    if serializer.is_valid():
        return "valid", dict(serializer.validated_data)
    return "refused", serializer.errors


@pytest.mark.parametrize("serializer_class", [ActionSubmitSerializer, GameCreateSerializer,
                                              InviteSerializer, InviteUsersSerializer,
                                              PostSerializer])
@pytest.mark.parametrize("body", BODIES)
def test_a_body_reads_as_with_drfs_own_copies(serializer_class, body):
    assert outcome(serializer_class, body) == outcome(drf_copies(serializer_class), body)


def test_each_serializer_binds_fields_of_its_own():
    first, second = ActionSubmitSerializer(data={}), ActionSubmitSerializer(data={})
    for name, field in first.fields.items():
        twin = second.fields[name]
        assert field is not twin and field is not ActionSubmitSerializer._declared_fields[name]
        assert (field.parent, twin.parent) == (first, second)
        assert field.field_name == twin.field_name == name


def test_serializers_read_bodies_at_once_in_many_threads():
    """Eight threads reading good and bad bodies at once each get their own answer."""
    good, bad = {"seq": 4, "action": {"type": "pass"}}, {"seq": -4, "action": {"type": "pass"}}
    wrong: list[object] = []

    def read(n: int) -> None:
        for i in range(300):
            body = good if (i + n) % 2 else bad
            got = outcome(ActionSubmitSerializer, body)
            if got[0] != ("valid" if body is good else "refused"):
                wrong.append(got)

    threads = [threading.Thread(target=read, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
