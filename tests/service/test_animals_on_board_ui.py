"""Animals on Board's pages and mail (ui/animals_on_board/): the game page
draws its own table, each player chooses their secret keep on their own page
and sees who has chosen, what happened since the player's last move is told
with its consequences, the rules page documents the notation, and every seat
awaited gets a turn mail with moves in the notation and a picture of what it
may see; a reply in the notation plays the move."""

from __future__ import annotations

import io
import json

import pytest
from django.test import Client
from PIL import Image

from engine.animals_on_board import GAME
from games.models import Event
from notifications import services as notes
from notifications.board_mail import picture_alt, picture_for
from notifications.inbound import inbound_mail_handle
from notifications.models import Notification
from notifications.signing import reply_address
from tests.service.aob_kit import start_animals, state_of, submit
from tests.service.conftest import client_for
from tests.service.mail_kit import reply_bytes

pytestmark = pytest.mark.django_db


def page_for(user, game) -> dict:
    browser = Client()
    browser.force_login(user)
    answer = browser.get(f"/games/{game.pk}/state.json")
    assert answer.status_code == 200
    return json.loads(answer.content)


def keep_all(game, seats: int) -> None:
    for seat in range(seats):
        submit(game, {"type": "keep", "player": seat, "tile": state_of(game).drawn[seat][0]})


def test_the_game_page_is_the_game_s_own_table(users):
    ann, bob, cyd = users[:3]
    game = start_animals([ann, bob, cyd])
    browser = Client()
    browser.force_login(ann)
    html = browser.get(f"/games/{game.pk}/").content.decode()
    assert 'id="aob-board"' in html and "animals_on_board/game.js" in html
    assert "animals_on_board/board.css" in html and 'id="generic-actions"' not in html
    page = page_for(ann, game)
    assert "action_texts" not in page  # the table offers the moves, not a list of buttons
    assert [a["type"] for a in page["legal_actions"]] == ["keep"] * 3
    # the script and the species table are served
    for path in ("game.js", "board.js", "species.json", "board.css"):
        assert browser.get(f"/static/animals_on_board/{path}").status_code == 200


def test_each_player_keeps_in_secret_on_their_own_page_and_sees_who_has_chosen(users):
    ann, bob, cyd = users[:3]
    game = start_animals([ann, bob, cyd])
    drawn = state_of(game).drawn[1]
    submit(game, {"type": "keep", "player": 1, "tile": drawn[2]})
    for user, seat in ((ann, 0), (cyd, 2)):
        page = page_for(user, game)
        assert page["state"]["kept"] == [1] and page["state"]["awaiting"] == [0, 2]
        assert [a["player"] for a in page["legal_actions"]] == [seat] * 3
        assert drawn[2] not in json.dumps(page)  # who has chosen, not what
        assert page["since_last_move"]["events"][0]["text"] == (
            "bob keeps one of their three tiles on their ark, in secret")
    waiting = page_for(bob, game)
    assert waiting["legal_actions"] == []
    assert "ann to play: keep a tile and cyd to play: keep a tile" in waiting["status_text"]
    # the last keep reveals the setup: the keeper's own move leads their list
    submit(game, {"type": "keep", "player": 0, "tile": state_of(game).drawn[0][0]})
    submit(game, {"type": "keep", "player": 2, "tile": state_of(game).drawn[2][0]})
    [last] = page_for(cyd, game)["since_last_move"]["events"]
    assert last["own"] and last["after"] == [
        "every player has kept a tile: the others go face up into the middle",
        "round 1 begins: the middle is one group of 11 tiles (one face down); ann starts"]
    bob_page = page_for(bob, game)
    assert bob_page["state"]["ark"] == [drawn[2]]


def test_since_your_last_move_tells_what_a_take_carried_off_and_the_next_deal(users):
    ann, bob = users[:2]
    game = start_animals([ann, bob])
    keep_all(game, 2)
    state = state_of(game)
    group = GAME.view(state, 0)["middle"][0]
    # ann splits one tile off, bob splits it in two... ann takes the lone tile
    submit(game, {"type": "split", "player": 0, "group": 0, "part": [group[0]]})
    submit(game, {"type": "split", "player": 1, "group": 0, "part": [group[1]]})
    submit(game, {"type": "take", "player": 0, "group": 1})
    page = page_for(bob, game)
    told = page["since_last_move"]["events"]
    assert told[0]["text"] == "ann takes group 1 onto their ark and leaves the round"
    assert told[0]["after"] == [f"the group held {group[0]}: 1 crate paid",
                                "ann takes the starting flag",
                                "bob is the last in the round and makes one more turn"]
    assert page["state"]["prices"] == [len(g) for g in page["state"]["middle"]]
    # bob's last turn ends the round: ann's page tells of the new deal
    submit(game, {"type": "take", "player": 1, "group": 1})
    told = page_for(ann, game)["since_last_move"]["events"]
    # ann's own take leads, for what it led to; then bob's
    assert [(e["type"], e["own"]) for e in told] == [("take", True), ("take", False)]
    assert told[-1]["after"][-1].startswith("round 2 begins: the middle is one group of 9 "
                                            "tiles (one face down); ann starts")


def test_the_rules_page_documents_the_notation_with_the_engine_s_numbers(client):
    answer = client.get("/rules/animals_on_board/")
    text = answer.content.decode()
    assert answer.status_code == 200
    for words in ("split 0 A1 H3 ?", "keep C4", "take 1", "<td>3</td><td>10</td><td>50</td>"
                  "<td>10 and 1 face down</td>", "Camel"):
        assert words in text, words


def deliver_all() -> None:
    for pk in Notification.objects.filter(status="pending").values_list("pk", flat=True):
        notes.notification_deliver(pk)


def turn_mails(game, seat):
    return list(Notification.objects.filter(game=game, seat=seat, kind="your_turn")
                .order_by("pk"))


def test_every_seat_awaited_gets_a_turn_mail_with_its_tiles_moves_and_picture(users):
    ann, bob, cyd = users[:3]
    game = start_animals([ann, bob, cyd])
    deliver_all()
    state = state_of(game)
    for seat in range(3):
        [mail] = turn_mails(game, seat)
        drawn = state.drawn[seat]
        assert f"keep {drawn[0]}" in mail.body_text and f"keep {drawn[2]}" in mail.body_text
        assert f"Your three tiles: {drawn[0]} (" in mail.body_text
        assert "claim arc" not in mail.body_text and "Your hand" not in mail.body_text
        # the points stay hidden until the end (they would tell what the arks hold)
        assert "ann: –" in mail.body_text and "None" not in mail.body_text + mail.body_html
        alt = picture_alt(mail)
        assert "Your three tiles: keep one: " + ", ".join(drawn[:1]) in alt
        assert "ann: 1 crate, ark 0, is choosing a tile, flag; bob: " in alt
        cid, png = picture_for(mail)
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and f'width="{image.width}"' in mail.body_html
        others = {t for s in range(3) if s != seat for t in state.drawn[s]}
        assert not others & set(alt.replace(",", " ").split())


def test_the_mail_picture_draws_each_tile_as_the_page_does_its_animal_and_colour():
    from ui.animals_on_board.board_picture import TILE_H, TILE_W, _tile_image
    from ui.animals_on_board.species import species

    shapes = {}
    for letter, kind in species().items():
        tile = _tile_image(f"{letter}3").convert("RGB")
        assert tile.size == (TILE_W, TILE_H)
        colour = tuple(int(kind["color"][i:i + 2], 16) for i in (1, 3, 5))
        # the animal, in the band at the top of the tile, in the species' colour
        band = tile.crop((4, 4, TILE_W - 4, TILE_H // 2))
        mask = [sum(abs(a - b) for a, b in zip(p, colour, strict=True)) < 40
                for p in band.get_flattened_data()]
        assert sum(mask) > 60, (kind["name"], sum(mask))
        shapes[letter] = bytes(mask)
    # twelve animals, twelve drawings: no two tiles alike but for their colour
    assert len(set(shapes.values())) == len(shapes)


def reply(game, seat: int, text: str, message_id: str):
    game.refresh_from_db()
    raw = reply_bytes(sender=f"Player <{game.seats.get(index=seat).user.email}>",
                      to=reply_address(game.pk, seat, game.seq), body=text,
                      message_id=message_id)
    return inbound_mail_handle(raw)


def test_moves_by_mail_in_the_notation(users):
    ann, bob = users[:2]
    game = start_animals([ann, bob])
    tile = state_of(game).drawn[1][1]
    refused = reply(game, 1, "keep Z9\n", "<r0@x>")
    assert refused.outcome != "played" and Event.objects.filter(game=game).count() == 0
    assert reply(game, 1, f"keep {tile.lower()}\n\n> quoted\n", "<r1@x>").outcome == "played"
    assert state_of(game).kept[1] == tile
    reply(game, 0, f"keep {state_of(game).drawn[0][0]}", "<r2@x>")
    state = state_of(game)
    assert not state.setup
    # the face-down tile is written ?; 'group', commas and the colon are accepted
    played = reply(game, 0, "split group 0: ?", "<r3@x>")
    assert played.outcome == "played", played.message
    state = state_of(game)
    assert GAME.view(state, 0)["middle"][1] == ["?"] and state.crates[0] == 2
    deliver_all()
    mail = turn_mails(game, 1)[-1]
    assert "take 1" in mail.body_text and "split 0 " in mail.body_text
    assert reply(game, 1, "take 1", "<r4@x>").outcome == "played"
    assert state_of(game).arks[1][-1] not in picture_alt(turn_mails(game, 0)[-1])


def test_an_action_with_a_field_the_game_does_not_have_is_refused(users):
    # the game declares its actions' fields: nothing else reaches the record
    ann, bob = users[:2]
    game = start_animals([ann, bob])
    tile = state_of(game).drawn[0][0]
    answer = client_for(ann).post(f"/api/games/{game.pk}/actions/", {
        "seq": 0, "action": {"type": "keep", "tile": tile, "note": "x" * 1000}},
        format="json")
    assert answer.status_code == 400, answer.content
    assert json.loads(answer.content)["code"] == "unknown_field"
    assert Event.objects.filter(game=game).count() == 0
    answer = client_for(ann).post(f"/api/games/{game.pk}/actions/", {
        "seq": 0, "action": {"type": "timeout"}}, format="json")
    assert answer.status_code == 400 and Event.objects.filter(game=game).count() == 0
