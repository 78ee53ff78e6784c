"""Eight clients submit a move to the same game at the same moment, all at the
same seq: the write that expects that seq lets exactly one through; the rest are
told the game has moved on, and the event sequence has no gap. And a move whose
read is overtaken before its write writes nothing, and is answered as the game
now stands."""

import threading

import pytest
from django.db import connection

from engine import marram as engine
from games import store
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


def _overtaken(monkeypatch, overtake, times: int = 1) -> list[int]:
    """Have ``overtake()`` run between a move's read and its write (right after
    ``store.game_for_move``), at its first ``times`` reads; the seqs the reads
    found."""
    read = store.game_for_move
    found: list[int] = []

    def read_then_overtake(*args, **kwargs):
        got = read(*args, **kwargs)
        found.append(got[0].seq)
        if len(found) <= times:
            overtake()
        return got

    monkeypatch.setattr(store, "game_for_move", read_then_overtake)
    return found


@pytest.mark.django_db(transaction=True)
def test_a_move_overtaken_after_its_read_writes_nothing_and_is_stale(monkeypatch):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    state = game_state_get(game)
    mover = seat_user(game, engine.awaiting(state)["player"])
    first, second = engine.legal_actions(state)[:2]
    seq = game.seq
    client = client_for(mover)

    def overtake() -> None:  # the same player's other move, from another device
        answer = client.post(f"/api/games/{game.pk}/actions/",
                             {"seq": seq, "action": second}, format="json")
        assert answer.status_code == 201, answer.content

    reads = _overtaken(monkeypatch, overtake)
    answer = client.post(f"/api/games/{game.pk}/actions/", {"seq": seq, "action": first},
                         format="json")
    game.refresh_from_db()
    assert answer.status_code == 409, answer.content
    assert answer.json()["code"] == "stale_seq" and answer.json()["seq"] == game.seq
    assert reads == [seq, seq, game.seq]  # read, the other's read, read again
    stored = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "payload"))
    assert [s for s, _ in stored] == list(range(game.seq))
    assert stored[seq][1]["at"] == second["at"] and stored[seq][1]["tile"] == second["tile"]
    assert Event.objects.filter(game=game, actor=mover).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_overtaken_by_its_own_retry_is_answered_as_the_retry(monkeypatch):
    """The client sent the move twice with one idempotency key, and the second
    copy was written first (201): the first finds the key and gives the same
    answer, as to any repeated key (200)."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    state = game_state_get(game)
    mover = seat_user(game, engine.awaiting(state)["player"])
    action = engine.legal_actions(state)[0]
    move = {"seq": game.seq, "action": action, "idempotency_key": "once"}
    client = client_for(mover)
    answers = []
    _overtaken(monkeypatch, lambda: answers.append(
        client.post(f"/api/games/{game.pk}/actions/", move, format="json")))
    answers.append(client.post(f"/api/games/{game.pk}/actions/", move, format="json"))
    assert [a.status_code for a in answers] == [201, 200], [a.content for a in answers]
    retry, first = (a.json() for a in answers)
    assert first["seq"] == retry["seq"] and first["events"] == retry["events"]
    assert Event.objects.filter(game=game, idempotency_key="once").count() == 1

