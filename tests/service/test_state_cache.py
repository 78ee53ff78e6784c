"""The state served is always the state a replay from zero gives, whether it
came from the cache, from a catch-up on newer events, or from a full replay."""

import pytest

from engine import marram as engine
from games import services
from games.selectors import game_replay, game_state_get, projection_of, rules_of
from live.state_cache import StateCache, states
from tests.service.conftest import make_user, play, seat_user, start_game


def view(state) -> dict:
    """The player view, board by position (its order is the order tiles were touched)."""
    seen = engine.player_view(state)
    return {**seen, "board": sorted(seen["board"], key=lambda t: t["at"])}


def same_state(a, b) -> bool:
    return (
        view(a) == view(b)
        and a.drawn == b.drawn
        and a.hands == b.hands
        and engine.legal_actions(a.copy()) == engine.legal_actions(b.copy())
        and a.pending == b.pending
    )


@pytest.mark.django_db
def test_cached_and_caught_up_states_equal_a_replay_from_zero():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], variant="animals")
    checked = 0
    for _ in range(30):
        game = play(game, until=lambda s, n=game.seq: s.events > n)
        served = game_state_get(game)
        assert states.get(game.pk, game.seq) is served
        assert same_state(served, game_replay(game).state)
        assert game.projection == projection_of(rules_of(game), served)
        checked += 1
    assert checked == 30 and states.catch_ups > 0


@pytest.mark.django_db
def test_a_worker_that_missed_moves_catches_up():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    game_state_get(game)  # cached at seq 0 ...
    game = play(game, until=lambda s: s.events >= 5)
    states.clear()
    states.put(game.pk, 0, engine.new_game(engine.config_from_json(game.config)))
    # ... as another worker's cache would be after missing five events
    caught_up = game_state_get(game)
    assert states.catch_ups == 1
    assert same_state(caught_up, game_replay(game).state)


@pytest.mark.django_db(transaction=True)
def test_a_committed_submission_leaves_its_state_in_the_cache():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    state = game_state_get(game)
    mover = seat_user(game, state.current)
    result = services.action_submit(game=game, user=mover, action=engine.legal_actions(state)[0],
                                    expected_seq=game.seq)
    cached = states.get(game.pk, result.seq)
    assert cached is not None
    game.refresh_from_db()
    assert same_state(cached, game_replay(game).state)


@pytest.mark.django_db
def test_a_rolled_back_submission_leaves_no_state_behind():
    from django.db import transaction

    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    state = game_state_get(game)
    mover = seat_user(game, state.current)

    class Abort(Exception):
        pass

    with pytest.raises(Abort), transaction.atomic():
        services.action_submit(game=game, user=mover, action=engine.legal_actions(state)[0],
                               expected_seq=game.seq)
        raise Abort
    game.refresh_from_db()
    assert game.seq == 0 and states.get(game.pk, 1) is None


def test_the_cache_forgets_the_least_recently_used_game():
    cache = StateCache(size=2)
    cache.put(1, 0, "s1")
    cache.put(2, 0, "s2")
    assert cache.get(1, 0) == "s1"
    cache.put(3, 0, "s3")
    assert cache.get(2, 0) is None and cache.get(1, 0) == "s1" and cache.get(3, 0) == "s3"
    cache.put(1, 5, "s1b")
    cache.put(1, 4, "older")  # never replaces a newer state
    assert cache.get(1, 5) == "s1b" and cache.get(1, 4) is None
    assert cache.latest_before(1, 9) == (5, "s1b") and cache.latest_before(1, 3) is None


@pytest.mark.django_db
def test_listing_legal_actions_leaves_the_served_state_alone():
    # The view lists legal actions on the cached state that other requests (and
    # threads) read at the same time, so the query must not touch it: trying a
    # flip once lifted the tile off the board and put it back, reordering it.
    ann, bob = make_user("ann"), make_user("bob")
    game = play(start_game([ann, bob]),
                until=lambda s: s.events >= 4 and any(t.spade for t in s.board.values()))
    state = game_state_get(game)
    before = (list(state.board), engine.player_view(state), engine.legal_actions(state.copy()))
    for action in engine.legal_actions(state)[:5]:
        if action["type"] in ("place", "flip"):
            engine.claim_options(state, action)
    assert (list(state.board), engine.player_view(state), engine.legal_actions(state)) == before


@pytest.mark.django_db
@pytest.mark.parametrize("cached", [False, True])
def test_a_move_landing_after_the_row_was_read_is_not_replayed(cached):
    ann, bob = make_user("ann"), make_user("bob")
    game = play(start_game([ann, bob]), until=lambda s: s.events >= 3)
    read_at = game.seq
    # another request appends an event after this one read the game's row
    fresh = type(game).objects.get(pk=game.pk)
    state = game_state_get(fresh)
    services.action_submit(game=fresh, user=seat_user(fresh, state.current),
                           action=engine.legal_actions(state)[0], expected_seq=fresh.seq)
    states.clear()  # a worker that has not seen the game: a replay from zero ...
    if cached:  # ... or one that saw its start: a catch-up
        states.put(game.pk, 0, engine.new_game(engine.config_from_json(game.config)))
    served = game_state_get(game)
    assert served.events == read_at  # the game as its row says, not a 500
    assert (states.catch_ups, states.misses) == ((1, 0) if cached else (0, 1))
    game.refresh_from_db()
    assert game.seq == read_at + 1


def _events_asked(captured) -> list[str]:
    """The statements that read a game's events by themselves (the ORM's read),
    not with the game (games.store's read of the game)."""
    return [q["sql"] for q in captured if q["sql"].startswith('SELECT "games_event"')]


@pytest.mark.django_db
def test_the_events_a_catch_up_folds_come_with_the_game():
    """A process holding a game's state five events back reads the game and
    those five events in one statement, and folds them into the state a replay
    from zero gives; the events read so are the ORM's, payload for payload."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import Event
    from games.selectors import game_get

    ann, bob = make_user("ann"), make_user("bob")
    game = play(start_game([ann, bob], variant="animals"), until=lambda s: s.events >= 8)
    states.clear()
    held = 3
    states.put(game.pk, held, game_replay(game, stop=held).state)
    with CaptureQueriesContext(connection) as read:
        served = game_state_get(game_get(game.pk))
    assert len(read.captured_queries) == 1 and not _events_asked(read.captured_queries)
    assert states.catch_ups == 1
    assert same_state(served, game_replay(game).state)
    orm = list(Event.objects.filter(game=game, seq__gte=held).order_by("seq")
               .values_list("payload", flat=True))
    now = game_get(game.pk)  # the state is now held at the game's seq: no event to read
    assert now.events_held(game.seq, game.seq) == [] and now.events_held(held, game.seq) is None
    states.clear()
    states.put(game.pk, held, game_replay(game, stop=held).state)
    again = game_get(game.pk)
    assert again.events_held(held, game.seq) == orm and len(orm) == game.seq - held
    assert again.events_held(held - 1, game.seq) is None  # not read: asked of the database


@pytest.mark.django_db
def test_a_game_no_process_holds_is_replayed_from_the_events_read_with_it(settings):
    """A short game no cache holds: the game and all its events in one
    statement, and nothing more to rebuild its state."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.selectors import game_get

    settings.MARRAM_SNAPSHOT_EVERY = 50
    ann, bob = make_user("ann"), make_user("bob")
    game = play(start_game([ann, bob]), until=lambda s: s.events >= 6)
    states.clear()
    with CaptureQueriesContext(connection) as read:
        served = game_state_get(game_get(game.pk))
    assert len(read.captured_queries) == 1 and states.misses == 1
    assert same_state(served, game_replay(game).state)


@pytest.mark.django_db
def test_a_game_past_a_snapshot_reads_only_the_events_after_it_with_the_game(settings):
    """A game no cache holds, with a snapshot: the game with the events from
    the newest multiple of the interval, then the snapshot; the state is the
    snapshot's with those events folded, as a replay from zero gives it. When
    that snapshot is missing, the older one's events are asked for."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import snapshots
    from games.models import GameSnapshot
    from games.selectors import game_get

    settings.MARRAM_SNAPSHOT_EVERY = 4
    ann, bob = make_user("ann"), make_user("bob")
    game = play(start_game([ann, bob]), until=lambda s: s.events >= 11 and s.events % 4)
    rules = rules_of(game)
    for seq in range(4, game.seq, 4):
        snapshots.game_snapshot_save(game_id=game.pk, seq=seq, rules=rules,
                                     state=game_replay(game, stop=seq).state)
    newest = game.seq - game.seq % 4
    states.clear()
    with CaptureQueriesContext(connection) as read:
        read_game = game_get(game.pk)
        served = game_state_get(read_game)
    assert read_game.events_held(newest, game.seq) is not None
    assert len(read.captured_queries) == 2 and not _events_asked(read.captured_queries)
    assert states.snapshots == 1
    assert same_state(served, game_replay(game).state)

    GameSnapshot.objects.filter(game=game, seq=newest).delete()
    states.clear()
    with CaptureQueriesContext(connection) as read:
        served = game_state_get(game_get(game.pk))
    assert len(_events_asked(read.captured_queries)) == 1  # from the snapshot before
    assert same_state(served, game_replay(game).state)
