"""The four option sets of the note, a set spelled out in a record, and the
record's config: read, written back canonical, and refused in one clear line."""
from __future__ import annotations

import pytest

from engine import BadOptions, RecordError, read_options, registry
from engine.fairness import commitment, verify
from engine.pond import GAME

PLAYERS = ["ann", "bob"]


@pytest.mark.parametrize(("name", "size", "eggs", "target"), [
    ("big", 5, 15, 10), ("small", 4, 11, 7), ("small-13", 4, 13, 10), ("small-14", 4, 14, 10),
])
def test_each_option_set_gives_its_pond_spawns_and_target(name, size, eggs, target):
    state = GAME.start({"players": PLAYERS, "options": name})
    assert (state.pond.size, state.spawns, state.pond.target) == (size, [eggs, eggs], target)
    assert GAME.summary(state)["board"] == ["." * size] * size
    assert GAME.config(state) == {"players": PLAYERS, "options": name}


def test_without_options_the_game_is_the_big_pond():
    state = GAME.start({"players": PLAYERS})
    assert GAME.config(state) == {"players": PLAYERS, "options": "big"}
    assert read_options(GAME, None, 2) == {"options": "big"}


def test_a_record_may_spell_a_set_out_and_a_named_one_comes_back_by_name():
    odd = GAME.start({"players": PLAYERS, "options": {"size": 6, "eggs": 20, "target": 12}})
    assert (odd.pond.size, odd.spawns, odd.pond.target) == (6, [20, 20], 12)
    assert GAME.config(odd)["options"] == {"size": 6, "eggs": 20, "target": 12}
    small = GAME.start({"players": PLAYERS, "options": {"size": 4, "eggs": 11, "target": 7}})
    assert GAME.config(small)["options"] == "small"


@pytest.mark.parametrize(("config", "message"), [
    ({"players": ["ann"]}, "'players' must be a list of two names"),
    ({"players": ["ann", "bob", "cy"]}, "'players' must be a list of two names"),
    ({"players": ["ann", 7]}, "'players' must be a list of two names"),
    ({"players": PLAYERS, "options": "huge"}, "unknown Pond options 'huge'"),
    ({"players": PLAYERS, "options": 5}, "a name or"),
    ({"players": PLAYERS, "options": {"size": 1, "eggs": 5, "target": 3}}, "'size' must be"),
    ({"players": PLAYERS, "options": {"size": 4, "eggs": 0, "target": 3}}, "'eggs' must be"),
    ({"players": PLAYERS, "options": {"size": 4, "eggs": 5}}, "'target' must be"),
    ({"players": PLAYERS, "options": {"size": 4, "eggs": 5, "target": 3, "x": 1}},
     "no option 'x'"),
])
def test_a_config_that_makes_no_game_is_one_record_error(config, message):
    with pytest.raises(RecordError, match=message):
        GAME.start(config)


def test_the_lobby_offers_the_four_sets_and_two_seats():
    assert read_options(GAME, {"options": "small"}, 2) == {"options": "small"}
    with pytest.raises(BadOptions, match="must be one of 'big', 'small', 'small-13', "
                                         "'small-14'"):
        read_options(GAME, {"options": "medium"}, 2)
    with pytest.raises(BadOptions, match="Pond is for 2 players, not 3"):
        read_options(GAME, {}, 3)


def test_the_registry_knows_pond_by_key_and_by_record_format():
    assert registry.get("pond") is GAME
    assert registry.for_format("pond-game-record") is GAME


def test_setup_deals_nothing_from_the_seed_and_a_finished_record_verifies():
    # Pond has no chance: two seeds give the same config, and verify checks the
    # commitment and the config, for a named set and for one spelled out
    assert GAME.setup({"options": "small"}, PLAYERS, "00" * 32) == \
        GAME.setup({"options": "small"}, PLAYERS, "11" * 32) == \
        {"players": PLAYERS, "options": "small"}
    seed = "ab" * 32
    for options in ("small", {"size": 3, "eggs": 4, "target": 3}):
        state = GAME.start({"players": PLAYERS, "options": options})
        raw = {"format": "pond-game-record", "version": 1, "config": GAME.config(state),
               "events": [{"type": "resign", "player": 1}]}
        assert verify(GAME, raw, seed, commitment(seed)) == []
        assert verify(GAME, raw, seed, commitment("cd" * 32)) == [
            "the seed does not match the published commitment"]
