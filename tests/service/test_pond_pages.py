"""Pond on the site: its game page (the board's UI folder, what the page state
carries: the last turn with what it developed and scored, the standings at the
end), its rules page, its turn mails (the pond in letters, moves in the notation,
a PNG of the pond) and moves by mail in its notation."""

from __future__ import annotations

import email
import io
import re

import pytest
from django.core import mail
from django.test import Client
from PIL import Image

from engine.pond import GAME
from games import services
from games.models import Event, Game
from games.selectors import game_state_get
from notifications import services as notes
from notifications.inbound import inbound_mail_handle
from notifications.models import Notification
from notifications.signing import reply_address
from tests.service.conftest import body, client_for, dealt_from, make_user, seat_user
from tests.service.mail_kit import reply_bytes
from ui.pond import board_picture as bp

SEED = "0d0d" * 16

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    """ann (light, seat 0) against bob (dark, seat 1) on the small pond."""
    ann, bob = make_user("ann"), make_user("bob")
    with dealt_from(SEED):
        created = services.game_create(user=ann, game="pond", seats=2,
                                       options={"options": "small"})
        services.game_join(game=created, user=bob)
    created.refresh_from_db()
    assert created.status == Game.Status.RUNNING
    return created


def play(game: Game, seat: int, action: dict) -> None:
    game.refresh_from_db()
    services.action_submit(game=game, user=seat_user(game, seat),
                           action={**action, "player": seat}, expected_seq=game.seq)
    game.refresh_from_db()


def page_state(game: Game, seat: int | None) -> dict:
    browser = Client()
    browser.force_login(seat_user(game, seat) if seat is not None else make_user("cyd"))
    response = browser.get(f"/games/{game.pk}/state.json")
    assert response.status_code == 200
    return response.json()


# ---------------------------------------------------------------- the page


def test_the_game_page_draws_pond_s_board_with_its_own_script(game):
    browser = Client()
    browser.force_login(seat_user(game, 0))
    html = browser.get(f"/games/{game.pk}/").content.decode()
    assert 'id="pond-board"' in html and "pond/game.js" in html and "pond/pond.css" in html
    assert "generic-view" not in html
    for path in ("/static/pond/game.js", "/static/pond/board.js", "/static/pond/pond.css",
                 "/static/pond/replay.js"):
        assert browser.get(path).status_code == 200, path


def test_the_page_tells_what_the_last_move_developed_and_scored(game):
    # Small pond: ann's eggs at 0,0 and 2,0, bob's far off at 3,3 and 3,2 (which
    # develops his 3,3 into a tadpole).
    for seat, at in ((0, [0, 0]), (1, [3, 3]), (0, [2, 0]), (1, [3, 2])):
        play(game, seat, {"type": "egg", "at": at})
    # ann's egg at 1,0 develops both light eggs beside it into tadpoles: row 0
    # reads t e t . (the egg between them): no set
    play(game, 0, {"type": "egg", "at": [1, 0]})
    bob = page_state(game, 1)
    [event] = bob["since_last_move"]["events"]
    assert event["text"] == "ann placed an egg at 1,0"
    assert event["detail"] == "developed 0,0 and 2,0"
    last = bob["state"]["last"]
    assert (last["at"], sorted(last["developed"]), last["scored"]) == (
        [1, 0], [[0, 0], [2, 0]], [])
    # bob's egg at 3,1 develops his 3,2 (egg -> tadpole): column 3 reads
    # . E T T from the north: two tadpoles, no set
    play(game, 1, {"type": "egg", "at": [3, 1]})
    # ann's egg at 1,1 develops 1,0 (egg -> tadpole): row 0 is then t t t:
    # three tadpoles in a row score, all three light: +3 for ann
    play(game, 0, {"type": "egg", "at": [1, 1]})
    bob = page_state(game, 1)
    assert bob["state"]["scores"] == [3, 0]
    assert bob["state"]["board"][0] == "...."
    [event] = bob["since_last_move"]["events"]
    assert event["detail"] == "developed 1,0; scored 3 pieces (3 light)"
    assert sorted(s["at"] for s in bob["state"]["last"]["scored"]) == [[0, 0], [1, 0], [2, 0]]
    assert bob["legal_actions"] and "action_texts" not in bob
    assert bob["final_standings"] is None


def test_a_spectator_sees_what_happened_since_the_last_move_of_the_player_to_move(game):
    # the one rule of every game's page (games.pages.since): bob is to move, and
    # since his egg at 3,3 ann has placed hers at 2,2
    play(game, 0, {"type": "egg", "at": [0, 0]})
    play(game, 1, {"type": "egg", "at": [3, 3]})
    play(game, 0, {"type": "egg", "at": [2, 2]})
    watcher = page_state(game, None)
    assert [e["text"] for e in watcher["since_last_move"]["events"]] == [
        "ann placed an egg at 2,2"]
    assert watcher["legal_actions"] == []


def test_the_standings_at_the_end_say_why_it_ended(game):
    # bob's eggs at 0,0 and 2,0, then 1,0 between them: both develop into dark
    # tadpoles; his egg at 1,1 develops 1,0 too: row 0 is T T T, +3 for bob.
    # ann's eggs go where they develop nothing of his (column 3, then 0,3).
    for seat, at in ((0, [3, 3]), (1, [0, 0]), (0, [3, 2]), (1, [2, 0]), (0, [3, 1]),
                     (1, [1, 0]), (0, [0, 3]), (1, [1, 1])):
        play(game, seat, {"type": "egg", "at": at})
    assert game.projection["scores"] == [0, 3]
    services.game_resign(game=game, user=seat_user(game, 1))
    ann = page_state(game, 0)
    standings = ann["final_standings"]
    assert standings["heading"] == "Pile"
    assert standings["ending"] == "The game ended because a player resigned."
    # ann wins with the smaller pile: bob resigned, and has no place
    assert [(r["name"], r["place"], r["winner"], r["measure"], r["detail"])
            for r in standings["rows"]] == [
        ("ann", "1", True, "0", "light, 7 eggs left in the spawn"),
        ("bob", "resigned", False, "3", "dark, 7 eggs left in the spawn")]


def test_the_replay_and_the_admin_s_replay_draw_pond_s_steps(game):
    play(game, 0, {"type": "egg", "at": [0, 0]})
    play(game, 1, {"type": "egg", "at": [1, 0]})
    staff = make_user("admin", staff=True)
    for user, url in ((seat_user(game, 0), f"/games/{game.pk}/replay/"),
                      (staff, f"/admin/games/game/{game.pk}/replay/")):
        browser = Client()
        browser.force_login(user)
        html = browser.get(url).content.decode()
        assert 'data-module="/static/pond/replay.js"' in html, url
        assert "/static/pond/pond.css" in html, url
        step = browser.get(f"{url}steps.json", {"at": 2}).json()
        # bob's egg at 1,0 developed ann's at 0,0 into a tadpole
        assert step["view"]["board"][0] == "tE.."
        assert step["view"]["last"]["developed"] == [[0, 0]]
        assert step["event"]["text"] == "bob placed an egg at 1,0"


def test_the_rules_page_gives_the_option_sets_and_the_notation():
    browser = Client()
    html = browser.get("/rules/pond/").content.decode()
    assert "How to play Pond" in html
    # each option set's numbers, from the engine: small is 4x4, 11 eggs, 7 to win
    assert re.search(r"4x4</td><td>11</td><td>7</td>", html)
    assert re.search(r"5x5</td><td>15</td><td>10</td>", html)
    assert "<code>egg 1,2</code>" in html and "<code>move 1,2 2,2</code>" in html
    assert GAME.parse_action("egg 1,2", 0) == {"type": "egg", "player": 0, "at": [1, 2]}


# ---------------------------------------------------------------- mail


def deliver_all() -> None:
    for pk in Notification.objects.filter(status="pending").order_by("pk") \
            .values_list("pk", flat=True):
        notes.notification_deliver(pk)


def turn_mail_to(address: str):
    mails = [m for m in mail.outbox if m.to == [address] and "your move" in m.subject]
    assert mails, [m.subject for m in mail.outbox]
    return mails[-1]


def test_a_turn_mail_shows_the_pond_the_notation_and_a_picture(game):
    play(game, 0, {"type": "egg", "at": [1, 2]})
    mail.outbox.clear()
    deliver_all()
    bob = seat_user(game, 1)
    sent = turn_mail_to(bob.email)
    text = sent.body
    assert "Your hand" not in text and "claim arc" not in text
    # the pond in letters: ann's egg at 1,2 is an "e" in row 2, column 1
    assert "     0 1 2 3\n   0  . . . .\n   1  . . . .\n   2  . e . .\n   3  . . . ." in text
    moves = re.findall(r"^  ((?:egg|move) [\d, ]+)$", text, re.M)
    assert moves and all(GAME.parse_action(m, 1) in GAME.legal_actions(
        game_state_get(game), 1) for m in moves)
    assert 'Write "egg x,y" to place an egg' in text
    message = email.message_from_bytes(sent.message().as_bytes())
    _, related = message.get_payload()
    html_part, image = related.get_payload()
    html = html_part.get_payload(decode=True).decode()
    [(cid, alt)] = re.findall(r'<img src="cid:([^"]+)" alt="([^"]*)"', html)
    assert "you play dark" in alt and "light egg at 1,2" in alt
    assert image["Content-ID"].strip("<>") == cid
    picture = Image.open(io.BytesIO(image.get_payload(decode=True))).convert("RGB")
    # the light egg at 1,2: the middle of its cell is the light pieces' cream
    left, top = bp.BOARD_LEFT + 1 * bp.CELL, bp.BOARD_TOP + 2 * bp.CELL
    assert near(picture.getpixel((left + bp.CELL // 2, top + bp.CELL // 2)),
                bp.PIECE_FILL[0])
    # an empty position where bob may place an egg: water, with its position written
    left, top = bp.BOARD_LEFT + 3 * bp.CELL, bp.BOARD_TOP + 3 * bp.CELL
    assert near(picture.getpixel((left + 8, top + bp.CELL // 2)), bp.WATER)
    label = [picture.getpixel((x, y)) for x in range(left + 18, left + 46, 2)
             for y in range(top + 26, top + 40, 2)]
    assert any(near(p, bp.OPEN_INK, 50) for p in label)
    # ann's egg was the last move: its cell is outlined in red
    left, top = bp.BOARD_LEFT + 1 * bp.CELL, bp.BOARD_TOP + 2 * bp.CELL
    assert near(picture.getpixel((left + 4, top + bp.CELL // 2)), bp.LAST, 40)


def rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def near(pixel, colour: str, tolerance: int = 16) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, rgb(colour), strict=True))


def reply(game: Game, seat: int, body: str, message_id: str = "<p1@client.example>"):
    game.refresh_from_db()
    raw = reply_bytes(sender=f"Player <{seat_user(game, seat).email}>",
                      to=reply_address(game.pk, seat, game.seq), body=body,
                      message_id=message_id, subject="Re: Pond game: your move")
    return inbound_mail_handle(raw)


def test_a_reply_in_pond_s_notation_plays_the_move(game):
    played = reply(game, 0, "egg 1,2\n\nOn Monday, marram wrote:\n> It is your turn\n")
    assert (played.outcome, played.message) == ("played", "egg 1,2")
    moved = reply(game, 1, "place egg at 2,2", message_id="<p2@client.example>")
    assert moved.outcome == "played"
    # bob's egg at 2,2 developed ann's egg at 1,2 into a tadpole: she moves it
    stored = [e.payload for e in Event.objects.filter(game=game).order_by("seq")]
    assert stored == [{"type": "egg", "player": 0, "at": [1, 2]},
                      {"type": "egg", "player": 1, "at": [2, 2]}]
    assert game_state_get(Game.objects.get(pk=game.pk)).board.rows()[2] == ".tE."
    tadpole = reply(game, 0, "move 1,2 1,1", message_id="<p3@client.example>")
    assert tadpole.outcome == "played"
    assert Event.objects.filter(game=game).count() == 3


def test_an_illegal_or_unreadable_reply_is_refused_with_the_reason(game):
    play(game, 0, {"type": "egg", "at": [1, 2]})
    before = Event.objects.filter(game=game).count()
    taken = reply(game, 1, "egg 1,2")
    assert (taken.outcome, taken.code) == ("refused", "occupied")
    assert "holds a light egg" in taken.message
    off = reply(game, 1, "egg 4,0", message_id="<p2@client.example>")
    assert (off.outcome, off.code) == ("refused", "off_board")
    words = reply(game, 1, "hop along", message_id="<p3@client.example>")
    assert words.outcome == "refused"
    assert "a move needs the position it starts from" in words.message
    egg_moves = reply(game, 1, "move 1,2 1,3", message_id="<p4@client.example>")
    assert egg_moves.outcome == "refused"
    assert egg_moves.code == "not_your_piece"
    assert Event.objects.filter(game=game).count() == before
    answers = Notification.objects.filter(kind="reply_refused")
    assert answers.count() == 4
    assert all("Nothing has changed in the game." in a.body_text for a in answers)


def test_the_api_refuses_a_field_pond_does_not_have_and_says_which_rule_a_move_breaks(game):
    ann = client_for(seat_user(game, 0))
    extra = ann.post(f"/api/games/{game.pk}/actions/", {
        "seq": 0, "action": {"type": "egg", "at": [0, 0], "face": "frog"}}, format="json")
    assert extra.status_code == 400
    assert (body(extra)["code"], body(extra)["field"]) == ("unknown_field", "action.face")
    # ann has no tadpole or frog yet: a move is refused with the rule it breaks
    # (not as an action she may not make at all)
    move = ann.post(f"/api/games/{game.pk}/actions/", {
        "seq": 0, "action": {"type": "move", "from": [0, 0], "to": [0, 1]}}, format="json")
    assert move.status_code == 400
    assert body(move)["code"] == "no_piece" and "no piece at [0, 0]" in body(move)["message"]
    assert Event.objects.filter(game=game).count() == 0
