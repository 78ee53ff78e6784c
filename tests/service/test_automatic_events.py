"""Events the server appends by itself: passes forced on a player who can do
nothing else, and chance events drawn from the game's committed seed."""

import pytest

from engine import marram as engine
from engine.marram import fairness
from games import services
from games.models import Event
from games.selectors import game_replay, game_state_get
from tests.service.conftest import custom_game, make_user, play, start_game, tile

GRASS = tile("GGGGGGGG")
SAND = tile("SSSSSSSS")


@pytest.mark.django_db
def test_a_player_who_can_only_pass_passes_automatically():
    # ann holds grass tiles that fit the grass starter; bob holds only sand tiles,
    # which fit nowhere, so once ann's turn ends bob must pass (discarding his hand
    # and drawing G6-G8), and the server appends that pass for him.
    ann, bob = make_user("ann"), make_user("bob")
    tiles = {"S0": GRASS, **{f"G{i}": GRASS for i in range(1, 12)},
             **{f"S{i}": SAND for i in range(1, 4)}}
    deck = ["G1", "G2", "G3", "S1", "S2", "S3", "G4", "G5", "G6", "G7", "G8"]
    game = custom_game([ann, bob], tiles, deck)
    place = {"type": "place", "tile": "G1", "face": "front", "at": [1, 0], "rotation": 0}
    first = services.action_submit(game=game, user=ann, action=place, expected_seq=0)
    assert [e.type for e in first.events] == ["place"]

    second = services.action_submit(
        game=game, user=ann, action={**place, "tile": "G2", "at": [2, 0]}, expected_seq=1
    )

    assert [(e.seq, e.type, e.actor) for e in second.events] == [
        (1, "place", ann), (2, "pass", None)]
    assert second.events[1].payload == {"type": "pass", "player": 1}
    assert second.events[1].cause_seq == 1
    game.refresh_from_db()
    state = game_state_get(game)
    assert game.seq == 3 and state.current == 1
    assert state.hands[1] == ["G6", "G7", "G8"]
    assert engine.awaiting(state) == {"kind": "move", "player": 1, "move": 1}


@pytest.mark.django_db
def test_forced_passes_run_on_to_the_end_of_the_game():
    # With nothing left to draw and bob unable to lay anything, bob's passes are
    # forced; once everyone has passed in a row with nothing to lay, the game ends.
    ann, bob = make_user("ann"), make_user("bob")
    tiles = {"S0": GRASS, "G1": GRASS, "G2": GRASS, "G3": GRASS, "S1": SAND, "S2": SAND,
             "S3": SAND}
    game = custom_game([ann, bob], tiles, ["G1", "G2", "G3", "S1", "S2", "S3"])
    place = {"type": "place", "tile": "G1", "face": "front", "at": [1, 0], "rotation": 0}
    services.action_submit(game=game, user=ann, action=place, expected_seq=0)
    services.action_submit(game=game, user=ann, action={**place, "tile": "G2", "at": [2, 0]},
                           expected_seq=1)
    # bob was forced to pass with sand in hand (discarded; nothing to draw), then ann
    # plays her last tile and everyone passes
    game.refresh_from_db()
    result = services.action_submit(game=game, user=ann,
                                    action={**place, "tile": "G3", "at": [3, 0]},
                                    expected_seq=game.seq)
    game.refresh_from_db()
    assert game.status == "finished" and game.finished_at is not None
    types = [e.type for e in result.events]
    assert types[0] == "place" and set(types[1:]) == {"pass"}
    assert all(e.actor is None for e in result.events[1:])
    assert game_replay(game).state.finished


@pytest.mark.django_db
def test_the_fly_appears_at_twenty_tiles_where_the_seed_says(users):
    ann, bob = users[:2]
    game = start_game([ann, bob], variant="animals")
    game = play(game, until=lambda s: len(s.board) >= 20 and not s.pending)

    appears = Event.objects.get(game=game, type="creature_appears")
    assert appears.actor is None and appears.payload["creature"] == "fly"
    # the board held 20 tiles (the starter included) after the move before it
    before = engine.replays.replay_events(
        engine.config_from_json(game.config),
        list(Event.objects.filter(game=game, seq__lt=appears.seq)
             .order_by("seq").values_list("payload", flat=True)),
    ).state
    assert len(before.board) == 20
    odds = engine.chance_odds(before)
    drawn = fairness.draw(game.seed, appears.seq, odds)
    assert appears.payload == engine.chance_event(before, drawn)
    # then each player guesses, starting with the one who made the 20th-tile move
    mover = Event.objects.get(game=game, seq=appears.seq - 1).payload["player"]
    guesses = list(Event.objects.filter(game=game, type="guess").order_by("seq"))
    assert [g.payload["player"] for g in guesses] == [mover, 1 - mover]
    assert all(g.actor is not None for g in guesses)


@pytest.mark.django_db
def test_hops_follow_every_move_and_the_record_verifies(users, tmp_path):
    ann, bob = users[:2]
    game = start_game([ann, bob], variant="animals")
    game = play(game, until=lambda s: s.creatures["fly"].hops >= 3
                or s.creatures["fly"].status in ("eaten", "escaped"))
    hops = Event.objects.filter(game=game, type="hop")
    assert hops.exists() and all(h.actor is None for h in hops)
    # end it and check every draw against the revealed seed
    services.game_resign(game=game, user=ann)
    game.refresh_from_db()
    from games.selectors import game_record_get

    record = game_record_get(game)
    assert fairness.verify(record, record["fairness"]["seed"],
                           record["fairness"]["commitment"], engine.standard().deck_ids()) == []


@pytest.mark.django_db
def test_chance_resolve_draws_only_what_is_due(users, settings):
    settings.MARRAM_DRAW_INLINE = False  # the fly waits for chance_resolve (the task's work)
    game = start_game(users[:2], variant="animals")
    assert services.chance_resolve(game) == []  # nothing due at the start
    game = play(game, until=lambda s: engine.awaiting(s)["kind"] == "chance")
    seq = game.seq
    drawn = services.chance_resolve(game)
    assert [(e.seq, e.type, e.actor, e.cause_seq) for e in drawn] == [
        (seq, "creature_appears", None, None)]
    game.refresh_from_db()
    assert game.seq == seq + 1 and engine.awaiting(game_state_get(game))["kind"] == "guess"
    assert services.chance_resolve(game) == []  # drawn once: a second run appends nothing
