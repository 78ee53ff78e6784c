"""Properties of random legal play in every variant and player count: it never
raises, conserves tiles and tokens, never lowers a score, and replaying the
events gives the state built move by move."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.marram import apply, legal_actions, player_view, replay
from engine.marram.selfplay import play
from engine.marram.state import GameState

GAMES = [(v, n) for v in ("classic", "pitchfork", "animals") for n in (2, 3, 4)]


def tokens_on_board(state: GameState, seat: int) -> int:
    return sum(1 for t in state.board.values() if t.token and t.token[0] == seat)


def facts(state: GameState) -> tuple:
    """Everything a move can change, as plain values: the board tile by tile, every
    feature's totals and tokens, the union-find, supplies, scores, creatures, log."""
    feats = state.features
    return (
        {p: (t.face, t.rotation, t.inverted, tuple(t.region_nodes), tuple(t.seg_nodes),
             t.spade, t.flips, t.token) for p, t in state.board.items()},
        {r: (f.beast, f.terrain, tuple(f.nodes), f.open, tuple(f.claims), f.bulges, f.gold,
             f.silver, f.flower, f.btype, f.heads, f.tails, f.ends, f.bodies, f.saddles)
         for r, f in feats.roots.items()},
        [feats.find(n) for n in range(len(feats.parent))],
        sorted(state.frontier), state.drawn, [tuple(h) for h in state.hands],
        tuple(state.boots), tuple(state.pitchforks), tuple(state.spades),
        tuple(state.scores), state.current, state.moves_in_turn, state.finished,
        player_view(state),
    )


def check_invariants(state: GameState, before: list[int]) -> None:
    total = len(state.config.deck) + 1
    in_hands = sum(len(h) for h in state.hands)
    assert len(state.board) + in_hands + state.deck_left + len(state.discarded) == total
    rules = state.rules
    for seat in range(state.players):
        assert state.boots[seat] >= 0 and state.pitchforks[seat] >= 0
        held = state.boots[seat] + state.pitchforks[seat] + tokens_on_board(state, seat)
        assert held + state.retired[seat] == rules.boots + rules.pitchforks
        assert state.scores[seat] >= before[seat]
        assert 0 <= state.spades[seat] <= rules.spades
    # every token on the board is counted on exactly the feature it sits on
    claims = sorted(c for f in state.features.roots.values() for c in f.claims)
    tokens = sorted((t.token[2], t.token[0]) for t in state.board.values() if t.token)
    assert claims == tokens


@pytest.mark.parametrize(("variant", "players"), GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_random_play_keeps_the_invariants_and_replays(variant: str, players: int, seed: int):
    state, record, _ = play(variant, "long", players, seed)
    assert state.finished
    assert state.winners and set(state.winners) <= set(range(players))
    # replay the record from scratch: same state as the one built move by move
    again = replay(record.to_json())
    assert again.ok, again.error
    assert player_view(again.state) == player_view(state)


@pytest.mark.parametrize(("variant", "players"), GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_every_step_conserves_and_apply_is_pure(variant: str, players: int, seed: int):
    rng = random.Random(seed)
    state, record, _ = play(variant, "long", players, seed)
    # walk the same game again with the pure apply, checking after every event
    from engine.marram import make_config, new_game

    cfg = record.config
    walk = new_game(make_config(cfg.variant, cfg.length, cfg.players, cfg.catalogue,
                                cfg.deck, cfg.starter))
    for event in record.events:
        before = facts(walk)
        before_scores = list(walk.scores)
        nxt = apply(walk, event)
        assert facts(walk) == before  # apply never changes its argument
        check_invariants(nxt, before_scores)
        walk = nxt
        if rng.random() < 0.02 and not walk.finished:
            # every listed legal action is accepted
            for action in rng.sample(legal_actions(walk), min(5, len(legal_actions(walk)))):
                apply(walk, {**action, "claim": None} if action["type"] in ("place", "flip")
                      else action)
    assert player_view(walk) == player_view(state)


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_a_copy_and_its_original_never_change_each_other(variant: str, players: int):
    """Copies share their features until one side changes them (copy on write):
    stepping either one in place leaves the other exactly as it was."""
    from engine.marram import step

    state, record, _ = play(variant, "long", players, 11)
    config = record.config
    from engine.marram import make_config, new_game

    original = new_game(make_config(config.variant, config.length, config.players,
                                    config.catalogue, config.deck, config.starter))
    for i, event in enumerate(record.events):
        copy = original.copy()
        kept = facts(copy)
        if i % 2:  # alternately the copy moves on and the original does
            step(copy, event)
            assert facts(original) == kept
            original = copy
        else:
            step(original, event)
            assert facts(copy) == kept
    assert player_view(original) == player_view(state)


@pytest.mark.parametrize(("variant", "players"), [("classic", 2), ("animals", 4)])
def test_play_from_the_legal_action_list_never_raises(variant: str, players: int):
    """Choose every action from legal_actions: each is accepted, the game ends."""
    rng = random.Random(7)
    from engine.marram import chance_event, chance_odds, make_config, new_game
    from engine.marram.catalogue import standard
    from engine.marram.selfplay import draw

    deck = standard().deck_ids()
    rng.shuffle(deck)
    state = new_game(make_config(variant, "long", [f"p{i}" for i in range(players)],
                                 deck=deck))
    events = 0
    while not state.finished:
        odds = chance_odds(state)
        if odds:
            state = apply(state, chance_event(state, draw(odds, rng)))
            continue
        actions = legal_actions(state)
        assert actions, "a player who must act always has a legal action"
        state = apply(state, rng.choice(actions))
        events += 1
        assert events < 2000
    assert len(state.board) > 60
