"""Make-a-snake's pages and mail (ui/make_a_snake/): what the game page's state
adds (what happened since the player's last move, with the tiles taken; the
distances at the end), the connect preview through the API, the rules page, the
your-turn mail with the table's picture and the moves in the notation, and moves
made by replying to it."""

from __future__ import annotations

import email
import io
import json
import re
from html import unescape

import pytest
from django.core import mail
from django.test import Client
from PIL import Image

from engine.make_a_snake import GAME
from games import services
from games.models import Event, Game
from games.selectors import game_state_get
from notifications import services as notes
from notifications.inbound import inbound_mail_handle
from notifications.models import Notification
from notifications.signing import reply_address
from tests.service.conftest import body, client_for, seat_user, start_game_of
from tests.service.mail_kit import reply_bytes
from ui.make_a_snake import picture as pic
from ui.make_a_snake.mail import turn_details

SEED = "5e" * 32

pytestmark = pytest.mark.django_db


def snake_game(players, *, seed: str = SEED, **options) -> Game:
    """A running game of Make-a-snake, seats in the order given, dealt from ``seed``."""
    return start_game_of("make_a_snake", players, seed=seed, options=options)


def state_of(game: Game):
    game.refresh_from_db()
    return game_state_get(game)


def act(game: Game, choose=lambda actions: actions[0]) -> dict:
    """The awaited seat plays one legal action (the roll is drawn by the server)."""
    state = state_of(game)
    [seat] = GAME.awaiting(state).players
    action = choose(GAME.legal_actions(state, seat))
    services.action_submit(game=game, user=seat_user(game, seat), action=action,
                           expected_seq=game.seq)
    return action


def to_the_end(game: Game) -> Game:
    for _ in range(200):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game
        act(game)
    raise AssertionError("the game did not end")


def page_state(game: Game, user) -> dict:
    browser = Client()
    browser.force_login(user)
    return json.loads(browser.get(f"/games/{game.pk}/state.json").content)


def test_the_page_tells_what_happened_since_your_last_move_with_the_tiles_taken(users):
    ann, bob = users[:2]
    game = snake_game([ann, bob])
    first = act(game)  # ann takes
    act(game)  # ann connects
    # bob sees the roll, ann's take with the tile it took, her connect; the tile outlined
    bob_sees = page_state(game, bob)["since_last_move"]
    state = state_of(game)
    laid = state.snakes[0].tiles[0].tile
    assert laid == state.stacks[first["colour"]][0]
    assert [e["text"] for e in bob_sees["events"]] == [
        bob_sees["events"][0]["text"], f"ann takes the top {first['colour']} tile ({laid})",
        "ann connects the tile up", bob_sees["events"][3]["text"]]
    assert bob_sees["events"][0]["text"].startswith("the die shows")
    assert bob_sees["tiles"] == [laid]
    taken = act(game)  # bob takes
    seen = page_state(game, ann)
    since = seen["since_last_move"]
    texts = [e["text"] for e in since["events"]]
    state = state_of(game)
    assert texts[-1] == f"bob takes the top {taken['colour']} tile ({state.taken})"
    assert since["tiles"] == []  # bob's tile is not on the table yet
    # nothing of the stacks' order beyond the tiles taken
    for colour, stack in state.stacks.items():
        for hidden in stack[state.drawn[colour]:]:
            assert f'"{hidden}"' not in json.dumps(seen) + json.dumps(bob_sees)
    assert seen["standings"] is None and "action_texts" not in seen


def test_the_preview_of_a_connect_through_the_api_shows_both_sides(users):
    ann, bob, cyd = users[:3]
    game = snake_game([ann, bob], advanced=True)
    url = f"/api/games/{game.pk}/query/connect_preview/"
    refused = client_for(ann).post(url, {"args": {}}, format="json")
    assert refused.status_code == 400 and "take a tile first" in body(refused)["message"]
    act(game)
    answer = client_for(ann).post(url, {"args": {}}, format="json")
    assert answer.status_code == 200
    up, down = body(answer)["answer"]
    assert (up["side"], down["side"]) == ("up", "down")
    state = state_of(game)
    assert up["action"] == {"type": "connect", "player": 0, "side": "up", "turn": 0}
    assert up["allowed"] and up["why"] == "It overlaps no earlier tile."
    assert state.taken.split("-")[0] in json.dumps(up["parts"]) or up["parts"]
    # someone with no seat may not ask
    assert client_for(cyd).post(url, {"args": {}}, format="json").status_code == 403
    assert Event.objects.filter(game=game).count() == game.seq  # nothing changed


def test_the_standings_give_each_distance_and_the_winner_in_words(users):
    ann, bob = users[:2]
    game = to_the_end(snake_game([ann, bob]))
    state = state_of(game)
    seen = page_state(game, bob)
    standings = seen["standings"]
    distances = [d / 100 for d in state.distances]
    rows = standings["rows"]
    assert [r["distance"] for r in rows] == sorted(distances)
    assert [r["name"] for r in rows if r["winner"]] == [state.players[w] for w in state.winners]
    best = f"{min(distances):.2f} cm"
    assert standings["text"] in (f"Game over: {rows[0]['name']} wins, {best} from tongue to tail.",
                                 f"Game over: ann and bob tie at {best} from tongue to tail.")
    # the finished table has each tail, from which the page draws the ribbon
    assert all(d["tail"] is not None for d in seen["state"]["drawing"])


def test_the_last_player_left_wins_at_once_in_words(users):
    # bob resigns before the first roll: ann is the only player left, and wins
    ann, bob = users[:2]
    game = snake_game([ann, bob])
    assert client_for(bob).post(f"/api/games/{game.pk}/resign/").status_code == 200
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    standings = page_state(game, ann)["standings"]
    assert standings["text"] == ("Game over: ann wins, the only player left "
                                 "(12.00 cm from tongue to tail).")
    assert [(r["name"], r["winner"], r["distance"]) for r in standings["rows"]] == [
        ("ann", True, 12.0), ("bob", False, None)]
    page = client_for(ann).get("/rules/make_a_snake/").content.decode()
    assert "When only one player is left, the game ends at once and that player wins" in page


def test_the_lollipop_hunt_ends_in_words(users):
    ann, bob = users[:2]
    game = to_the_end(snake_game([ann, bob], mode="lollipop"))
    state = state_of(game)
    standings = page_state(game, ann)["standings"]
    assert standings["rows"] == [] and standings["hunt"] == state.end
    assert standings["text"].startswith("Game over: the lollipop hunt is " +
                                        ("won" if state.end == "won" else "lost"))


def test_the_rules_page_documents_the_notation_and_draws_the_shapes(client):
    page = client.get("/rules/make_a_snake/")
    assert page.status_code == 200
    html = page.content.decode()
    for words in ("<code>take blue</code>", "<code>connect up</code>",
                  "<code>connect down turn 2</code>", "Shape 8", "an arc of radius 4 cm "
                  "turning 180° left", "15 cm from the neck"):
        assert words in html, words
    assert html.count('class="shape-svg"') == 8


def test_the_game_page_serves_the_table_and_its_script(users):
    ann, bob = users[:2]
    game = snake_game([ann, bob])
    browser = Client()
    browser.force_login(ann)
    html = browser.get(f"/games/{game.pk}/").content.decode()
    assert 'id="snake-table"' in html and "make_a_snake/game.js" in html
    for path in ("game.js", "draw.js", "words.js", "snake.css"):
        assert browser.get(f"/static/make_a_snake/{path}").status_code == 200, path


# ---------------------------------------------------------------- mail

def deliver_all() -> None:
    for pk in Notification.objects.filter(status="pending").order_by("pk") \
            .values_list("pk", flat=True):
        notes.notification_deliver(pk)


def parts_of(sent) -> tuple[str, str, dict[str, bytes]]:
    message = email.message_from_bytes(sent.message().as_bytes())
    text_part, related = message.get_payload()
    html_part, *images = related.get_payload()
    found = {i["Content-ID"].strip("<>"): i.get_payload(decode=True) for i in images}
    return (text_part.get_payload(decode=True).decode(),
            html_part.get_payload(decode=True).decode(), found)


def listed_moves(text: str) -> list[str]:
    block = text.split("write one on the first line of your reply):\n", 1)[1]
    return [line.strip() for line in block.split("\n\n", 1)[0].splitlines()
            if line.startswith("  ")]


def turn_mail(user):
    deliver_all()
    mine = [m for m in mail.outbox if m.to == [user.email]
            and "Make-a-snake" in m.subject and m.reply_to]
    assert mine, [m.subject for m in mail.outbox]
    return mine[-1]


def test_the_turn_mail_has_the_table_picture_and_the_moves_in_the_notation(users):
    ann, bob = users[:2]
    game = snake_game([ann, bob])
    sent = turn_mail(ann)
    text, html, images = parts_of(sent)
    state = state_of(game)
    moves = listed_moves(text)
    assert moves == [GAME.format_action(a) for a in GAME.legal_actions(state, 0)]
    assert all(m.startswith("take ") for m in moves)
    assert "Your hand" not in text and "claim arc" not in text
    assert "Scores:" in text and "None" not in text
    [(cid, alt)] = re.findall(r'<img src="cid:([^"]+)" alt="([^"]*)"', html)
    alt = unescape(alt)
    assert alt.startswith("The table: ann's snake (red head): no tiles; bob's snake")
    png = Image.open(io.BytesIO(images[cid]))
    assert png.format == "PNG"
    drawn = pic.table_picture(state, 0)
    assert png.size == (drawn.width, drawn.height)
    # the red head is drawn at the neck of ann's panel: its centre is red
    box = pic.table_box(GAME.view(state, 0), [])
    x0, y0, span = box
    k = pic.PANEL_PX / span
    px = pic.MARGIN + (0 - x0) * k
    py = pic.MARGIN + pic.CAPTION_PX + pic.PANEL_PX - (2.6 - y0) * k
    r, g, b = png.convert("RGB").getpixel((round(px), round(py)))
    assert r > 150 and g < 110 and b < 110, (r, g, b)


def test_moves_by_mail_take_then_connect_and_a_wrong_one_is_refused(users):
    ann, bob = users[:2]
    game = snake_game([ann, bob])
    sent = turn_mail(ann)
    state = state_of(game)
    not_rolled = next(c for c in ("red", "green", "blue", "yellow") if c not in state.die)
    before = Event.objects.filter(game=game).count()
    refused = inbound_mail_handle(reply_bytes(
        sender=ann.email, to=sent.reply_to[0], body=f"take {not_rolled}\n",
        message_id="<no@client>"))
    assert refused.outcome == "refused" and f"not {not_rolled}" in refused.message
    assert Event.objects.filter(game=game).count() == before

    move = listed_moves(parts_of(sent)[0])[0]
    played = inbound_mail_handle(reply_bytes(
        sender=ann.email, to=sent.reply_to[0], body=f"{move}\n\n> It is your turn\n",
        message_id="<take@client>"))
    assert (played.outcome, played.message) == ("played", move)
    state = state_of(game)
    assert state.phase == "connect" and state.taken is not None
    # the answer asks for the connect, with both sides in its picture and words
    answer = Notification.objects.get(in_reply_to="<take@client>")
    mail.outbox.clear()
    assert notes.notification_deliver(answer.pk) == "sent"
    text, html, _ = parts_of(mail.outbox[0])
    assert listed_moves(text) == ["connect up", "connect down"]
    assert f"{state.taken} up: allowed" in unescape(html)
    assert f"{state.taken} down: allowed" in unescape(html)
    connected = inbound_mail_handle(reply_bytes(
        sender=ann.email, to=mail.outbox[0].reply_to[0], body="Connect down\n",
        message_id="<connect@client>"))
    assert connected.outcome == "played"
    state = state_of(game)
    assert [t.side for t in state.snakes[0].tiles] == ["down"]
    assert state.current == 1


# A seed whose deal and rolls leave bob's tile fitting nowhere under the advanced
# rules until his last tile is turned over, when both players take the first
# stack offered and connect the first side allowed (found with the engine).
TURN_SEED = "0" * 63 + "8"


def test_a_connect_that_turns_a_tile_over_by_mail(users):
    ann, bob = users[:2]
    game = snake_game([ann, bob], seed=TURN_SEED, advanced=True)
    while True:
        state = state_of(game)
        [seat] = GAME.awaiting(state).players
        actions = GAME.legal_actions(state, seat)
        if actions[0]["type"] == "connect" and actions[0]["turn"]:
            break
        act(game)
    assert seat == 1
    details = turn_details(GAME, state, 1)
    assert details["moves"] == ["connect up turn 1", "connect down turn 1"]
    assert "With the last 1 tile turned over" in details["picture"]["alt"]
    before = state.snakes[1].tiles[-1]

    def reply(text: str, message_id: str):
        game.refresh_from_db()
        return inbound_mail_handle(reply_bytes(
            sender=bob.email, to=reply_address(game.pk, 1, game.seq), body=f"{text}\n",
            message_id=message_id))

    refused = reply("connect down", "<t0@client>")
    assert refused.outcome == "refused" and "must be turned over first" in refused.message
    assert state_of(game).snakes[1].tiles[-1] == before
    played = reply("connect down turn 1", "<t1@client>")
    assert (played.outcome, played.message) == ("played", "connect down turn 1")
    snake = state_of(game).snakes[1]
    assert snake.tiles[-2].tile == before.tile and snake.tiles[-2].side != before.side


def test_a_spectator_sees_the_table_and_what_happened_since_the_last_move_of_the_player_to_play(
        users):
    ann, bob, cyd = users[:3]
    game = snake_game([ann, bob])
    for _ in range(2):  # ann takes and connects
        act(game)
    seen = page_state(game, cyd)
    assert seen["you"] is None and seen["legal_actions"] == []
    assert len(seen["state"]["drawing"]) == 2
    # bob is to play: what happened since his last move (he made none: since the start)
    assert seen["since_last_move"]["seat"] == 1
    assert [e["type"] for e in seen["since_last_move"]["events"]] == [
        "roll", "take", "connect", "roll"]


def test_the_lollipop_hunt_mail_draws_the_one_snake_larger_with_the_lollipops(users):
    ann, bob = users[:2]
    game = snake_game([ann, bob], mode="lollipop")
    state = state_of(game)
    drawn = pic.table_picture(state, 0)
    assert (drawn.width, drawn.height) == (
        2 * pic.MARGIN + pic.SINGLE_PX,
        2 * pic.MARGIN + pic.SINGLE_PX + pic.CAPTION_PX + pic.FOOTER_PX)
    assert drawn.alt.startswith("The table: the snake (red head): no tiles; lollipops "
                                "touched: 0 of 4")
    png = Image.open(io.BytesIO(drawn.png)).convert("RGB")
    # the lollipop at heading 45, 15 cm from the neck: its white middle, ringed
    x0, y0, span = pic.table_box(GAME.view(state, 0), [])
    k = pic.SINGLE_PX / span
    cx, cy = 15 * 0.5 ** 0.5, 15 * 0.5 ** 0.5
    px = pic.MARGIN + (cx - x0) * k
    py = pic.MARGIN + pic.CAPTION_PX + pic.SINGLE_PX - (cy - y0) * k
    assert min(png.getpixel((round(px), round(py)))) > 240  # white (in a palette of 128)
    r, g, b = png.getpixel((round(px + 1.8 * k), round(py)))  # on its rim
    assert r > 120 and g < 80, (r, g, b)
