"""Snapshots (engine.snapshot): a state written as JSON and read back acts
exactly as the state replay gives, at every seq and for every event after it;
a snapshot of other rules or another version is refused; a game without
snapshots says so."""
from __future__ import annotations

import json
from typing import Any

import pytest

from engine import registry
from engine.errors import SnapshotError
from engine.protocol import AnyGame, read_options
from engine.replay import replay_events
from engine.selfplay import play
from engine.snapshot import restore, snapshot, supported

from .tictactoe import GAME as TICTACTOE

CASES = [
    ("marram", {"variant": "classic", "length": "long"}, 2, 1),
    ("marram", {"variant": "classic", "length": "short"}, 3, 2),
    ("marram", {"variant": "pitchfork", "length": "long"}, 2, 3),
    ("marram", {"variant": "pitchfork", "length": "long"}, 4, 4),
    ("marram", {"variant": "animals", "length": "long"}, 2, 5),
    ("marram", {"variant": "animals", "length": "long"}, 3, 6),
    ("pond", {"options": "big"}, 2, 7),
    ("pond", {"options": "small"}, 2, 8),
    ("make_a_snake", {"mode": "competitive", "advanced": False}, 2, 9),
    ("make_a_snake", {"mode": "competitive", "advanced": True}, 3, 10),
    ("make_a_snake", {"mode": "lollipop", "advanced": True}, 2, 11),
    ("animals_on_board", {}, 2, 12),
    ("animals_on_board", {}, 4, 13),
]
CHECKPOINTS = 9
"""Snapshots taken in a game: at its start, its end, and evenly between."""
FOLLOWED = 4
"""Events after each snapshot checked one by one (then the end of the game)."""


def facts(game: AnyGame, state: Any) -> dict[str, Any]:
    """Everything the platform reads of a state, and the state's own dump."""
    seats = range(len(game.config(state)["players"]))
    chance = game.chance(state)
    return {
        "views": [game.view(state, s) for s in [None, *seats]],
        "summary": game.summary(state),
        "projection": game.projection(state).to_json(),
        "awaiting": game.awaiting(state).to_json(),
        "legal": [game.legal_actions(state, s) for s in seats],
        "chance": None if chance is None else [[e, str(p)] for e, p in chance.outcomes],
        "automatic": game.automatic(state),
        "dump": game.dump_state(state),
    }


def case_id(case: tuple[str, dict[str, Any], int, int]) -> str:
    key, options, seats, _ = case
    return "-".join([key, *map(str, options.values()), f"{seats}p"])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_snapshot_folds_on_as_the_replay(case):
    key, options, seats, seed = case
    game = registry.get(key)
    _, record = play(game, read_options(game, options, seats),
                     [f"p{s}" for s in range(seats)], seed)
    config, events = record["config"], record["events"]
    step = max(1, len(events) // (CHECKPOINTS - 1))
    for seq in sorted({*range(0, len(events), step), len(events)}):
        replayed = replay_events(game, game.start(config), events[:seq]).state
        # jsonb keeps an object's keys in an order of its own
        stored = json.loads(json.dumps(snapshot(game, replayed), sort_keys=True))
        loaded = restore(game, config, stored)
        assert facts(game, loaded) == facts(game, replayed), f"seq {seq}"
        for i, event in enumerate(events[seq:seq + FOLLOWED], start=seq + 1):
            replayed = game.fold(replayed, game.read_event(event))
            loaded = game.fold(loaded, game.read_event(event))
            assert facts(game, loaded) == facts(game, replayed), f"seq {seq}, event {i}"
        rest = events[seq + FOLLOWED:]
        replayed = replay_events(game, replayed, rest).state
        loaded = replay_events(game, loaded, rest)
        assert loaded.ok
        assert facts(game, loaded.state) == facts(game, replayed), f"from seq {seq} to the end"


@pytest.mark.parametrize("key", [g.key for g in registry.games()])
def test_every_game_writes_snapshots(key):
    assert supported(registry.get(key))


def _snapshot_of(key: str) -> tuple[AnyGame, Any, dict[str, Any]]:
    game = registry.get(key)
    state, record = play(game, read_options(game, {}, 2), ["ann", "bob"], 1)
    return game, record["config"], json.loads(json.dumps(snapshot(game, state)))


@pytest.mark.parametrize("field, value", [("rules_version", "0-old"), ("version", 99),
                                          ("game", "pond")])
def test_a_snapshot_of_other_rules_or_another_version_is_refused(field, value):
    game, config, data = _snapshot_of("marram")
    with pytest.raises(SnapshotError, match=field):
        restore(game, config, {**data, field: value})


def test_a_broken_snapshot_is_refused_not_crashed_on():
    game, config, data = _snapshot_of("marram")
    del data["state"]["board"]
    with pytest.raises(SnapshotError, match="cannot be read"):
        restore(game, config, data)
    with pytest.raises(SnapshotError):
        restore(game, config, "not a snapshot")


def test_a_game_without_snapshots_is_read_by_replay_alone():
    # tic-tac-toe does not implement Snapshots: no game must
    assert not supported(TICTACTOE)
    state = TICTACTOE.start(TICTACTOE.setup(read_options(TICTACTOE, {}, 2),
                                            ["ann", "bob"], "ab" * 32))
    with pytest.raises(SnapshotError, match="no snapshots"):
        snapshot(TICTACTOE, state)
    with pytest.raises(SnapshotError, match="no snapshots"):
        restore(TICTACTOE, {}, {})


def test_a_snapshot_holds_every_hand_so_it_is_the_servers_alone():
    # why no page or API may show one: every seat's secret tiles are in it
    game = registry.get("marram")
    config = game.setup(read_options(game, {}, 2), ["ann", "bob"], "ab" * 32)
    state = game.start(config)
    data = snapshot(game, state)
    assert data["state"]["hands"] == state.hands and all(state.hands)
