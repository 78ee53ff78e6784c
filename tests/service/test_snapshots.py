"""Snapshots in the database (games.snapshots): written after the commit of the
move that crosses every MARRAM_SNAPSHOT_EVERY events, read when no cache holds
the game, passed over for a replay when they cannot be used, rebuilt and checked
by the management commands. The state served is always the replay's."""

import io
import re

import pytest
from django.contrib import admin
from django.core.management import CommandError, call_command
from django.utils import timezone

from engine import marram as engine
from games import services
from games.models import GameSnapshot
from games.selectors import game_replay, game_state_get
from games.snapshots import game_snapshots_rebuild
from live.state_cache import states
from notifications.board_mail import picture_for
from notifications.emails import render_notification
from notifications.models import Notification
from tests.service.conftest import make_user, play, seat_user, start_game
from tests.service.test_state_cache import same_state

EVERY = 5
UNSUBSCRIBE_LINK = re.compile(r'unsubscribe/[^/\s"]+/')


@pytest.fixture(autouse=True)
def snapshot_every(settings):
    settings.MARRAM_SNAPSHOT_EVERY = EVERY


def played(events: int, variant: str = "animals", names: tuple[str, str] = ("ann", "bob")):
    game = start_game([make_user(n) for n in names], variant=variant)
    return play(game, until=lambda s: s.events >= events)


def command(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.django_db
def test_the_move_that_crosses_the_interval_stores_the_state_after_its_commit(
        django_capture_on_commit_callbacks):
    game = played(EVERY - 1, variant="classic")
    state = game_state_get(game)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.action_submit(game=game, user=seat_user(game, state.current),
                               action=engine.legal_actions(state)[0], expected_seq=game.seq)
    assert not GameSnapshot.objects.exists()  # nothing inside the move's transaction
    for callback in callbacks:
        callback()
    game.refresh_from_db()
    snapshot = GameSnapshot.objects.get()
    assert (snapshot.game_id, snapshot.seq) == (game.pk, game.seq)
    assert (snapshot.rules_version, snapshot.version) == ("1", 1)
    assert snapshot.data["state"]["hands"]  # every hand: never shown to anyone
    assert GameSnapshot not in admin.site._registry


@pytest.mark.django_db
def test_moves_between_the_multiples_store_nothing(django_capture_on_commit_callbacks):
    game = played(EVERY + 1, variant="classic")
    state = game_state_get(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.action_submit(game=game, user=seat_user(game, state.current),
                               action=engine.legal_actions(state)[0], expected_seq=game.seq)
    assert not GameSnapshot.objects.exists()


@pytest.mark.django_db
def test_a_game_no_cache_holds_starts_from_its_newest_snapshot():
    game = played(3 * EVERY + 2)
    assert game_snapshots_rebuild(game) == game.seq // EVERY
    states.clear()
    served = game_state_get(game)
    assert (states.snapshots, states.misses, states.snapshots_refused) == (1, 0, 0)
    assert same_state(served, game_replay(game).state)


@pytest.mark.django_db
@pytest.mark.parametrize("spoil", ["rules", "version", "broken"])
def test_a_snapshot_that_cannot_be_used_is_passed_over_for_a_replay(spoil, caplog):
    game = played(2 * EVERY)
    game_snapshots_rebuild(game)
    newest = GameSnapshot.objects.filter(game=game).order_by("-seq").first()
    data = newest.data
    if spoil == "rules":
        data["rules_version"] = "0"
    elif spoil == "version":
        data["version"] = 0
    else:
        del data["state"]["features"]
    GameSnapshot.objects.filter(pk=newest.pk).update(data=data)
    states.clear()
    served = game_state_get(game)
    assert (states.snapshots, states.misses, states.snapshots_refused) == (0, 1, 1)
    assert "passed over for a replay" in caplog.text
    assert same_state(served, game_replay(game).state)


@pytest.mark.django_db
def test_rebuild_snapshots_writes_them_from_the_events_and_verify_game_checks_them():
    game, other = played(2 * EVERY + 1), played(EVERY, names=("cyd", "dan"))
    assert "2 game(s) replayed, 3 snapshot(s)" in command("rebuild_snapshots")
    assert sorted(GameSnapshot.objects.filter(game=game).values_list("seq", flat=True)) == \
        [EVERY, 2 * EVERY]
    assert "1 game(s) replayed, 1 snapshot(s)" in command("rebuild_snapshots", "--game",
                                                          str(other.pk))
    assert GameSnapshot.objects.count() == 3  # replaced, not added
    command("verify_game", str(game.pk))
    snapshot = GameSnapshot.objects.get(game=game, seq=EVERY)
    data = snapshot.data
    data["state"]["scores"] = [99, 0]
    GameSnapshot.objects.filter(pk=snapshot.pk).update(data=data)
    with pytest.raises(CommandError):
        out = io.StringIO()
        call_command("verify_game", str(game.pk), stdout=out)
    assert f"snapshot at seq {EVERY} differs from the replay in: scores" in out.getvalue()
    command("rebuild_snapshots", "--game", str(game.pk))
    command("verify_game", str(game.pk))


@pytest.mark.django_db
def test_no_snapshots_with_an_interval_of_zero(settings):
    settings.MARRAM_SNAPSHOT_EVERY = 0
    game = played(EVERY)
    assert game_snapshots_rebuild(game) == 0
    states.clear()
    game_state_get(game)
    assert (states.snapshots, states.misses) == (0, 1)


@pytest.mark.django_db
def test_a_turn_mail_of_a_game_no_cache_holds_is_written_from_its_newest_snapshot(settings):
    game = played(3 * EVERY + 2)
    game_snapshots_rebuild(game)
    seat = engine.awaiting(game_state_get(game))["player"]
    now = timezone.now()

    def written() -> tuple[str, str, str, bytes]:
        states.clear()
        n = Notification(user=seat_user(game, seat), game=game, seat=seat, seq=game.seq,
                         kind=Notification.Kind.YOUR_TURN, dedup_key="t", message_id="<t@t>")
        render_notification(n, now)
        picture = picture_for(n)
        assert picture is not None
        # The unsubscribe link is signed with the second it was made, which is not the game's.
        text, html = (UNSUBSCRIBE_LINK.sub("unsubscribe/T/", b) for b in (n.body_text, n.body_html))
        return n.subject, text, html, picture[1]

    from_snapshot = written()
    assert (states.snapshots, states.misses) == (1, 0)  # read once, for the words and picture
    settings.MARRAM_SNAPSHOT_EVERY = 0
    from_replay = written()
    assert states.misses == 1
    assert from_snapshot == from_replay
