"""Make-a-snake through the platform's protocol: registry, options, the deal
and the die from the committed seed, views that keep the stacks secret,
self-play, verify and the command line."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from engine import registry
from engine.errors import BadOptions, IllegalAction, RecordError
from engine.fairness import commitment, draw_event, shuffle, verify
from engine.make_a_snake import GAME
from engine.make_a_snake.pieces import TILES
from engine.protocol import query, read_options, standings
from engine.replay import replay
from engine.selfplay import play as selfplay

from .helpers import config, moves, new, play, roll, summary, take

ROOT = Path(__file__).resolve().parents[3]
SEED = "5e" * 32


def test_the_registry_knows_make_a_snake_by_key_and_by_record_format():
    assert registry.get("make_a_snake") is GAME
    assert registry.for_format("make-a-snake-game-record") is GAME
    assert GAME.seat_counts == (2, 3, 4)


def test_options_are_the_mode_and_the_advanced_rules():
    assert read_options(GAME, None, 3) == {"mode": "competitive", "advanced": False}
    assert read_options(GAME, {"mode": "lollipop", "advanced": True}, 2) == {
        "mode": "lollipop", "advanced": True}
    with pytest.raises(BadOptions, match="Mode must be one of 'competitive', 'lollipop'"):
        read_options(GAME, {"mode": "dragon"}, 2)
    with pytest.raises(BadOptions, match="is for 2, 3, 4 players, not 5"):
        read_options(GAME, None, 5)


def test_each_stack_is_its_colours_tiles_shuffled_from_the_seed_under_its_own_label():
    cfg = GAME.setup(read_options(GAME, None, 2), ["ann", "bob"], SEED)
    assert cfg["players"] == ["ann", "bob"] and cfg["mode"] == "competitive"
    for colour in ("red", "green", "blue", "yellow"):
        tiles = [f"{colour}-{n}" for n in range(1, 9)]
        assert cfg["stacks"][colour] == shuffle(SEED, tiles, f"stack:{colour}")
    assert GAME.setup(read_options(GAME, None, 2), ["ann", "bob"], "01" * 32) != cfg
    assert GAME.config(GAME.start(cfg)) == cfg


@pytest.mark.parametrize(("change", "message"), [
    ({"players": ["ann"]}, "for 2 to 4 players, not 1"),
    ({"players": "ann"}, "'players' must be a list"),
    ({"mode": "dragon"}, "'mode' must be one of"),
    ({"advanced": "yes"}, "'advanced' must be true or false"),
    ({"stacks": {"red": []}}, "'stacks' must be an object with a list for each colour"),
    ({"stacks": {**config()["stacks"], "red": ["red-1"] * 8}}, "each of red-1 to red-8 once"),
    ({"stacks": {**config()["stacks"], "red": ["blue-1"] + config()["stacks"]["red"][1:]}},
     "each of red-1 to red-8 once"),
    ({"stacks": {**config()["stacks"], "red": ["red-9"]}}, "tile ids such as 'red-3'"),
])
def test_a_config_that_makes_no_game_is_a_record_error(change, message):
    with pytest.raises(RecordError, match=re.escape(message)):
        GAME.start({**config(), **change})


def test_the_die_has_six_faces_of_two_colours_each_one_in_six():
    state = new()
    chance = GAME.chance(state)
    assert chance is not None
    faces = [event["face"] for event, _ in chance.outcomes]
    assert faces == [["red", "green"], ["red", "blue"], ["red", "yellow"],
                     ["green", "blue"], ["green", "yellow"], ["blue", "yellow"]]
    assert {odds for _, odds in chance.outcomes} == {Fraction(1, 6)}
    assert GAME.awaiting(state).chance == "the roll of the die"
    assert GAME.chance(play(state, roll())) is None
    # the server's draw for event n is a face of the die, from the seed
    assert draw_event(SEED, 0, chance)["face"] in faces


def test_who_acts_and_what_they_may_do():
    state = play(new(), roll("red", "blue"))
    wait = GAME.awaiting(state)
    assert wait.players == (0,) and wait.tasks[0].kind == "take"
    assert wait.tasks[0].detail == {"die": ["red", "blue"], "colours": ["red", "blue"]}
    assert GAME.legal_actions(state, 1) == []
    state = play(state, take(0, "blue"))
    task = GAME.awaiting(state).tasks[0]
    assert task.kind == "connect" and task.detail == {"tile": "blue-1", "turn": 0,
                                                      "sides": ["up", "down"]}
    assert GAME.timeout(state, 0) == [{"type": "timeout", "player": 0}]
    assert GAME.resign(state, 1) == [{"type": "resign", "player": 1}]
    assert GAME.projection(state).to_act == (0,)


def test_the_views_never_show_a_tile_still_in_a_stack():
    state = GAME.start(GAME.setup(read_options(GAME, None, 3), ["a", "b", "c"], SEED))
    seen = 0
    for _ in range(30):
        wait = GAME.awaiting(state)
        if wait.finished:
            break
        event = (draw_event(SEED, state.events, GAME.chance(state)) if wait.chance
                 else GAME.legal_actions(state, wait.players[0])[0])
        state = GAME.fold(state, event)
        hidden = [t for c, stack in state.stacks.items() for t in stack[state.drawn[c]:]]
        for seat in (None, 0, 1, 2):
            text = json.dumps(GAME.view(state, seat))
            assert not [t for t in hidden if re.search(rf'"{t}"', text)], seat
        assert "stack:" not in json.dumps(GAME.view(state, None))
        seen += 1
    assert seen == 30
    view = GAME.view(state, 1)
    assert view["you"] == 1 and sum(view["stacks"].values()) + sum(
        len(s) for s in view["snakes"]) + (view["taken"] is not None) == len(TILES)


def test_the_view_draws_each_piece():
    state = moves(new(red=["red-8"]), "red up")
    drawing = GAME.view(state, None)["drawing"][0]
    assert drawing["colour"] == "red"
    assert drawing["head"]["parts"][0]["line"] == [[0.0, 0.0], [0.0, 5.0]]
    # line 4 to (0,-4), then arc 5 90 left round (5,-4) from angle 180 to 270
    assert drawing["tiles"][0]["parts"] == [
        {"line": [[0.0, 0.0], [0.0, -4.0]], "start": [0.0, 0.0], "end": [0.0, -4.0]},
        {"arc": {"centre": [5.0, -4.0], "radius": 5, "from": 180, "sweep": 90},
         "start": [0.0, -4.0], "end": [5.0, -9.0]}]
    assert drawing["tail"] is None and drawing["open_end"] == [5, -9, 0]


def test_the_connect_preview_shows_each_legal_connect():
    state = play(new(red=["red-4"]), roll(), take(0, "red"))
    previews = query(GAME, state, "connect_preview", 0, {})
    assert [p["open_end"] for p in previews] == [[6, -6, 0], [-6, -6, 180]]
    assert [p["overlaps"] for p in previews] == [[], []]
    with pytest.raises(IllegalAction) as e:
        query(GAME, play(new(), roll()), "connect_preview", 0, {})
    assert e.value.code == "bad_query"


def test_standings_rank_the_shortest_distance_first():
    tops = {"red": ["red-2", "red-4", "red-5", "red-7", "red-1", "red-6", "red-3", "red-8"],
            "green": ["green-2", "green-4", "green-5", "green-7", "green-1", "green-6",
                      "green-3", "green-8"]}
    state = moves(new(players=4, **tops), *(["red"] * 4 + ["green"] * 4) * 2)
    ranked = standings(GAME.projection(state))
    assert [(s.seat, s.rank, s.won) for s in ranked] == [(2, 1, True), (1, 2, False),
                                                         (0, 3, False), (3, 4, False)]


@pytest.mark.parametrize("options", [
    {"mode": "competitive", "advanced": False}, {"mode": "competitive", "advanced": True},
    {"mode": "lollipop", "advanced": False}, {"mode": "lollipop", "advanced": True}])
@pytest.mark.parametrize("players", [2, 4])
def test_selfplay_games_end_and_their_records_replay_and_verify(options, players):
    names = [f"p{i}" for i in range(players)]
    for seed in range(3):
        state, record = selfplay(GAME, options, names, seed)
        assert state.finished
        _, result = replay(record)
        assert result.ok and GAME.summary(result.state) == GAME.summary(state)
        fair = record["fairness"]
        assert verify(GAME, record, fair["seed"], fair["commitment"]) == []
    # a forged roll or a forged stack is caught
    roll_at = next(i for i, e in enumerate(record["events"]) if e["type"] == "roll")
    faces = [["red", "green"], ["blue", "yellow"]]
    forged_face = faces[0] if record["events"][roll_at]["face"] != faces[0] else faces[1]
    forged = {**record, "events": [*record["events"][:roll_at],
                                   {"type": "roll", "face": forged_face}]}
    assert any("the seed gives" in p for p in verify(GAME, forged, fair["seed"],
                                                     fair["commitment"]))
    stacks = dict(record["config"]["stacks"])
    stacks["red"] = list(reversed(stacks["red"]))
    swapped = {**record, "config": {**record["config"], "stacks": stacks}, "events": []}
    assert "the stacks is not the one the seed gives" in verify(
        GAME, swapped, fair["seed"], commitment(fair["seed"]))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_the_command_line_lists_plays_replays_and_verifies_make_a_snake(tmp_path):
    assert "make_a_snake" in run("games").stdout
    out = run("selfplay", "--game", "make_a_snake", "--players", "3", "--games", "4",
              "--option", "advanced=true", "--out", str(tmp_path), "--quiet")
    assert out.returncode == 0, out.stderr
    assert "(lower is better)" in out.stdout and "tiles a snake" in out.stdout
    record = sorted(tmp_path.glob("*.json"))[0]
    replayed = run("replay", str(record))
    assert replayed.returncode == 0
    summary_ = json.loads(replayed.stdout)
    assert summary_["finished"] and summary_["awaiting"] is None
    assert all(isinstance(d, float) for d in summary_["distances"])
    verified = run("verify", str(record))
    assert verified.returncode == 0 and verified.stdout.startswith("fair")


def test_the_command_line_reports_an_illegal_event_and_an_unreadable_config(tmp_path):
    bad = {"format": "make-a-snake-game-record", "version": 1, "config": config(),
           "events": [roll("red", "green"), take(1, "red")]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    out = run("replay", str(path))
    assert out.returncode == 1
    assert json.loads(out.stdout) == {"error": "it is seat 0's turn, not seat 1's",
                                      "code": "not_your_turn", "event": 1}
    path.write_text(json.dumps({**bad, "config": {**config(), "mode": "dragon"}}))
    out = run("replay", str(path))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "'mode' must be one of" in out.stderr


def test_summary_has_every_field_of_the_spec_note():
    s = summary(play(new(), roll()))
    assert {"finished", "winners", "current_player", "awaiting", "die", "stacks", "snakes",
            "open_ends", "distances"} <= set(s)
    assert "touched" not in s
    assert "touched" in summary(new(mode="lollipop"))


def test_the_basic_preview_allows_both_sides_and_says_so():
    state = play(new(red=["red-4"]), roll(), take(0, "red"))
    previews = query(GAME, state, "connect_preview", 0, {})
    assert [(p["side"], p["allowed"], p["turn"]) for p in previews] == [
        ("up", True, 0), ("down", True, 0)]
    assert {p["why"] for p in previews} == {"The basic rules let a tile overlap any other."}
    # the up preview is red-4 up: a quarter circle round (6,0) from the neck
    assert previews[0]["parts"] == [{"arc": {"centre": [6.0, 0.0], "radius": 6,
                                             "from": 180, "sweep": 90},
                                     "start": [0.0, 0.0], "end": [6.0, -6.0]}]
