"""Migration games.0007 adds each seat's ``awaited`` flag and sets it from the
projections the old code wrote: the seats running games wait for, and no seat of
a finished game."""

from __future__ import annotations

import pytest

from games.models import Seat
from games.pages.reads import your_turn_count
from tests.service.test_migration_clocks import migrate

BEFORE = [("games", "0006_game_snapshot")]


@pytest.mark.django_db(transaction=True)
def test_the_seats_running_games_wait_for_are_marked_from_their_projections(users):
    ann, bob, cid = users[0], users[1], users[2]
    apps = migrate(BEFORE)
    OldGame, OldSeat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")

    def game(status: str, to_act: list[int], players: list) -> int:
        made = OldGame.objects.create(
            game="marram", options={"variant": "classic"}, seat_count=len(players),
            status=status, created_by_id=players[0].pk, rules_version="1",
            projection={"to_act": to_act, "waiting_for": "".join(f"|{s}|" for s in to_act)})
        for index, user in enumerate(players):
            OldSeat.objects.create(game_id=made.pk, user_id=user.pk, name=user.username,
                                   index=index)
        return made.pk

    waits_for_bob = game("running", [1], [ann, bob])
    waits_for_two = game("running", [0, 2], [cid, bob, ann])
    ended = game("finished", [0], [ann, bob])

    migrate()
    awaited = set(Seat.objects.filter(awaited=True).values_list("game_id", "index"))
    assert awaited == {(waits_for_bob, 1), (waits_for_two, 0), (waits_for_two, 2)}
    assert not Seat.objects.filter(game_id=ended, awaited=True).exists()
    assert [your_turn_count(u) for u in (ann, bob, cid)] == [1, 1, 1]
