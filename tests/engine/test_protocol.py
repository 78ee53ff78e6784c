"""The protocol, the registry, generic replay, self-play and the command line,
proved with a tiny game the tests register (tests/engine/tictactoe.py)."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry
from engine.cli import main
from engine.errors import BadOptions, IllegalAction, NotationError, RecordError
from engine.fairness import commitment, draw_event, verify
from engine.protocol import Projection, query, read_options, standings
from engine.replay import apply, replay, replay_events
from engine.selfplay import play

from .tictactoe import GAME

ROOT = Path(__file__).resolve().parents[2]
SEED = "ab" * 32


@pytest.fixture(autouse=True)
def tictactoe():
    registry.register(GAME)
    yield GAME
    registry.unregister(GAME.key)


def record(events, **options) -> dict:
    opts = read_options(GAME, options, 2)
    return {"format": "tictactoe-game-record", "version": 1,
            "config": GAME.setup(opts, ["ann", "bob"], SEED), "events": events}


def mark(player: int, cell: int) -> dict:
    return {"type": "mark", "player": player, "cell": cell}


# ---------------------------------------------------------------- the registry

def test_the_registry_finds_a_game_by_key_and_by_record_format():
    assert registry.get("tictactoe") is GAME
    assert registry.for_format("tictactoe-game-record") is GAME
    assert [g.key for g in registry.games()][:1] == ["marram"]  # built in, listed first
    with pytest.raises(ValueError, match="registered already"):
        registry.register(GAME)


def test_an_unknown_game_or_format_is_a_record_error_naming_what_is_known():
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        registry.get("chess")
    with pytest.raises(RecordError, match="unknown format 'chess-game-record'.*marram-game-record"):
        registry.for_format("chess-game-record")


# ---------------------------------------------------------------- options

def test_options_get_their_defaults_and_are_checked_against_the_declared_choices():
    assert read_options(GAME, None, 2) == {"opening": "plain", "misere": False}
    assert read_options(GAME, {"misere": True}, 2) == {"opening": "plain", "misere": True}
    with pytest.raises(BadOptions, match="Opening must be one of 'plain', 'secret', 'dice', "
                                         "not 'blind'"):
        read_options(GAME, {"opening": "blind"}, 2)
    with pytest.raises(BadOptions, match="no option 'size'"):
        read_options(GAME, {"size": 4}, 2)
    with pytest.raises(BadOptions, match="Tic-tac-toe is for 2 players, not 3"):
        read_options(GAME, {}, 3)
    # 1 == True in Python, but not in a game's options
    with pytest.raises(BadOptions, match="not 1"):
        read_options(GAME, {"misere": 1}, 2)


def test_a_game_refuses_option_combinations_its_choices_cannot_say_alone():
    marram = registry.get("marram")
    assert read_options(marram, {"variant": "animals"}, 4) == {"variant": "animals",
                                                               "length": "long"}
    with pytest.raises(BadOptions, match="Animals is played as a long game only"):
        read_options(marram, {"variant": "animals", "length": "short"}, 2)


# ---------------------------------------------------------------- replay

def test_replay_keeps_the_valid_prefix_and_reports_the_first_failure():
    events = [mark(0, 4), mark(1, 0), mark(0, 8), mark(1, 4), mark(0, 2)]
    game, result = replay(record(events))
    assert game is GAME
    assert result.error is not None and result.error.code == "occupied"
    assert result.error_index == 3
    assert GAME.summary(result.state)["board"] == "O...X...X"  # the three moves before it
    assert result.failure() == {"error": "cell 4 is taken", "code": "occupied", "event": 3}


def test_replay_refuses_what_is_not_an_event_of_the_game():
    _, result = replay(record([mark(0, 4), {"type": "castle", "player": 1}]))
    assert result.error is not None and result.error.code == "bad_event"
    assert result.error_index == 1 and "unknown event type 'castle'" in result.error.message
    _, result = replay(record(["mark 5"]))
    assert result.error is not None and result.error.code == "bad_event"


def test_replay_leaves_the_start_untouched_and_apply_its_state():
    start = GAME.start(record([])["config"])
    replay_events(GAME, start, [mark(0, 4), mark(1, 0)])
    assert start.cells == [None] * 9
    after = apply(GAME, start, GAME.read_event(mark(0, 4)))
    assert start.cells[4] is None and after.cells[4] == 0
    with pytest.raises(IllegalAction) as refused:
        apply(GAME, after, GAME.read_event(mark(0, 0)))
    assert refused.value.code == "not_your_turn"
    assert after.cells.count(None) == 8  # a refused event changes nothing


def test_a_record_of_another_version_cannot_be_read():
    with pytest.raises(RecordError, match="unsupported record version 2"):
        replay({**record([]), "version": 2})


# ---------------------------------------------------------------- several seats at once

def test_several_seats_are_awaited_at_once_and_act_in_any_order():
    state = GAME.start(record([], opening="secret")["config"])
    wait = GAME.awaiting(state)
    assert wait.players == (0, 1) and wait.chance is None and not wait.finished
    assert {t.kind for t in wait.tasks} == {"choose"}
    assert GAME.legal_actions(state, 1)[0] == {"type": "choose", "player": 1, "cell": 0}
    state = GAME.fold(state, GAME.read_event({"type": "choose", "player": 1, "cell": 7}))
    assert GAME.awaiting(state).players == (0,)
    assert GAME.legal_actions(state, 1) == []  # its choice is in
    with pytest.raises(IllegalAction) as twice:
        GAME.fold(GAME.copy(state), GAME.read_event({"type": "choose", "player": 1,
                                                     "cell": 3}))
    assert twice.value.code == "not_your_turn"
    # the choice stays secret from the other seat and from spectators until both are in
    assert GAME.view(state, 1)["board"] == ".......o."
    assert GAME.view(state, 0)["board"] == "........."
    assert GAME.view(state, None)["board"] == "........."
    state = GAME.fold(state, GAME.read_event({"type": "choose", "player": 0, "cell": 7}))
    # equal choices: seat 0 has the cell, seat 1 the first free one
    assert GAME.view(state, None)["board"] == "O......X."
    assert GAME.awaiting(state).players == (0,)


def test_a_secret_choice_is_left_out_of_the_event_list_until_both_are_in():
    state = GAME.start(record([], opening="secret")["config"])
    bobs = GAME.read_event({"type": "choose", "player": 1, "cell": 7})
    state = GAME.fold(state, bobs)
    assert GAME.event_view(state, bobs, 1) == bobs  # the chooser reads it whole
    for reader in (0, None):
        seen = GAME.event_view(state, bobs, reader)
        assert seen == {"type": "choose", "player": 1}
        assert GAME.describe_event(seen, ["ann", "bob"]) == "bob chose a first cell in secret"
    state = GAME.fold(state, GAME.read_event({"type": "choose", "player": 0, "cell": 2}))
    assert GAME.event_view(state, bobs, 0) == bobs


def test_a_secret_choice_stands_whatever_the_other_seat_chose_meanwhile():
    state = GAME.start(record([], opening="secret")["config"])
    bobs = GAME.read_event({"type": "choose", "player": 1, "cell": 7})
    state = GAME.fold(state, bobs)
    assert GAME.unaffected(state, [bobs], 0)  # ann's choice is judged, not stale
    assert not GAME.unaffected(state, [bobs], 1)  # bob has nothing left to choose
    after = GAME.fold(GAME.copy(state), GAME.read_event({"type": "choose", "player": 0,
                                                         "cell": 2}))
    assert not GAME.unaffected(after, [bobs], 0)  # the marks have begun


def test_a_timeout_of_one_of_several_awaited_seats_settles_that_seat_only():
    state = GAME.start(record([], opening="secret")["config"])
    state = GAME.fold(state, GAME.timeout(state, 0)[0])
    assert GAME.awaiting(state).players == (1,)
    assert GAME.view(state, 0)["board"] == "x........"


# ---------------------------------------------------------------- chance

def test_chance_offers_every_outcome_as_its_event_with_exact_odds():
    state = GAME.start(record([], opening="dice")["config"])
    wait = GAME.awaiting(state)
    assert wait.chance == "the die chooses who moves first" and wait.players == ()
    assert GAME.legal_actions(state, 0) == []
    chance = GAME.chance(state)
    assert chance is not None
    assert [e for e, _ in chance.outcomes] == [{"type": "first", "seat": 0},
                                               {"type": "first", "seat": 1}]
    assert sum(odds for _, odds in chance.outcomes) == 1
    drawn = draw_event(SEED, 0, chance)
    assert drawn == draw_event(SEED, 0, chance) and drawn in [e for e, _ in chance.outcomes]
    seats = [draw_event(f"{i:064x}", 0, chance)["seat"] for i in range(400)]
    assert 150 < seats.count(0) < 250  # 1/2 within 5 standard deviations of 400 draws


def test_a_fair_game_verifies_and_a_forged_draw_is_caught():
    options = read_options(GAME, {"opening": "dice"}, 2)
    state, rec = play(GAME, options, ["ann", "bob"], 3)
    seed = rec["fairness"]["seed"]
    assert verify(GAME, rec, seed, commitment(seed)) == []
    forged = json.loads(json.dumps(rec))
    forged["events"][0]["seat"] = 1 - forged["events"][0]["seat"]
    problems = verify(GAME, forged, seed, commitment(seed))
    assert problems and problems[0].startswith("event 0: the seed gives")
    assert verify(GAME, rec, seed, commitment("cd" * 32)) == [
        "the seed does not match the published commitment"]


# ---------------------------------------------------------------- results

def test_standings_rank_points_high_distances_low_and_shared_results_together():
    points = Projection(finished=True, scores=(3, 9, 9, 1), winners=(1, 2), to_act=(),
                        out=(3,))
    assert [(s.seat, s.rank, s.won) for s in standings(points)] == [
        (1, 1, True), (2, 1, True), (0, 3, False), (3, 4, False)]
    distances = Projection(finished=True, scores=(12.5, None, 3.25), winners=(2,),
                           to_act=(), out=(1,), better="lower")
    assert [(s.seat, s.rank) for s in standings(distances)] == [(2, 1), (0, 2), (1, 3)]
    hunt = Projection(finished=True, scores=(None, None, None), winners=(0, 2), to_act=(),
                      out=(1,), cooperative=True, end="won")
    assert hunt.result == "won" and hunt.to_json()["result"] == "won"
    assert [(s.rank, s.won) for s in standings(hunt)] == [(1, True), (1, False), (1, True)]
    lost = Projection(finished=True, scores=(None, None), winners=(), to_act=(),
                      cooperative=True, end="lost")
    assert lost.result == "lost" and not any(s.won for s in standings(lost))
    running = Projection(finished=False, scores=(0, 0), winners=(), to_act=(0,),
                         cooperative=True)
    assert running.result is None


def test_the_projection_of_a_won_and_a_resigned_game():
    _, result = replay(record([mark(0, 0), mark(1, 3), mark(0, 1), mark(1, 4), mark(0, 2)]))
    p = GAME.projection(result.state)
    assert p.finished and p.winners == (0,) and p.to_act == () and p.end is None
    _, result = replay(record([mark(0, 0), {"type": "resign", "player": 0}]))
    p = GAME.projection(result.state)
    assert p.winners == (1,) and p.out == (0,) and p.end == "resign"


# ---------------------------------------------------------------- queries and words

def test_named_queries_answer_and_unknown_ones_are_refused():
    _, result = replay(record([mark(0, 4), mark(1, 0)]))
    # X at the centre, O in a corner: five lines stay open to X, four to O
    assert query(GAME, result.state, "lines", 0, {}) == [
        [3, 4, 5], [6, 7, 8], [1, 4, 7], [2, 5, 8], [2, 4, 6]]
    assert query(GAME, result.state, "lines", 0, {"seat": 1}) == [
        [0, 1, 2], [6, 7, 8], [0, 3, 6], [2, 5, 8]]
    with pytest.raises(IllegalAction) as bad:
        query(GAME, result.state, "lines", 0, {"seat": 5})
    assert bad.value.code == "bad_query"
    with pytest.raises(IllegalAction) as unknown:
        query(GAME, result.state, "hint", 0, {})
    assert unknown.value.code == "unknown_query" and "it answers lines" in unknown.value.message


def test_the_notation_reads_and_writes_every_action_and_tells_events():
    action = GAME.parse_action("mark 5", 1)
    assert action == mark(1, 4) and GAME.format_action(action) == "mark 5"
    with pytest.raises(NotationError, match="cell from 1 to 9"):
        GAME.parse_action("mark 10", 1)
    assert GAME.describe_event(mark(1, 4), ["ann", "bob"]) == "bob: mark 5"
    state = GAME.start(record([])["config"])
    mail = GAME.turn_mail(state, 0)
    assert mail is not None and mail.examples == ("mark 1", "mark 2", "mark 3")
    assert GAME.turn_mail(state, 1) is None


# ---------------------------------------------------------------- self-play

@pytest.mark.parametrize("opening", ["plain", "secret", "dice"])
def test_selfplay_finishes_games_whose_records_replay_to_the_same_end(opening: str):
    options = read_options(GAME, {"opening": opening}, 2)
    for seed in range(20):
        state, rec = play(GAME, options, ["ann", "bob"], seed)
        assert GAME.awaiting(state).finished
        game, again = replay(rec)
        assert again.ok and GAME.projection(again.state) == GAME.projection(state)


# ---------------------------------------------------------------- the command line

def test_the_command_line_lists_replays_plays_and_verifies_a_registered_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main(["games"]) == 0
    listed = capsys.readouterr().out
    assert "tictactoe" in listed and "tictactoe-game-record v1, 2 players" in listed
    assert "opening: plain*, secret, dice" in listed and "marram" in listed

    assert main(["selfplay", "--game", "tictactoe", "--option", "opening=dice",
                 "--option", "misere=true", "--games", "4", "--seed", "7", "--out",
                 str(tmp_path), "--quiet", "--policy", "first"]) == 0
    out = capsys.readouterr().out
    assert "4 Tic-tac-toe games (opening dice, misere True), 2 players" in out
    assert "cells marked:" in out and "games/s" in out
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 4
    for path in records:
        assert main(["replay", str(path)]) == 0
        assert json.loads(capsys.readouterr().out)["finished"] is True
        assert main(["verify", str(path)]) == 0
        assert capsys.readouterr().out.startswith("fair:")

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record([mark(0, 4), mark(0, 5)])))
    assert main(["replay", str(bad)]) == 1
    assert json.loads(capsys.readouterr().out) == {
        "error": "player 0 has nothing to do now", "code": "not_your_turn", "event": 1}


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "tictactoe", "--option", "opening=blind"], "Opening must be one of"),
    (["--game", "tictactoe", "--players", "3"], "is for 2 players, not 3"),
    (["--game", "tictactoe", "--policy", "greedy"], "bots play random, first"),
    (["--game", "tictactoe", "--option", "opening"], "NAME=VALUE"),
    (["--game", "chess"], "unknown game 'chess'"),
    (["--variant", "animals", "--length", "short"], "Animals is played as a long game"),
])
def test_selfplay_refuses_bad_options_in_one_line(args: list[str], message: str,
                                                  capsys: pytest.CaptureFixture[str]):
    assert main(["selfplay", "--quiet", "--games", "1", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_record_of_a_game_not_registered_is_the_spec_s_one_line_exit_2(tmp_path: Path):
    path = tmp_path / "chess.json"
    path.write_text(json.dumps({"format": "chess-game-record", "version": 1,
                                "config": {"players": ["a", "b"]}, "events": []}))
    for command in ("replay", "verify"):
        out = subprocess.run([sys.executable, "-m", "engine", command, str(path)],
                             capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.startswith("error: not a game record this engine reads: unknown "
                                     "format 'chess-game-record'")
        assert len(out.stderr.strip().splitlines()) == 1


def test_a_bot_picks_among_the_legal_actions():
    state = GAME.start(record([])["config"])
    rng = random.Random(0)
    picks = {GAME.bot_action(state, 0, rng)["cell"] for _ in range(200)}
    assert picks == set(range(9))
    assert GAME.bot_action(state, 0, rng, "first") == mark(0, 0)
