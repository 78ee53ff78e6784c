"""Marram through the Game protocol: what the platform sees of it is what the
rules modules say (engine/marram/adapter.py)."""
from __future__ import annotations

import json
import random

import pytest

from engine import IllegalAction, registry
from engine.fairness import commitment, deck_from_seed, draw, draw_event, verify
from engine.marram import GAME, chance_event, chance_odds, standard
from engine.marram.notation import format_action
from engine.protocol import query, read_options
from engine.replay import replay
from engine.selfplay import play

from .helpers import game
from .test_turns import GRASS
from .test_view import sand_circle

SEED = "ab" * 32


def test_marram_is_registered_under_its_key_and_record_format():
    assert registry.get("marram") is GAME
    assert registry.for_format("marram-game-record") is GAME
    assert GAME.seat_counts == (2, 3, 4) and GAME.rules_version == "1"


def test_setup_deals_the_deck_the_seed_gives_as_the_server_always_has():
    options = read_options(GAME, {"variant": "pitchfork"}, 3)
    config = GAME.setup(options, ["ann", "bob", "cat"], SEED)
    assert config["deck"] == deck_from_seed(SEED, standard().deck_ids())
    assert config["variant"] == "pitchfork" and config["players"] == ["ann", "bob", "cat"]
    state = GAME.start(config)
    assert GAME.config(state) == config and GAME.options(state) == options


def test_a_move_is_awaited_from_one_seat_with_its_number_in_the_turn():
    state = GAME.start(GAME.setup(read_options(GAME, {}, 2), ["ann", "bob"], SEED))
    wait = GAME.awaiting(state)
    assert wait.players == (0,) and wait.chance is None
    task = wait.task(0)
    assert task is not None and task.kind == "move" and task.detail == {"move": 1}
    assert GAME.legal_actions(state, 1) == []
    assert GAME.legal_actions(state, 0) and all(a["player"] == 0
                                                for a in GAME.legal_actions(state, 0))
    mail = GAME.turn_mail(state, 0)
    assert mail is not None and mail.subject == "your move"
    assert mail.prompt.startswith("It is your turn: move 1 of 2.")
    assert mail.examples == tuple(format_action(a) for a in GAME.legal_actions(state, 0)[:3])
    assert GAME.turn_mail(state, 1) is None


def _animals_until_chance():
    """A 2-player Animals game played by bots until a chance event is due."""
    options = read_options(GAME, {"variant": "animals"}, 2)
    state = GAME.start(GAME.setup(options, ["ann", "bob"], SEED))
    rng = random.Random(2)
    events = 0
    while GAME.awaiting(state).chance is None:
        seat = GAME.awaiting(state).players[0]
        state = GAME.fold(state, GAME.bot_action(state, seat, rng))
        events += 1
    return state, events


def test_chance_outcomes_are_the_rules_odds_drawn_as_the_server_draws_them():
    state, index = _animals_until_chance()
    wait = GAME.awaiting(state)
    assert wait.chance == "where the fly appears" and wait.players == ()
    chance = GAME.chance(state)
    assert chance is not None
    odds = chance_odds(state)
    assert odds is not None
    assert [share for _, share in chance.outcomes] == [odds[p] for p in sorted(odds)]
    assert sum(share for _, share in chance.outcomes) == 1
    # the same draw as the service's fairness.draw over the positions
    for seed in (SEED, "cd" * 32, "01" * 32):
        assert draw_event(seed, index, chance) == chance_event(state, draw(seed, index, odds))


def test_after_the_fly_appears_each_seat_guesses_in_turn():
    state, _ = _animals_until_chance()
    chance = GAME.chance(state)
    assert chance is not None
    state = GAME.fold(state, chance.outcomes[0][0])
    task = GAME.awaiting(state).tasks[0]
    assert task.kind == "guess" and task.detail == {"creature": "fly"}
    mail = GAME.turn_mail(state, task.seat)
    assert mail is not None and mail.subject == "your guess"
    assert mail.examples == ("guess fly 7", "guess fly escape")


def test_the_server_passes_for_a_player_whose_tiles_fit_nowhere():
    # p0 holds three sand fillers against an all-grass board, and no tile has a
    # spade to flip: a pass is all that is left, and the server makes it
    stuck = game(GRASS, [[], ["G4", "G5", "G6"]], rest=["G7", "G8", "G9", "G10"])
    assert GAME.automatic(stuck) == {"type": "pass", "player": 0}
    fits = game(GRASS, [["F8", "F9", "G1"], []])
    assert GAME.automatic(fits) is None


def test_timeout_and_resign_are_the_spec_s_events_and_the_projection_shows_them():
    state = GAME.start(GAME.setup(read_options(GAME, {}, 3), ["ann", "bob", "cat"], SEED))
    assert GAME.timeout(state, 0) == [{"type": "timeout", "player": 0}]
    state = GAME.fold(state, GAME.timeout(state, 0)[0])
    assert GAME.awaiting(state).players == (1,)
    state = GAME.fold(state, GAME.resign(state, 1)[0])
    p = GAME.projection(state)
    assert p.to_act == (2,) and p.out == (1,) and not p.finished and p.better == "higher"
    state = GAME.fold(state, GAME.resign(state, 2)[0])
    p = GAME.projection(state)
    assert p.finished and p.winners == (0,) and p.end == "resign" and p.to_act == ()


def test_the_views_never_show_the_deck_order():
    state = GAME.start(GAME.setup(read_options(GAME, {}, 2), ["ann", "bob"], SEED))
    undrawn = list(state.config.deck[state.drawn:])
    for seat in (0, 1, None):
        text = json.dumps(GAME.view(state, seat))
        assert '"deck"' not in text and not any(f'"{t}"' in text for t in undrawn)
    assert GAME.view(state, None)["you"] is None


def test_claims_and_score_preview_are_queries_the_pages_can_ask():
    raw = sand_circle()
    # bob's tile D closes the sand circle that ann's boot holds (the spec's example)
    before, last = raw["events"][:2], raw["events"][2]
    _, result = replay({**raw, "events": before})
    state = result.state
    seat = last["player"]
    move = {k: v for k, v in last.items() if k != "claim"}
    claims = query(GAME, state, "claims", seat, {"action": move})
    assert isinstance(claims, list) and claims and all(set(c) <= {"arc", "side"}
                                                       for c in claims)
    preview = query(GAME, state, "score_preview", seat, {"action": last})
    assert preview["gains"] == [9, 0]  # ann: 1 bulge 5 + a flower 4, though bob moved
    assert [a["points"] for a in preview["awards"]] == [9]
    assert state.scores == [0, 0]  # a preview changes nothing
    for bad, code in [({}, "bad_query"), ({"action": {**move, "type": "pass"}}, "bad_query"),
                      ({"action": {**move, "player": 1 - seat}}, "not_your_seat")]:
        with pytest.raises(IllegalAction) as refused:
            query(GAME, state, "claims", seat, bad)
        assert refused.value.code == code


def test_a_selfplayed_game_verifies_and_a_swapped_deck_is_caught():
    options = read_options(GAME, {"variant": "animals"}, 2)
    state, rec = play(GAME, options, ["ann", "bob"], 1)
    seed = rec["fairness"]["seed"]
    assert any(e["type"] == "hop" for e in rec["events"])
    assert verify(GAME, rec, seed, commitment(seed)) == []
    swapped = json.loads(json.dumps(rec))
    deck = swapped["config"]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    assert "the deck is not the one the seed gives" in verify(GAME, swapped, seed,
                                                             commitment(seed))
