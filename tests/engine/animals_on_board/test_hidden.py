"""Hidden information: until the game ends no seat sees another's ark, anyone's
secret keep, the face-down tile or the stack's order, and a spectator sees no
ark at all. Searched for in everything a seat or a spectator is shown - its
view, the event list as shown to it, what is awaited, its legal actions, its
turn mail, the events told in words, the projection - over many seeded games."""
from __future__ import annotations

import json
import re

import pytest

from engine.animals_on_board import GAME, State

from .helpers import PLAYERS, random_game


def secrets_of(states: list[State], events: list[dict], seat: int | None) -> list[set[str]]:
    """For each state, the tiles ``seat`` (None: a spectator) cannot know: the
    stack, the face-down tile, the others' kept tiles and the others' three
    tiles before the reveal, the face-down tiles the others took, and for a
    spectator every kept tile."""
    taken_face_down: dict[str, int] = {}
    out = []
    for i, state in enumerate(states):
        if i:
            before, event = states[i - 1], events[i - 1]
            if event["type"] == "take" and before.face_down in before.middle[event["group"]]:
                taken_face_down[before.face_down] = event["player"]
        hidden = set(state.config.deck[state.next_draw:])
        if state.face_down is not None:
            hidden.add(state.face_down)
        hidden |= {t for t, taker in taken_face_down.items() if taker != seat}
        for other in range(state.seats):
            if other != seat:
                hidden |= {t for t in [state.kept[other]] if t is not None}
                hidden |= set(state.drawn[other])
        out.append(hidden)
    return out


def shown_to(state: State, events: list[dict], seat: int | None) -> str:
    """Everything the platform may show ``seat`` now, as one text."""
    parts: list[object] = [
        GAME.view(state, seat),
        [GAME.event_view(state, e, seat) for e in events],
        [GAME.describe_event(GAME.event_view(state, e, seat), PLAYERS) for e in events],
        GAME.awaiting(state).to_json(),
        GAME.projection(state).to_json(),
    ]
    if seat is not None:
        actions = GAME.legal_actions(state, seat)
        # thousands of splits: their other fields, then every tile they name
        parts.append([a for a in actions if a["type"] != "split"])
        parts.append(sorted({t for a in actions if a["type"] == "split" for t in a["part"]}))
        parts.append([GAME.format_action(a) for a in actions[:20]])
        mail = GAME.turn_mail(state, seat)
        if mail is not None:
            parts.append([mail.subject, mail.prompt, list(mail.examples)])
    return json.dumps(parts)


def found(tiles: set[str], text: str) -> set[str]:
    return tiles & set(re.findall(r"\b[A-L][1-5]\b", text))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_secret_reaches_a_seat_or_a_spectator_before_the_end(seats: int):
    for seed in range(12):
        record, states = random_game(seed, seats)
        events = record["events"]
        for viewer in [*range(seats), None]:
            hidden = secrets_of(states, events, viewer)
            # the last state is the finished game: everything is shown then
            for i, state in enumerate(states[:-1]):
                leaked = found(hidden[i], shown_to(state, events[:i], viewer))
                assert not leaked, (seed, viewer, i, leaked)


def test_a_seat_sees_its_own_ark_and_of_the_others_the_tiles_taken_face_up():
    record, states = random_game(3, 2, leave=False)
    i, state = next((i, s) for i, s in enumerate(states)
                    if not s.setup and all(len(a) >= 3 for a in s.arks))
    view = GAME.view(state, 0)
    assert view["ark"] == sorted(state.arks[0])
    assert view["ark_sizes"] == [len(a) for a in state.arks]
    assert "arks" not in view and "ark" not in GAME.view(state, None)
    # the tiles seat 1 took face up: those of the middle it took, as the table saw them
    seen: list[str] = []
    for before, event in zip(states[:i], record["events"][:i], strict=True):
        if event["type"] == "take" and event["player"] == 1:
            seen += [t for t in before.middle[event["group"]] if t != before.face_down]
    assert seen and view["face_up"][1] == GAME.view(state, None)["face_up"][1] == sorted(seen)
    assert len(seen) < len(state.arks[1])  # its keep stays secret
    assert not found(set(state.arks[1]) - set(seen)
                     - {t for e in record["events"] if e["type"] == "split" for t in e["part"]},
                     json.dumps(view))


def test_a_seat_sees_its_own_keep_and_three_tiles_and_not_the_others():
    record, states = random_game(5, 3, leave=False)
    first_keep = next(i for i, e in enumerate(record["events"]) if e["type"] == "keep")
    state, event = states[first_keep + 1], record["events"][first_keep]
    me, tile = event["player"], event["tile"]
    assert GAME.event_view(state, event, me) == event
    assert GAME.view(state, me)["ark"] == [tile]
    assert GAME.view(state, me)["drawn"] == state.drawn[me]
    for other in [s for s in range(3) if s != me] + [None]:
        assert GAME.event_view(state, event, other) == {"type": "keep", "player": me}
    assert tile not in GAME.describe_event(event, PLAYERS)


def test_the_finished_game_reveals_everything():
    record, states = random_game(7, 2, leave=False)
    final = states[-1]
    view = GAME.view(final, None)
    assert view["arks"] == [sorted(a) for a in final.arks]
    assert view["deck"] == record["config"]["deck"]
    assert [GAME.event_view(final, e, None) for e in record["events"]] == record["events"]
    assert GAME.projection(final).scores == tuple(view["scores"])
