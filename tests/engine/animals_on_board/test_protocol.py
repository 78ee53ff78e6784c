"""Animals on Board through the platform's protocol: registered by key and
record format, dealt from the committed seed, several seats awaited at the
setup, points kept out of the lists until the end, and the event list shown
per seat (the protocol's event_view, public by default)."""
from __future__ import annotations

import pytest

from engine import registry
from engine.animals_on_board import GAME
from engine.errors import BadOptions
from engine.protocol import read_options

from .helpers import OPENING, keep, opened, play, start

SEED = "5e" * 32


def test_the_registry_knows_the_game_by_key_and_by_record_format():
    assert registry.get("animals_on_board") is GAME
    assert registry.for_format("animals-on-board-game-record") is GAME


def test_two_to_four_players_and_no_options():
    assert read_options(GAME, {}, 3) == {}
    with pytest.raises(BadOptions, match="2, 3, 4 players, not 5"):
        read_options(GAME, {}, 5)
    with pytest.raises(BadOptions, match="no option 'variant'"):
        read_options(GAME, {"variant": "x"}, 2)


@pytest.mark.parametrize(("seats", "species"), [(2, 8), (3, 10), (4, 12)])
def test_species_and_deck_come_from_the_seed(seats: int, species: int):
    players = ["ann", "bob", "cat", "dan"][:seats]
    config = GAME.setup({}, players, SEED)
    assert config == GAME.setup({}, players, SEED)  # the same seed deals the same
    assert len(config["species"]) == species and config["species"] == sorted(config["species"])
    assert sorted(config["deck"]) == sorted(f"{s}{n}" for s in config["species"]
                                            for n in range(1, 6))
    other = GAME.setup({}, players, "a7" * 32)
    assert other["deck"] != config["deck"]
    assert GAME.config(GAME.start(config)) == config


def test_the_setup_awaits_every_seat_and_the_round_one():
    wait = GAME.awaiting(start(seats=3))
    assert wait.players == (0, 1, 2) and wait.chance is None
    task = GAME.awaiting(opened()).task(0)
    assert task is not None and task.kind == "turn" and task.detail == {"round": 1,
                                                                        "final_turn": False}
    assert GAME.chance(opened()) is None


def test_the_projection_keeps_points_hidden_until_the_end():
    p = GAME.projection(opened())
    assert p.scores == (None, None) and p.to_act == (0,) and not p.finished
    done = play(opened(), {"type": "resign", "player": 1})
    p = GAME.projection(done)
    # ann: B2 2 + 1 crate = 3; bob: E5 5 + 1 crate = 6, but bob resigned
    assert p.finished and p.scores == (3, 6) and p.winners == (0,) and p.out == (1,)
    assert p.end == "resign"


def test_event_view_hides_a_keep_from_the_others_until_the_end():
    state = play(start(*OPENING), keep(1, "D4"))  # bob drew D4 E5 F1
    assert GAME.event_view(state, keep(1, "D4"), 0) == {"type": "keep", "player": 1}
    assert GAME.event_view(state, keep(1, "D4"), None) == {"type": "keep", "player": 1}
    assert GAME.event_view(state, keep(1, "D4"), 1) == keep(1, "D4")


def test_event_view_shows_events_whole_by_default():
    marram = registry.get("marram")
    config = marram.setup(read_options(marram, {}, 2), ["ann", "bob"], SEED)
    state = marram.start(config)
    event = {"type": "pass", "player": 0}
    assert marram.event_view(state, event, 1) == event
