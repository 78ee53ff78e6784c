"""Migration 0004 on a database the old code built: games stored with a variant
and a length, their events, and the projection in the old shape. After it every
game names its game ("marram") and keeps its options, its events are untouched,
and every game still verifies (``verify_game``: the replay gives the stored
projection, seats and status) and a finished one is still fair."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from engine import fairness
from engine.marram import GAME as MARRAM
from engine.marram import game as rules
from engine.marram.catalogue import standard
from engine.marram.record import config_to_json
from engine.marram.state import GameState
from games.management.commands.verify_fairness import Command as VerifyFairness
from games.management.commands.verify_game import game_problems
from games.models import Event, Game

BEFORE = [("games", "0003_event_no_truncate")]
AFTER = [("games", "0004_game_key_and_options")]


def old_projection(state: GameState) -> dict[str, Any]:
    """games.selectors.projection_of as the old code wrote it."""
    return {
        "scores": list(state.scores),
        "current": None if state.finished else state.current,
        "awaiting": rules.awaiting(state),
        "winners": list(state.winners),
        "finished": state.finished,
        "resigned": sorted(state.resigned),
        "tiles_on_board": len(state.board),
    }


def old_game(apps: Any, user: Any, variant: str, length: str, names: list[str], *,
             moves: int, resign: int | None = None) -> int:
    """A game stored as the old code stored it, played by the first legal action
    (chance drawn from the seed) for ``moves`` events, then, with ``resign``, left
    by that seat; its id."""
    OldGame, OldSeat, OldEvent = (apps.get_model("games", name)
                                  for name in ("Game", "Seat", "Event"))
    seed = fairness.new_seed()
    config = rules.make_config(variant, length, names,
                               deck=fairness.deck_from_seed(seed, standard().deck_ids()))
    state = rules.new_game(config)
    events: list[dict[str, Any]] = []

    def add(event: dict[str, Any]) -> None:
        rules.step(state, event)
        events.append(dict(event))

    while len(events) < moves and not state.finished:
        chance = MARRAM.chance(state)
        if chance is not None:
            add(dict(fairness.draw_event(seed, len(events), chance)))
            continue
        add(MARRAM.legal_actions(state, rules.awaiting(state)["player"])[0])
    if resign is not None and not state.finished:
        add({"type": "resign", "player": resign})
    game = OldGame.objects.create(
        variant=variant, length=length, seat_count=len(names),
        status="finished" if state.finished else "running", created_by_id=user.pk,
        rules_version=MARRAM.rules_version, seed=seed, commitment=fairness.commitment(seed),
        config=config_to_json(config), seq=len(events), projection=old_projection(state))
    for index, name in enumerate(names):
        OldSeat.objects.create(game=game, user_id=user.pk if index == 0 else None, name=name,
                               index=index, resigned=index in state.resigned)
    for seq, event in enumerate(events):
        OldEvent.objects.create(game=game, seq=seq, type=event["type"], payload=event,
                                actor_id=user.pk if event.get("player") == 0 else None)
    return game.pk


@pytest.mark.django_db(transaction=True)
def test_games_stored_by_the_old_code_migrate_and_still_verify(users):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    ann = users[0]
    running = old_game(apps, ann, "classic", "long", ["ann", "bob"], moves=9)
    animals = old_game(apps, ann, "animals", "long", ["ann", "bob", "cyd"], moves=80)
    finished = old_game(apps, ann, "pitchfork", "short", ["ann", "bob"], moves=5, resign=1)
    payloads = {pk: list(apps.get_model("games", "Event").objects.filter(game_id=pk)
                         .order_by("seq").values_list("payload", flat=True))
                for pk in (running, animals, finished)}

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    # and on to the latest state, as a deployment would (the clocks move on in 0005)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    for pk, options in ((running, {"variant": "classic", "length": "long"}),
                        (animals, {"variant": "animals", "length": "long"}),
                        (finished, {"variant": "pitchfork", "length": "short"})):
        game = Game.objects.get(pk=pk)
        assert (game.game, game.options) == ("marram", options)
        assert list(Event.objects.filter(game=game).order_by("seq")
                    .values_list("payload", flat=True)) == payloads[pk]
        assert game_problems(game) == [], (pk, game.projection)
    done = Game.objects.get(pk=finished)
    assert done.status == Game.Status.FINISHED and done.projection["end"] == "resign"
    assert VerifyFairness().problems(done) == []
    # the animals game went far enough for the fly: its projection came over too
    assert Game.objects.get(pk=animals).projection["awaiting"]["kind"] in (
        "move", "guess", "chance", "finished")
