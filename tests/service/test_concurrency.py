"""Eight clients submit a move to the same game at the same moment, all at the
same seq: the game row's lock lets exactly one through; the rest are told the
game has moved on, and the event sequence has no gap."""

import threading

import pytest
from django.db import connection

from engine import marram as engine
from games.models import Event, Game
from games.selectors import game_state_get
from tests.service.conftest import client_for, make_user, seat_user, start_game

CLIENTS = 8


@pytest.mark.django_db(transaction=True)
def test_one_of_eight_simultaneous_moves_is_stored():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    state = game_state_get(game)
    mover = seat_user(game, engine.awaiting(state)["player"])
    action = {**engine.legal_actions(state)[0], "claim": None}
    seq = game.seq
    barrier = threading.Barrier(CLIENTS)
    answers: list[tuple[int, dict]] = []
    errors: list[BaseException] = []

    def submit(n: int) -> None:
        try:
            client = client_for(mover)
            barrier.wait(timeout=30)
            response = client.post(
                f"/api/games/{game.pk}/actions/",
                {"seq": seq, "idempotency_key": f"client-{n}", "action": action},
                format="json",
            )
            answers.append((response.status_code, response.json()))
        except BaseException as e:  # reported below: a thread cannot fail the test itself
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(n,)) for n in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert not errors, errors
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201] + [409] * (CLIENTS - 1), answers
    winner = next(data for status, data in answers if status == 201)
    for status, data in answers:
        if status == 409:
            assert data["code"] == "stale_seq" and data["seq"] == winner["seq"]
    game.refresh_from_db()
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(game.seq)) and game.seq == winner["seq"]
    assert Event.objects.filter(game=game, actor=mover).count() == 1
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
