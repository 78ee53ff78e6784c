"""Management commands: verify_game, verify_fairness, rebuild_projections, seed_demo."""

import io

import pytest
from django.core.management import CommandError, call_command

from games import services
from games.models import Event, Game
from tests.service.conftest import make_user, play, start_game


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def game(db):
    ann, bob = make_user("ann"), make_user("bob")
    return play(start_game([ann, bob]), until=lambda s: s.events >= 8)


def test_verify_game_accepts_a_sound_game(game):
    assert "replay to the stored outcome" in run("verify_game", str(game.pk))


def test_verify_game_reports_an_event_the_engine_refuses(game):
    # an event nobody could have made, slipped in behind the services' back
    Event.objects.create(game=game, seq=game.seq, type="pass",
                         payload={"type": "pass", "player": 7})
    Game.objects.filter(pk=game.pk).update(seq=game.seq + 1)
    with pytest.raises(CommandError, match="1 problem"):
        run("verify_game", str(game.pk))


def test_verify_game_reports_an_outcome_that_differs_and_rebuild_fixes_it(game):
    wrong = {**game.projection, "scores": [99, 0]}
    Game.objects.filter(pk=game.pk).update(projection=wrong)
    with pytest.raises(CommandError):
        run("verify_game", str(game.pk))
    assert f"game {game.pk}: projection (scores)\n1 game(s) replayed, 1 repaired" in run(
        "rebuild_projections")
    assert Game.objects.get(pk=game.pk).projection == game.projection
    assert "0 repaired" in run("rebuild_projections", str(game.pk))
    run("verify_game", str(game.pk))


def test_a_seq_written_back_below_the_events_is_reported_and_repaired(game):
    """A game row whose seq was put back below its events (a blind rewrite of the
    row from an old read) is reported by verify_game and repaired by
    rebuild_projections, which says so; the next move then lands."""
    events = game.seq
    Game.objects.filter(pk=game.pk).update(seq=events - 3)  # behind the events' back
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_game", str(game.pk), stdout=out)
    assert f"the game says seq {events - 3} but has {events} events" in out.getvalue()
    assert f"game {game.pk}: seq {events - 3} -> {events}" in run("rebuild_projections")
    assert Game.objects.get(pk=game.pk).seq == events
    run("verify_game", str(game.pk))
    assert play(game, until=lambda s: s.events > events).seq > events


def test_verify_game_notices_another_rules_version(game):
    Game.objects.filter(pk=game.pk).update(rules_version="0")
    with pytest.raises(CommandError):
        run("verify_game", str(game.pk))


def test_verify_fairness_only_for_finished_games(game):
    with pytest.raises(CommandError, match="secret"):
        run("verify_fairness", str(game.pk))
    services.game_resign(game=game, user=game.seats.get(index=0).user)
    assert "fair:" in run("verify_fairness", str(game.pk))
    Game.objects.filter(pk=game.pk).update(seed="00" * 32)
    with pytest.raises(CommandError, match="NOT fair"):
        run("verify_fairness", str(game.pk))


def test_unknown_games(db):
    for command in ("verify_game", "verify_fairness"):
        with pytest.raises(CommandError, match="no game"):
            run(command, "12345")


def test_seed_demo_is_idempotent(db):
    run("seed_demo")
    run("seed_demo")
    game = Game.objects.get()
    assert game.status == Game.Status.RUNNING and game.seq >= 4
    assert sorted(game.seats.values_list("user__username", flat=True)) == ["ann", "bob"]
    assert game.seats.get(user__username="ann").user.check_password("marram-demo")
    run("verify_game", str(game.pk))


@pytest.mark.parametrize("tampered", [True, False])
def test_a_resignation_stored_apart_from_the_events_is_checked_and_rebuilt(game, tampered):
    # tampered: seat 1 marked resigned with no resign event; else seat 1 resigned (and
    # the game ended) but its row is made to say it did not
    if not tampered:
        services.game_resign(game=game, user=game.seats.get(index=1).user)
    seat = game.seats.get(index=1)
    assert seat.resigned is not tampered
    type(seat).objects.filter(pk=seat.pk).update(resigned=tampered)  # behind the events' back
    wrong = "stored as resigned, the replay says not" if tampered else \
        "stored as not resigned, the replay says resigned"
    with pytest.raises(CommandError, match="1 problem"):
        run("verify_game", str(game.pk))
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_game", str(game.pk), stdout=out)
    assert f"seat 1: {wrong}" in out.getvalue()
    assert "resigned seats now" in run("rebuild_projections", str(game.pk))
    assert game.seats.get(index=1).resigned is not tampered
    run("verify_game", str(game.pk))


def test_the_seats_a_game_awaits_follow_its_moves_and_are_checked_and_rebuilt(game):
    """Each seat's ``awaited`` flag (what counts a player's turns) is the
    projection's to_act while the game runs; verify_game reports a wrong one and
    rebuild_projections puts it right."""
    def flags() -> dict[int, bool]:
        return dict(game.seats.values_list("index", "awaited"))

    seen = set()
    for _ in range(6):
        game.refresh_from_db()
        to_act = game.projection["to_act"]
        assert to_act and flags() == {i: i in to_act for i in range(2)}
        seen.add(to_act[0])
        game = play(game, until=lambda s, seq=game.seq: s.events > seq)
    assert seen == {0, 1}  # the turn passed both ways
    game.refresh_from_db()
    waiting = game.projection["to_act"][0]
    game.seats.filter(index=waiting).update(awaited=False)  # behind the events' back
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_game", str(game.pk), stdout=out)
    assert f"seat {waiting}: stored as not awaited, the replay says awaited" in out.getvalue()
    assert f"awaited seats now [{waiting}]" in run("rebuild_projections", str(game.pk))
    assert flags() == {i: i == waiting for i in range(2)}
    run("verify_game", str(game.pk))
    # a game that ends awaits nobody
    services.game_resign(game=game, user=game.seats.get(index=waiting).user)
    assert flags() == {0: False, 1: False}
    run("verify_game", str(game.pk))
