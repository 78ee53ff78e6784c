"""Events read from JSON into their typed form and written back: what the store
keeps is exactly the fields the rules define for the event's type, nothing else."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import IllegalAction
from engine.marram import selfplay
from engine.marram.actions import (
    Claim,
    EventFieldError,
    Place,
    event_from_json,
    event_to_json,
    normalise_event,
)

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
PLACE = {"type": "place", "player": 0, "tile": "T17", "face": "back", "at": [1, 0],
         "rotation": 2, "claim": {"arc": 4}}


def test_the_specs_events_are_their_own_normal_form():
    # the example record of the spec (marram-model.md), event by event
    events = [
        PLACE,
        {"type": "flip", "player": 1, "at": [1, 0], "rotation": 1, "claim": None},
        {"type": "pass", "player": 0},
        {"type": "timeout", "player": 1},
        {"type": "creature_appears", "creature": "fly", "at": [2, -1]},
        {"type": "guess", "player": 1, "creature": "fly", "hops": 7},
        {"type": "guess", "player": 0, "creature": "frog", "hops": "escape"},
        {"type": "hop", "creature": "fly", "to": [2, 0]},
        {"type": "resign", "player": 1},
        {**PLACE, "claim": {"side": 2, "token": "pitchfork"}},
    ]
    for event in events:
        assert normalise_event(event) == event


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_every_golden_event_is_its_own_normal_form(path: Path):
    for event in json.loads(path.read_text())["record"]["events"]:
        assert normalise_event(event) == event


def test_every_event_of_random_games_is_its_own_normal_form():
    for variant in ("classic", "pitchfork", "animals"):
        _, record, _ = selfplay.play(variant, "long", 3, seed=7)
        for event in record.events:
            assert normalise_event(event) == {**event, **(
                {"claim": event.get("claim")} if event["type"] in ("place", "flip") else {})}


def test_the_typed_form_and_back():
    typed = event_from_json(PLACE)
    assert typed == Place(player=0, tile="T17", face="back", at=(1, 0), rotation=2,
                          claim=Claim(arc=4))
    assert event_to_json(typed) == PLACE


def test_a_missing_claim_is_written_as_none_and_a_position_as_a_list():
    event = {**PLACE, "at": (1, 0)}
    del event["claim"]
    assert normalise_event(event) == {**PLACE, "claim": None}


@pytest.mark.parametrize(
    ("event", "code", "field"),
    [
        # a field the type does not have, at the top or inside the claim
        ({**PLACE, "junk": "x" * 250_000}, "unknown_field", "junk"),
        ({**PLACE, "claim": {"arc": 0, "junk": "x" * 250_000}}, "unknown_field", "claim.junk"),
        ({"type": "pass", "player": 0, "tile": "T1"}, "unknown_field", "tile"),
        # the type itself: not a string, or no event of the rules
        ({**PLACE, "type": ["place"]}, "bad_event", "type"),
        ({**PLACE, "type": {"a": 1}}, "bad_event", "type"),
        ({**PLACE, "type": "teleport"}, "bad_event", "type"),
        # a field of the wrong JSON type
        ({**PLACE, "player": "0"}, "bad_event", "player"),
        ({**PLACE, "player": True}, "bad_event", "player"),
        ({**PLACE, "tile": 17}, "bad_event", "tile"),
        ({**PLACE, "tile": "T" * 250_000}, "bad_event", "tile"),
        ({"type": "guess", "player": 0, "creature": "fly", "hops": "e" * 65}, "bad_guess",
         "hops"),
        ({**PLACE, "face": ["front"]}, "bad_face", "face"),
        ({**PLACE, "at": [1, 0, 0]}, "bad_event", "at"),
        ({**PLACE, "at": [1.0, 0]}, "bad_event", "at"),
        ({**PLACE, "rotation": "2"}, "bad_rotation", "rotation"),
        ({**PLACE, "claim": 4}, "bad_claim", "claim"),
        ({**PLACE, "claim": {"arc": 1, "side": 1}}, "bad_claim", "claim"),
        ({**PLACE, "claim": {}}, "bad_claim", "claim"),
        ({**PLACE, "claim": {"arc": "4"}}, "bad_claim", "claim.arc"),
        ({**PLACE, "claim": {"arc": 4, "token": 1}}, "bad_claim", "claim.token"),
        ({"type": "guess", "player": 0, "creature": "fly", "hops": 1.5}, "bad_guess", "hops"),
        # a field the type needs
        ({"type": "flip", "player": 0, "rotation": 1}, "bad_event", "at"),
        ({"type": "hop", "creature": "fly"}, "bad_event", "to"),
    ],
)
def test_what_is_refused_names_its_field(event, code, field):
    with pytest.raises(EventFieldError) as refused:
        normalise_event(event)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert len(refused.value.message) < 300  # the input is quoted cut short


def test_what_is_no_object_is_a_bad_event():
    for data in (None, [PLACE], "pass", 3):
        with pytest.raises(IllegalAction) as refused:
            normalise_event(data)
        assert refused.value.code == "bad_event"
