"""Choices the rules take in any order all land: in Animals on Board every player
keeps a tile at the same time, in secret. A keep made at the seq its player saw
is judged even when the other players' keeps were stored meanwhile (the rules
say they leave it unaffected: engine.protocol's ``unaffected``), through the
API and by mail; a turn that the rules take one at a time stays stale."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from engine.animals_on_board import GAME
from games import store
from games.models import Event, Game
from games.selectors import rules_of
from games.services import moves
from notifications import services as notes
from notifications.inbound import inbound_mail_handle
from notifications.models import Notification
from tests.service.aob_kit import start_animals, state_of, submit
from tests.service.conftest import client_for, make_user, seat_user, start_game_of
from tests.service.mail_kit import reply_bytes


def keep_of(game: Game, seat: int, which: int = 1) -> dict:
    return {"type": "keep", "tile": state_of(game).drawn[seat][which]}


@pytest.mark.django_db(transaction=True)
def test_three_keeps_sent_at_once_are_all_stored():
    players = [make_user(name) for name in ("ann", "bob", "cyd")]
    game = start_animals(players)
    seq = game.seq
    keeps = {seat: keep_of(game, seat) for seat in range(3)}
    barrier = threading.Barrier(3)
    answers: dict[int, tuple[int, dict]] = {}
    errors: list[BaseException] = []

    def send(seat: int) -> None:
        try:
            client = client_for(players[seat])
            barrier.wait(timeout=30)
            response = client.post(f"/api/games/{game.pk}/actions/",
                                   {"seq": seq, "action": keeps[seat]}, format="json")
            answers[seat] = (response.status_code, response.json())
        except BaseException as e:  # reported below
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(seat,)) for seat in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert not errors, errors
    assert {seat: status for seat, (status, _) in answers.items()} == {0: 201, 1: 201, 2: 201}
    stored = {e.payload["player"]: e.payload["tile"]
              for e in Event.objects.filter(game=game, type="keep")}
    assert stored == {seat: keeps[seat]["tile"] for seat in range(3)}
    state = state_of(game)
    assert not state.setup and state.kept == [keeps[s]["tile"] for s in range(3)]
    # the last keep's answer shows the first round, whoever's it was
    assert max(data["seq"] for _, data in answers.values()) == game.seq


@pytest.mark.django_db
def test_a_keep_at_a_seq_behind_other_players_keeps_is_stored():
    players = [make_user(name) for name in ("ann", "bob", "cyd")]
    game = start_animals(players)
    seq = game.seq
    submit(game, {**keep_of(game, 0), "player": 0})
    submit(game, {**keep_of(game, 1, 0), "player": 1})
    kept = keep_of(game, 2, 2)
    answer = client_for(players[2]).post(f"/api/games/{game.pk}/actions/",
                                         {"seq": seq, "action": kept}, format="json")
    assert answer.status_code == 201, answer.json()
    assert state_of(game).kept[2] == kept["tile"]


@pytest.fixture
def state_reads(monkeypatch) -> list[int]:
    """The seqs of the games whose state a submission asks for, in order."""
    reads: list[int] = []
    state_get = moves.game_state_get

    def counted(read: Game) -> object:
        reads.append(read.seq)
        return state_get(read)

    monkeypatch.setattr(moves, "game_state_get", counted)
    return reads


@pytest.mark.django_db
def test_a_keep_behind_the_game_is_judged_on_one_read_of_its_state(state_reads):
    players = [make_user(name) for name in ("ann", "bob", "cyd")]
    game = start_animals(players)
    seq = game.seq
    submit(game, {**keep_of(game, 0), "player": 0})
    kept = keep_of(game, 2, 1)
    state_reads.clear()
    answer = client_for(players[2]).post(f"/api/games/{game.pk}/actions/",
                                         {"seq": seq, "action": kept}, format="json")
    assert answer.status_code == 201, answer.json()
    # awaited still, the events since unaffecting it, and the move itself: one state
    assert state_reads == [seq + 1]


@pytest.mark.django_db
def test_a_move_more_than_a_round_behind_is_stale_without_its_state(state_reads):
    players = [make_user(name) for name in ("ann", "bob")]
    game = start_animals(players)
    seq = game.seq
    for seat in range(2):
        submit(game, {**keep_of(game, seat), "player": seat})
    game.refresh_from_db()
    mover = GAME.awaiting(state_of(game)).players[0]
    submit(game, dict(GAME.legal_actions(state_of(game), mover)[0]))
    game.refresh_from_db()
    assert game.seq - seq > game.seat_count
    state_reads.clear()
    late = client_for(seat_user(game, mover)).post(f"/api/games/{game.pk}/actions/",
                                                   {"seq": seq, "action": {"type": "keep"}},
                                                   format="json")
    assert late.status_code == 409 and late.json()["code"] == "stale_seq"
    assert late.json()["seq"] == game.seq
    assert state_reads == []


@pytest.mark.django_db
def test_a_keep_is_still_refused_once_its_seat_has_kept():
    players = [make_user(name) for name in ("ann", "bob")]
    game = start_animals(players)
    seq = game.seq
    submit(game, {**keep_of(game, 0), "player": 0})
    again = client_for(players[0]).post(f"/api/games/{game.pk}/actions/",
                                        {"seq": seq, "action": keep_of(game, 0, 2)},
                                        format="json")
    assert again.status_code == 409 and again.json()["code"] == "stale_seq"
    assert Event.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_a_turn_in_a_round_made_behind_the_game_is_stale():
    players = [make_user(name) for name in ("ann", "bob")]
    game = start_animals(players)
    for seat in range(2):
        submit(game, {**keep_of(game, seat), "player": seat})
    game.refresh_from_db()
    seq = game.seq
    mover = GAME.awaiting(state_of(game)).players[0]
    submit(game, {**dict(GAME.legal_actions(state_of(game), mover)[0])})
    game.refresh_from_db()
    nxt = GAME.awaiting(state_of(game)).players[0]
    action = dict(GAME.legal_actions(state_of(game), nxt)[0])
    late = client_for(seat_user(game, nxt)).post(f"/api/games/{game.pk}/actions/",
                                                 {"seq": seq, "action": action},
                                                 format="json")
    assert late.status_code == 409 and late.json() == {
        **late.json(), "code": "stale_seq", "seq": game.seq}


@pytest.mark.django_db
def test_a_keep_by_mail_after_the_other_players_kept_is_played():
    players = [make_user(name) for name in ("ann", "bob", "cyd")]
    game = start_animals(players)
    for pk in Notification.objects.filter(status="pending").values_list("pk", flat=True):
        notes.notification_deliver(pk)
    [mail] = Notification.objects.filter(game=game, seat=2, kind="your_turn")
    submit(game, {**keep_of(game, 0), "player": 0})
    submit(game, {**keep_of(game, 1), "player": 1})
    tile = state_of(game).drawn[2][2]
    raw = reply_bytes(sender=f"Cyd <{players[2].email}>", to=mail.reply_to,
                      body=f"keep {tile}\n\n> the mail's text\n", message_id="<keep-2@x>")
    result = inbound_mail_handle(raw)
    assert result.outcome == "played", result
    state = state_of(game)
    assert state.kept[2] == tile and not state.setup


@pytest.mark.django_db(transaction=True)
def test_a_keep_overtaken_by_each_other_seats_keep_is_still_stored(monkeypatch):
    """Four players keep at once and the last one's keep is overtaken three times,
    each time between its read of the game and its write, by one of the others'
    keeps: it is judged again each time, and lands (201), never a 500."""
    players = [make_user(name) for name in ("ann", "bob", "cyd", "dee")]
    game = start_animals(players)
    seq = game.seq
    keeps = {seat: keep_of(game, seat) for seat in range(4)}
    read = store.game_for_move
    reads: list[int] = []

    def read_then_overtake(game_id, user_id, events=None):
        got = read(game_id, user_id, events)
        if user_id != players[3].pk:  # an overtaking keep's own read
            return got
        reads.append(got[0].seq)
        if len(reads) <= 3:  # another seat's keep lands meanwhile
            seat = len(reads) - 1
            answer = client_for(players[seat]).post(
                f"/api/games/{game.pk}/actions/", {"seq": seq, "action": keeps[seat]},
                format="json")
            assert answer.status_code == 201, answer.content
        return got

    monkeypatch.setattr(store, "game_for_move", read_then_overtake)
    answer = client_for(players[3]).post(f"/api/games/{game.pk}/actions/",
                                         {"seq": seq, "action": keeps[3]}, format="json")
    assert answer.status_code == 201, answer.content
    assert reads == [seq, seq + 1, seq + 2, seq + 3]  # read again after each overtaking
    assert state_of(game).kept == [keeps[s]["tile"] for s in range(4)]


@pytest.mark.django_db
def test_a_move_sent_while_a_roll_is_due_waits_for_it(settings):
    """Make-a-snake's roll is drawn by a task after the commit: a take sent before
    it is a 409 awaiting_chance, as in every game with chance, not a 400."""
    settings.MARRAM_DRAW_INLINE = False
    players = [make_user(name) for name in ("ann", "bob")]
    game = start_game_of("make_a_snake", players, seed="5a" * 32)
    assert rules_of(game).awaiting(state_of(game)).chance is not None
    answer = client_for(players[0]).post(
        f"/api/games/{game.pk}/actions/",
        {"seq": game.seq, "action": {"type": "take", "colour": "blue"}}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "awaiting_chance"
    assert Event.objects.filter(game=game).count() == game.seq
