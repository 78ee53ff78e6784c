"""A player may leave while the game waits for its chance draw (the actions
endpoint and /resign/): the draw is then made by the task at the seq it is
appended at, the game goes on or ends, and the finished game verifies fair
everywhere it is checked: ``python -m engine verify``, the ``verify_fairness``
command and the import of its record (docs/design.md, "Fair chance")."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from engine import fairness
from engine import marram as marram_engine
from games import services
from games.models import Event, Game
from games.selectors import game_state_get, rules_of
from tests.service.conftest import body, client_for, make_user, seat_user, start_game_of

ROOT = Path(__file__).resolve().parents[2]
SEED = "5e" * 32


@pytest.fixture(autouse=True)
def draw_in_a_task(settings):
    # as in production: a move leaves the draw to the task (resolve_chance),
    # which these tests run by hand (services.chance_resolve), so that the game
    # is seen waiting for it
    settings.MARRAM_DRAW_INLINE = False


def waiting(game: Game) -> tuple[Any, Any]:
    game.refresh_from_db()
    state = game_state_get(game)
    return state, rules_of(game).awaiting(state)


def play_on(game: Game, until: Callable[[Any, Any], bool] = lambda s, w: False,
            limit: int = 2000) -> None:
    """Each awaited seat plays its first legal action, each draw made as the task
    makes it, until ``until(state, awaiting)`` or the end of the game."""
    rules = rules_of(game)
    for _ in range(limit):
        state, wait = waiting(game)
        if wait.finished or until(state, wait):
            return
        if wait.chance is not None:
            assert services.chance_resolve(game)
            continue
        seat = wait.players[0]
        services.action_submit(game=game, user=seat_user(game, seat),
                               action=rules.legal_actions(state, seat)[0],
                               expected_seq=game.seq)
    raise AssertionError(f"still playing after {limit} actions")


def leave_by_resign(game: Game, seat: int) -> None:
    response = client_for(seat_user(game, seat)).post(f"/api/games/{game.pk}/resign/")
    assert response.status_code == 200, response.content


def leave_by_action(game: Game, seat: int) -> None:
    game.refresh_from_db()
    response = client_for(seat_user(game, seat)).post(
        f"/api/games/{game.pk}/actions/",
        {"seq": game.seq, "action": {"type": "resign"}}, format="json")
    assert response.status_code == 201, response.content


def left_while_a_draw_was_due(game: Game, seat: int, leave: Callable[[Game, int], None]
                              ) -> int:
    """``seat`` leaves while the game waits for a draw; then the task draws it.
    Returns the seq of the resignation, checking the draw that follows it (if
    the game goes on) is the seed's for its own seq."""
    _, wait = waiting(game)
    assert wait.chance is not None
    seq = game.seq
    leave(game, seat)
    resigned = Event.objects.get(game=game, seq=seq)
    assert resigned.payload == {"type": "resign", "player": seat}
    state, wait = waiting(game)
    if wait.chance is not None:  # the game waits for the same draw, one seq later
        chance = rules_of(game).chance(state)
        assert services.chance_resolve(game)
        drawn = Event.objects.get(game=game, seq=seq + 1)
        assert drawn.payload == fairness.draw_event(game.seed, seq + 1, chance)
    return seq


def assert_verified_fair(game: Game, tmp_path: Path) -> None:
    """The finished game is fair by the command line, the management command and
    the import of its record."""
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    record = body(client_for(seat_user(game, 0)).get(f"/api/games/{game.pk}/record/"))
    assert record["fairness"]["seed"] == game.seed

    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([sys.executable, "-m", "engine", "verify", str(path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("fair"), out.stdout

    said = io.StringIO()
    call_command("verify_fairness", str(game.pk), stdout=said, stderr=io.StringIO())
    assert "fair:" in said.getvalue() and "NOT fair" not in said.getvalue()

    staff = client_for(make_user(f"staff{game.pk}", staff=True))
    imported = staff.post("/api/games/import/", record, format="json")
    assert imported.status_code == 201, imported.content
    copy = Game.objects.get(pk=body(imported)["id"])
    assert copy.status == Game.Status.FINISHED and copy.seq == len(record["events"])


# ---------------------------------------------------------------- Make-a-snake

@pytest.mark.django_db
def test_make_a_snake_players_leave_while_the_roll_is_due_and_the_game_verifies_fair(
        users, tmp_path):
    game = start_game_of("make_a_snake", users, seed=SEED)
    # the first roll, seat 0's, is due: seat 3 leaves by /resign/; seat 0 rolls
    left = left_while_a_draw_was_due(game, 3, leave_by_resign)
    state, wait = waiting(game)
    assert left == 0 and wait.players == (0,) and state.current == 0
    # some turns later seat 1's own roll is due: it leaves by the actions
    # endpoint, and the roll passes to seat 2
    play_on(game, lambda s, w: w.chance is not None and s.current == 1 and game.seq > 12)
    left_while_a_draw_was_due(game, 1, leave_by_action)
    state, _ = waiting(game)
    assert state.current == 2 and state.resigned == {1, 3}
    play_on(game)
    game.refresh_from_db()
    assert game.projection["end"] != "resign" and game.projection["finished"]
    assert_verified_fair(game, tmp_path)


@pytest.mark.django_db
def test_make_a_snake_the_last_seat_left_wins_at_once_and_the_game_verifies_fair(
        users, tmp_path):
    game = start_game_of("make_a_snake", users[:2], seed=SEED)
    play_on(game, lambda s, w: w.chance is not None and s.current == 1)
    seq = left_while_a_draw_was_due(game, 1, leave_by_action)
    game.refresh_from_db()
    # two seats: the other is left alone in the turn order, and wins at once
    assert game.seq == seq + 1 and game.status == Game.Status.FINISHED
    assert game.projection["winners"] == [0] and game.projection["end"] == "resign"
    assert_verified_fair(game, tmp_path)


# ---------------------------------------------------------------- Marram

def marram_due(kind: str, creature: str) -> Callable[[Any, Any], bool]:
    def due(state: Any, wait: Any) -> bool:
        found = marram_engine.awaiting(state)
        return found["kind"] == "chance" and (found["event"], found["creature"]) == (
            kind, creature)
    return due


@pytest.mark.django_db
def test_marram_players_leave_while_the_fly_and_the_frog_are_due_and_the_game_verifies_fair(
        users, tmp_path):
    game = start_game_of("marram", users, seed=SEED,
                         options={"variant": "animals", "length": "long"})
    play_on(game, marram_due("appear", "fly"))
    state, _ = waiting(game)
    left_while_a_draw_was_due(game, (state.current + 1) % 4, leave_by_resign)
    play_on(game, marram_due("appear", "frog"))
    state, _ = waiting(game)
    left_while_a_draw_was_due(game, state.current, leave_by_action)
    play_on(game, marram_due("hop", "frog"))
    state, wait = waiting(game)
    if not wait.finished:
        left_while_a_draw_was_due(game, state.current, leave_by_resign)  # the last one left wins
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert Event.objects.filter(game=game, type="creature_appears").count() == 2
    assert_verified_fair(game, tmp_path)
