"""The outbox: which mails a game's events write, what they say, and when the
player's policy holds one back. Delivery here runs in-process into Django's
test outbox; test_celery_worker.py sends through Redis, a worker and SMTP."""

import re
import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine import marram as engine
from engine.marram.notation import describe_event
from games import services
from games.models import Event
from games.selectors import game_state_get
from notifications import outbox
from notifications import services as notes
from notifications.models import GameVisit, Notification, Policy
from notifications.selectors import mail_settings_get
from notifications.signing import reply_address, unsubscribe_token, unsubscribe_token_read
from tests.service.conftest import client_for, make_user, seat_user, start_game
from tests.service.mail_kit import (
    awaited,
    eager_tasks,
    freeze_time,
    play_turn,
    turn_mails,
)


@pytest.fixture
def now(monkeypatch):
    return freeze_time(monkeypatch)


def deliver_all() -> list[str]:
    pending = Notification.objects.filter(status="pending").order_by("pk")
    return [notes.notification_deliver(pk) for pk in pending.values_list("pk", flat=True)]


def mail_to(user, about: str = "") -> list:
    return [m for m in mail.outbox if m.to == [user.email] and about in m.subject]


@pytest.mark.django_db
def test_a_new_game_mails_the_first_player_their_turn_and_the_others_that_it_began(users, now):
    game = start_game(users[:3])
    first, second, third = (seat_user(game, s) for s in range(3))
    rows = Notification.objects.filter(game=game)
    assert sorted((n.kind, n.user.username) for n in rows) == sorted([
        ("your_turn", first.username), ("game_started", second.username),
        ("game_started", third.username)])
    assert deliver_all() == ["sent"] * 3

    [turn] = mail_to(first)
    row = Notification.objects.get(kind="your_turn")
    assert turn.subject == f"Marram game {game.pk}: your move"
    assert turn.extra_headers["Message-ID"] == row.message_id
    assert turn.message()["Message-ID"] == row.message_id
    assert turn.reply_to == [reply_address(game.pk, 0, game.seq)]
    assert f"http://127.0.0.1:8000/games/{game.pk}/" in turn.body
    assert "It is your turn: move 1 of 2." in turn.body
    # the token carries the second it was signed: read it back rather than sign again
    [token] = set(re.findall(r"/notifications/unsubscribe/([^/]+)/", turn.body))
    assert unsubscribe_token_read(token) == first.pk
    # the header's link is signed as the mail is sent, the body's as it was queued:
    # each its own second, both the player's
    [header_token] = re.findall(r"/notifications/unsubscribe/([^/]+)/",
                                turn.extra_headers["List-Unsubscribe"])
    assert unsubscribe_token_read(header_token) == first.pk
    html = turn.alternatives[0]
    assert html[1] == "text/html" and f"/games/{game.pk}/" in html[0]
    [began] = mail_to(second)
    assert f"{first.username} moves first" in began.body
    assert Notification.objects.filter(status="sent", sent_at=now.value).count() == 3


@pytest.mark.django_db
def test_your_turn_tells_what_happened_since_your_last_move(users, now):
    game = start_game(users[:2])
    ann, bob = seat_user(game, 0), seat_user(game, 1)
    play_turn(game)  # seat 0: two moves
    ann_moves = [e.payload for e in Event.objects.filter(game=game, actor=ann).order_by("seq")]
    assert len(ann_moves) == 2
    deliver_all()
    [to_bob] = mail_to(bob, "your move")
    # bob has not moved yet: everything so far is new to him, told in words
    told = " ".join(to_bob.body.split())  # the text's lines wrap at 78
    for payload in ann_moves:
        words = describe_event(payload, [ann.username, bob.username])
        assert words.startswith(f"{ann.username} lays tile {payload['tile']}")
        assert words in told
    game.refresh_from_db()
    state = game_state_get(game)
    assert f"  {ann.username}: {state.scores[0]}\n" in to_bob.body
    hand = ", ".join(state.hands[1])
    assert f"Your hand: {hand}" in to_bob.body
    assert "Some moves you could make" in to_bob.body

    mail.outbox.clear()
    play_turn(game)  # bob's turn
    deliver_all()
    [to_ann] = mail_to(ann, "your move")
    bob_moves = [e.payload for e in Event.objects.filter(game=game, actor=bob)]
    since = to_ann.body.split("Since your last move:\n")[1].split("\n\n")[0]
    # only what came after ann's own last move: bob's two moves
    assert " ".join(since.split()) == " ".join(
        describe_event(p, [ann.username, bob.username]) for p in bob_moves)


@pytest.mark.django_db
def test_the_first_move_of_a_turn_writes_nothing(users):
    game = start_game(users[:2])
    before = Notification.objects.count()
    ann = seat_user(game, 0)
    action = engine.legal_actions(game_state_get(game))[0]
    with CaptureQueriesContext(connection) as move:
        services.action_submit(game=game, user=ann, action=action, expected_seq=game.seq)
    # the game and its seats read (one statement), the append: the clocks and
    # the outbox add nothing to a move that keeps the turn
    assert [q["sql"].split()[0] for q in move if "SAVEPOINT" not in q["sql"]] == [
        "SELECT", "WITH"]
    assert Notification.objects.count() == before


@pytest.mark.django_db
def test_game_over_mails_the_final_scores(users, now):
    game = start_game(users[:2])
    play_turn(game)
    leaver = seat_user(game, 1)
    services.game_resign(game=game, user=leaver)
    overs = Notification.objects.filter(game=game, kind="game_over")
    assert overs.count() == 2
    deliver_all()
    winner = seat_user(game, 0)
    [over] = [m for m in mail_to(winner) if "is over" in m.subject]
    assert f"Won by {winner.username}." in over.body
    assert f"{leaver.username} (left):" in over.body


def run_round_to_second_mail(game, now, *, visit_after: timedelta | None) -> Notification:
    """Seat 0 is mailed its turn, misses it (timeout), seat 1 plays, and seat 0's
    turn comes round again: the second 'your turn' mail, still to deliver."""
    deliver_all()
    [first] = turn_mails(game, 0)
    assert first.status == "sent"
    ann = seat_user(game, 0)
    if visit_after is not None:
        notes.game_visit_record(user=ann, game=game, now=first.sent_at + visit_after)
    now.advance(days=2, seconds=1)
    assert notes.clocks_check() == {"reminded": 0, "timed_out": 1}  # reminders left aside here
    now.advance(hours=1)
    play_turn(game)  # seat 1
    now.advance(hours=1)
    second = turn_mails(game, 0)[-1]
    assert second.pk != first.pk and second.status == "pending"
    return second


@pytest.mark.django_db
@pytest.mark.parametrize(("policy", "visit_after", "expected"), [
    (Policy.UNTIL_VISIT, None, ("skipped", "no visit since the last mail")),
    (Policy.UNTIL_VISIT, timedelta(hours=5), ("sent", "")),
    (Policy.EVERY_TURN, None, ("sent", "")),
    (Policy.DIGEST, None, ("skipped", "the player reads a daily digest instead")),
    (Policy.OFF, None, ("skipped", "the player has turned mail off")),
])
def test_policies_decide_the_second_turn_mail(users, now, policy, visit_after, expected):
    ann, bob = users[:2]
    game = services.game_create(user=ann, variant="classic", length="long", seats=2,
                                days_per_move=1)
    services.game_join(game=game, user=bob)
    game.refresh_from_db()
    first_mover = seat_user(game, 0)
    notes.mail_settings_update(user=first_mover, policy=Policy.EVERY_TURN)
    deliver_all()  # the first mail goes out whatever the policy is to be
    notes.mail_settings_update(user=first_mover, policy=policy)
    second = run_round_to_second_mail(game, now, visit_after=visit_after)
    assert notes.notification_deliver(second.pk) == expected[0]
    second.refresh_from_db()
    assert (second.status, second.note) == expected


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/api/games/{pk}/", "/games/{pk}/", "/games/{pk}/state.json"])
def test_no_turn_mail_to_a_player_looking_at_the_game(users, now, url):
    # the API's game, the game page, or the state the page polls
    game = start_game(users[:2])
    bob = seat_user(game, 1)
    notes.mail_settings_update(user=bob, policy=Policy.EVERY_TURN)
    client = client_for(bob)
    client.force_login(bob)  # the pages' session; the API takes either
    assert client.get(url.format(pk=game.pk)).status_code == 200  # bob has the game open
    assert GameVisit.objects.get(user=bob, game=game).seen_at == now.value
    now.advance(seconds=90)
    play_turn(game)
    [row] = turn_mails(game, 1)
    assert notes.notification_deliver(row.pk) == "skipped"
    row.refresh_from_db()
    assert row.note == "the player is looking at the game"


@pytest.mark.django_db
def test_a_mail_for_a_turn_already_played_is_not_sent(users):
    game = start_game(users[:2])
    play_turn(game)  # before the outbox was read
    [row] = turn_mails(game, 0)
    assert notes.notification_deliver(row.pk) == "skipped"
    row.refresh_from_db()
    assert row.note == "that turn is over"


@pytest.mark.django_db
def test_the_daily_digest_lists_the_games_waiting(users, now):
    ann, bob, cyd = users[:3]
    for user in (ann, bob, cyd):
        notes.mail_settings_update(user=user, policy=Policy.DIGEST)
    games = [start_game([ann, bob]), start_game([ann, cyd])]
    assert set(deliver_all()) == {"sent", "skipped"}
    assert [m.subject for m in mail.outbox if "your move" in m.subject] == []
    waiting = {u: [g for g in games if seat_user(g, awaited(g)[0]) == u] for u in (ann, bob, cyd)}
    mail.outbox.clear()
    assert notes.digests_send() == sum(1 for found in waiting.values() if found)
    deliver_all()
    assert notes.digests_send() == 0  # once a day
    for user, found in waiting.items():
        digests = mail_to(user)
        assert len(digests) == (1 if found else 0)
        if found:
            assert digests[0].subject.startswith(f"marram: {len(found)} game")  # the site's name
            assert all(f"/games/{g.pk}/" in digests[0].body for g in found)


@pytest.mark.django_db
def test_a_failed_send_is_retried_later_and_gives_up_in_the_end(users, now, monkeypatch):
    game = start_game(users[:2])
    [row] = turn_mails(game, 0)
    deliver_all()
    row.status = "pending"
    row.save()

    def refuse(self, *args, **kwargs):
        raise smtplib.SMTPServerDisconnected("the server went away")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    assert notes.notification_deliver(row.pk) == "pending"
    row.refresh_from_db()
    assert row.attempts == 1 and row.next_attempt_at == now.value + timedelta(minutes=2)
    assert "the server went away" in row.note
    assert notes.outbox_sweep(after=timedelta(0)) == {"mail": 0, "webhooks": 0, "push": 0,
                                                       "chance": 0}
    # (not yet due)
    for _ in range(outbox.MAX_ATTEMPTS - 1):
        notes.notification_deliver(row.pk)
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("failed", outbox.MAX_ATTEMPTS)


@pytest.mark.django_db
def test_delivering_twice_sends_once(users):
    game = start_game(users[:2])
    [row] = turn_mails(game, 0)
    assert notes.notification_deliver(row.pk) == "sent"
    assert notes.notification_deliver(row.pk) == "sent"
    assert len(mail.outbox) == 1


@pytest.mark.django_db(transaction=True)
def test_with_tasks_in_process_the_mail_goes_as_the_move_commits(settings):
    # ./dev run: no Redis, tasks run eagerly right after the commit
    ann, bob = make_user("ann"), make_user("bob")
    with eager_tasks(settings):
        game = start_game([ann, bob])
        assert {m.subject for m in mail.outbox} == {f"Marram game {game.pk}: your move",
                                                    f"Marram game {game.pk}: the game has begun"}
        play_turn(game)
    assert Notification.objects.filter(status="pending").count() == 0
    assert len(mail.outbox) == 3


# ---------------------------------------------------------------- unsubscribe and settings


@pytest.mark.django_db
def test_the_unsubscribe_link_works_without_signing_in(client, users):
    ann = users[0]
    url = f"/notifications/unsubscribe/{unsubscribe_token(ann.pk)}/"
    page = client.get(url)  # an anonymous client: no session
    assert page.status_code == 200 and b'<form method="post">' in page.content
    assert mail_settings_get(ann).policy == Policy.UNTIL_VISIT  # a GET changes nothing
    done = client.post(url)
    assert done.status_code == 200 and b"no more mail" in done.content
    assert mail_settings_get(ann).policy == Policy.OFF


@pytest.mark.django_db
def test_a_forged_unsubscribe_link_is_refused(client, users):
    token = unsubscribe_token(users[0].pk)
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert client.get(f"/notifications/unsubscribe/{forged}/").status_code == 400
    assert client.post(f"/notifications/unsubscribe/{forged}/").status_code == 400
    assert mail_settings_get(users[0]).policy == Policy.UNTIL_VISIT


@pytest.mark.django_db
def test_one_click_unsubscribe_from_the_mail_header(client, users):
    game = start_game(users[:2])
    [row] = turn_mails(game, 0)
    notes.notification_deliver(row.pk)
    # the one-click URL first, then a mailto: address
    header = mail.outbox[0].extra_headers["List-Unsubscribe"].split(",")[0].strip("<>")
    answer = client.post(header.removeprefix("http://127.0.0.1:8000"),
                         data="List-Unsubscribe=One-Click",
                         content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200
    assert mail_settings_get(seat_user(game, 0)).policy == Policy.OFF


@pytest.mark.django_db
def test_the_settings_page_sets_the_policy_and_vacations(client, users, now):
    ann = users[0]
    assert client.get("/settings/notifications/").status_code == 302  # sign in first
    client.force_login(ann)
    page = client.get("/settings/notifications/")
    assert page.status_code == 200
    assert b"You have 14 days left of your 14 days this year" in page.content
    client.post("/settings/notifications/", {"action": "policy", "policy": "digest"})
    assert mail_settings_get(ann).policy == Policy.DIGEST
    client.post("/settings/notifications/", {"action": "vacation_start", "days": "3"})
    assert ann.vacations.get().ends_at == now.value + timedelta(days=3)
    now.advance(days=1)
    client.post("/settings/notifications/", {"action": "vacation_stop"})
    page = client.get("/settings/notifications/")
    assert b"You have 13 days left of your 14 days this year" in page.content


@pytest.mark.django_db
def test_the_admin_shows_the_outbox_and_the_mail_received(admin_client, users):
    game = start_game(users[:2])
    [row] = turn_mails(game, 0)
    for page in ("notification", "inboundmail", "mailsettings", "gamevisit"):
        assert admin_client.get(f"/admin/notifications/{page}/").status_code == 200
    for page in ("clock", "vacation"):  # time control is the games app's
        assert admin_client.get(f"/admin/games/{page}/").status_code == 200
    assert admin_client.get(f"/admin/notifications/notification/{row.pk}/change/") \
        .status_code == 200
    answer = admin_client.post("/admin/notifications/notification/", {
        "action": "deliver_now", "_selected_action": [row.pk]}, follow=True)
    assert b"1 sent of 1 pending." in answer.content
    row.refresh_from_db()
    assert row.status == "sent"

