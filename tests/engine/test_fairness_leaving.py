"""A seat may leave while a chance draw is due (docs/design.md, "Fair chance"):
its leaving event (``Game.resign``) is no draw and is not checked against the
seed, and the draw still due after it is the one the seed gives for its own
index, as the server draws it (``fairness.draw_event`` at the seq it is
appended at). So an honest game verifies fair whatever order its players leave
in, in every game with chance: Marram's fly and frog, Make-a-snake's roll.
Anything else where a draw is due is still reported."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import fairness
from engine import marram as marram_engine
from engine.marram import fairness as marram_fairness
from engine.protocol import AnyGame
from engine.registry import get

ROOT = Path(__file__).resolve().parents[2]

Leave = Callable[[AnyGame, Any, int], "int | None"]
"""At the n-th draw due (from 0): the seat that leaves now, or None to draw."""


def play(key: str, options: dict, players: int, seed: str, leave: Leave,
         rng_seed: int = 1) -> tuple[dict, Any, list[int]]:
    """A whole game played at random, every draw made as the server makes it
    (``draw_event`` with the seed at the draw's own index), and a seat leaving
    where ``leave`` says: the record (seed revealed), the last state, and the
    indices of the leaving events made while a draw was due."""
    game = get(key)
    config = game.setup(options, [f"p{i}" for i in range(players)], seed)
    state = game.start(config)
    events: list[dict] = []
    left_at: list[int] = []
    draws = 0
    rng = random.Random(rng_seed)
    for _ in range(10_000):
        wait = game.awaiting(state)
        if wait.finished:
            break
        chance = game.chance(state)
        if chance is not None:
            seat = leave(game, state, draws)
            draws += 1
            if seat is not None:
                event = dict(game.resign(state, seat)[0])
                left_at.append(len(events))
            else:
                event = dict(fairness.draw_event(seed, len(events), chance))
        else:
            forced = game.automatic(state)
            event = dict(forced if forced is not None
                         else game.bot_action(state, wait.players[0], rng))
        state = game.fold(game.copy(state), game.read_event(event))
        events.append(event)
    assert game.awaiting(state).finished
    record = {"format": game.record_format, "version": game.record_version,
              "config": config, "events": events,
              "fairness": {"seed": seed, "commitment": fairness.commitment(seed)}}
    return record, state, left_at


def problems(key: str, record: dict) -> list[str]:
    seed, published = fairness.seed_from_record(record)
    return fairness.verify(get(key), record, seed, published)


def in_seats(game: AnyGame, state: Any) -> list[int]:
    out = set(game.projection(state).out)
    return [s for s in range(len(game.projection(state).scores)) if s not in out]


def seed_of(n: int) -> str:
    return f"{n:02x}" * 32


# ---------------------------------------------------------------- Make-a-snake

def snake_leaves(at_draw: int, who: str) -> Leave:
    """At the ``at_draw``-th roll, the seat whose roll it is leaves (``current``),
    or the next seat still in (``other``)."""
    def leave(game: AnyGame, state: Any, n: int) -> int | None:
        if n != at_draw:
            return None
        seats = in_seats(game, state)
        return state.current if who == "current" else \
            seats[(seats.index(state.current) + 1) % len(seats)]
    return leave


SNAKE_GAMES = [(mode, players, at_draw, who)
               for mode in ("competitive", "lollipop")
               for players in (2, 3, 4)
               for at_draw in (0, 5)
               for who in ("current", "other")]


@pytest.mark.parametrize("mode,players,at_draw,who", SNAKE_GAMES,
                         ids=lambda v: str(v))
def test_make_a_snake_a_seat_leaving_while_the_roll_is_due_verifies_fair(
        mode: str, players: int, at_draw: int, who: str):
    for n in range(2):
        record, state, left_at = play(
            "make_a_snake", {"mode": mode, "advanced": n == 1}, players,
            seed_of(16 * players + at_draw + n), snake_leaves(at_draw, who))
        assert len(left_at) == 1
        i = left_at[0]
        assert record["events"][i]["type"] == "resign"
        assert problems("make_a_snake", record) == []
        after = record["events"][i + 1:]
        if mode == "competitive" and players == 2:
            assert after == [] and state.winners != ()  # the last seat left wins at once
        else:
            assert after and after[0]["type"] == "roll"  # drawn for its own index, i + 1


def test_make_a_snake_a_roll_drawn_for_the_leaving_events_index_is_reported():
    # a server that kept the index of the draw it was about to make, when a seat
    # left, would record the seed's roll for the resignation's index after it
    game = get("make_a_snake")
    for n in range(20):
        record, _, (i,) = play("make_a_snake", {"mode": "competitive", "advanced": False}, 3,
                               seed_of(n), snake_leaves(1, "current"))
        state = game.start(record["config"])
        for event in record["events"][:i + 1]:
            state = game.fold(state, game.read_event(event))
        chance = game.chance(state)
        assert chance is not None and record["events"][i + 1] == fairness.draw_event(
            seed_of(n), i + 1, chance)
        stale = dict(fairness.draw_event(seed_of(n), i, chance))
        if stale != record["events"][i + 1]:
            break
    else:
        raise AssertionError("no seed gives another roll for the two indices")
    record["events"][i + 1] = stale
    found = problems("make_a_snake", record)
    assert found and found[0].startswith(f"event {i + 1}: the seed gives")


def test_make_a_snake_a_timeout_where_the_roll_is_due_is_still_reported():
    # the resignation is passed over; a timeout after it, where the roll is
    # still due, is not a draw: reported (and illegal: a timeout comes only
    # while a take or a connect is awaited)
    record, _, (i,) = play("make_a_snake", {"mode": "competitive", "advanced": False}, 3,
                           seed_of(7), snake_leaves(2, "other"))
    record["events"].insert(i + 1, {"type": "timeout", "player": 0})
    found = problems("make_a_snake", record)
    assert len(found) == 2 and found[0].startswith(f"event {i + 1}: the seed gives")
    assert found[1].startswith(f"event {i + 1} is illegal")


def test_make_a_snake_a_resignation_that_is_not_one_is_still_reported():
    # a seat that has left already cannot leave again: the event is illegal
    record, _, (i,) = play("make_a_snake", {"mode": "competitive", "advanced": False}, 3,
                           seed_of(8), snake_leaves(0, "other"))
    record["events"].insert(i + 1, dict(record["events"][i]))
    found = problems("make_a_snake", record)
    assert found == [f"event {i + 1} is illegal: seat {record['events'][i]['player']} "
                     "has resigned already"]


# ---------------------------------------------------------------- Marram

def marram_leaves(kind: str, creature: str, who: str) -> Leave:
    """Where the ``creature``'s first ``kind`` (appear or hop) is due, the seat
    to move leaves (``current``) or the next seat still in (``other``)."""
    done: list[bool] = []

    def leave(game: AnyGame, state: Any, n: int) -> int | None:
        wait = marram_engine.awaiting(state)
        if done or (wait["event"], wait["creature"]) != (kind, creature):
            return None
        done.append(True)
        seats = in_seats(game, state)
        return state.current if who == "current" else \
            seats[(seats.index(state.current) + 1) % len(seats)]
    return leave


MARRAM_GAMES = [(players, kind, creature, who)
                for players in (2, 3, 4)
                for kind in ("appear", "hop")
                for creature in ("fly", "frog")
                for who in ("current", "other")]


@pytest.mark.parametrize("players,kind,creature,who", MARRAM_GAMES, ids=lambda v: str(v))
def test_marram_a_seat_leaving_while_the_fly_or_frog_is_due_verifies_fair(
        players: int, kind: str, creature: str, who: str):
    for n in range(2):
        record, state, left_at = play(
            "marram", {"variant": "animals", "length": "long"}, players,
            seed_of(40 + 8 * players + n), marram_leaves(kind, creature, who), rng_seed=n)
        assert len(left_at) == 1  # the seeds chosen meet that draw
        i = left_at[0]
        assert record["events"][i]["type"] == "resign"
        assert problems("marram", record) == []
        assert marram_fairness.verify(
            record, seed_of(40 + 8 * players + n),
            fairness.commitment(seed_of(40 + 8 * players + n)),
            marram_engine.standard().deck_ids()) == []
        after = record["events"][i + 1:]
        if players == 2:
            assert after == [] and state.winners  # the last seat left wins at once
        else:
            want = "creature_appears" if kind == "appear" else "hop"
            assert after[0]["type"] == want and after[0]["creature"] == creature


def test_marram_after_a_seat_leaves_the_fly_still_appears_and_only_the_others_guess():
    game = get("marram")
    record, _, (i,) = play("marram", {"variant": "animals", "length": "long"}, 3,
                           seed_of(11), marram_leaves("appear", "fly", "other"))
    gone = record["events"][i]["player"]
    state = game.start(record["config"])
    for event in record["events"][:i + 1]:
        state = game.fold(state, game.read_event(event))
    assert marram_engine.awaiting(state) == {"kind": "chance", "player": None,
                                             "event": "appear", "creature": "fly"}
    appears = fairness.draw_event(seed_of(11), i + 1, game.chance(state))
    assert record["events"][i + 1] == appears
    guesses = [e["player"] for e in record["events"][i + 2:i + 4]]
    assert [e["type"] for e in record["events"][i + 2:i + 4]] == ["guess", "guess"]
    assert gone not in guesses and len(set(guesses)) == 2


def test_marram_a_guess_where_the_hop_is_due_is_still_reported():
    # the resignation is passed over; a guess after it, where the hop is still
    # due, is not a draw: reported (and illegal)
    record, _, (i,) = play("marram", {"variant": "animals", "length": "long"}, 3,
                           seed_of(5), marram_leaves("hop", "fly", "current"))
    seat = next(s for s in range(3) if s != record["events"][i]["player"])
    record["events"].insert(i + 1, {"type": "guess", "player": seat, "creature": "fly",
                                    "hops": 1})
    found = problems("marram", record)
    assert len(found) == 2 and found[0].startswith(f"event {i + 1}: the seed gives")
    assert found[1].startswith(f"event {i + 1} is illegal")


# ---------------------------------------------------------------- the command line

@pytest.mark.parametrize("key,options,leave", [
    ("make_a_snake", {"mode": "competitive", "advanced": False}, snake_leaves(3, "current")),
    ("marram", {"variant": "animals", "length": "long"}, marram_leaves("appear", "fly",
                                                                       "other")),
], ids=["make_a_snake", "marram"])
def test_python_m_engine_verify_says_fair(key: str, options: dict, leave: Leave,
                                          tmp_path: Path):
    record, _, left_at = play(key, options, 3, seed_of(99), leave)
    assert left_at
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "engine", "verify", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("fair"), out.stdout
