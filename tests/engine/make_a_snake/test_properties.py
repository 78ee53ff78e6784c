"""Properties of whole games played at random (hypothesis chooses the rolls,
the actions, timeouts and resignations): every legal action is accepted, wrong
ones are refused and change nothing, no tile is lost or doubled, the game ends,
the result follows the rules, and replaying the events gives the same game."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalAction
from engine.make_a_snake import GAME
from engine.make_a_snake.pieces import COLOURS, TILES
from engine.make_a_snake.scoring import LOLLIPOPS, touched
from engine.protocol import read_options
from engine.replay import replay_events

SEED = "c0" * 32


def check_tiles(state) -> None:
    laid = [t.tile for s in state.snakes for t in s.tiles]
    assert len(laid) == len(set(laid))
    left = [t for c in COLOURS for t in state.stacks[c][state.drawn[c]:]]
    taken = [state.taken] if state.taken else []
    assert sorted(laid + left + taken) == sorted(TILES)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([2, 3, 4]), st.sampled_from(["competitive", "lollipop"]),
       st.booleans())
def test_random_games_keep_the_rules(data, players, mode, advanced):
    options = read_options(GAME, {"mode": mode, "advanced": advanced}, players)
    config = GAME.setup(options, [f"p{i}" for i in range(players)], SEED)
    state = GAME.start(config)
    events: list[dict] = []
    while not GAME.awaiting(state).finished:
        wait = GAME.awaiting(state)
        if wait.chance:
            chance = GAME.chance(state)
            assert chance is not None
            event = data.draw(st.sampled_from([e for e, _ in chance.outcomes]))
        else:
            seat = wait.players[0]
            legal = GAME.legal_actions(state, seat)
            assert legal and all(GAME.legal_actions(state, s) == []
                                 for s in range(players) if s != seat)
            # a wrong event: a take of a colour not offered, or another seat's move
            wrong = data.draw(st.sampled_from(
                [{"type": "take", "player": seat, "colour": c} for c in COLOURS
                 if {"type": "take", "player": seat, "colour": c} not in legal]
                + [{**legal[0], "player": (seat + 1) % players}]))
            before = GAME.summary(state)
            try:
                GAME.fold(GAME.copy(state), wrong)
                raise AssertionError(f"{wrong} was accepted")
            except IllegalAction:
                pass
            assert GAME.summary(state) == before
            extra = data.draw(st.sampled_from(["act"] * 12 + ["timeout", "resign"]))
            if extra == "timeout":
                event = GAME.timeout(state, seat)[0]
            elif extra == "resign":
                event = GAME.resign(state, data.draw(st.sampled_from(range(players))))[0]
                if event["player"] in state.resigned:
                    continue
            else:
                event = data.draw(st.sampled_from(legal))
        state = GAME.fold(state, event)
        events.append(event)
        check_tiles(state)
        if state.lollipop:
            assert state.touched == touched(state.snakes[0])
    s = GAME.summary(state)
    active = [p for p in range(players) if p not in state.resigned]
    if mode == "competitive":
        distances = {p: s["distances"][p] for p in active}
        assert all(d is not None for d in distances.values())
        assert all(s["distances"][p] is None for p in state.resigned)
        best = min(distances.values(), default=None)
        assert s["winners"] == [p for p in active if distances[p] == best]
    else:
        won = len(s["touched"]) == len(LOLLIPOPS)
        assert s["winners"] == (active if won else [])
    again = replay_events(GAME, GAME.start(config), events)
    assert again.ok and GAME.summary(again.state) == s
