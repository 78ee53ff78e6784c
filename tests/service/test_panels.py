"""What the game page shows beside the game's record (games.panels): every change
to it that is no move (a chat message, a rematch offered or answered, the
ratings of the finished game) counts once in Game.panels_seq, which the poll
carries; a change refused counts nothing; and the parts the page reads again
are drawn for whoever asks, as the page draws them."""

from __future__ import annotations

import json

import pytest

from chat.services import chat_post
from games import services as game_services
from games.models import Game
from ratings import services as ratings_services
from tests.service.conftest import body, make_user, signed_in, start_game
from web.errors import ServiceError

pytestmark = pytest.mark.django_db


def panels(game: Game) -> int:
    return Game.objects.get(pk=game.pk).panels_seq


def polled(user, game: Game) -> int:
    return body(signed_in(user).get(f"/api/games/{game.pk}/events/?since=0"))["panels"]


def test_each_change_beside_the_record_counts_once_and_the_poll_carries_it():
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob])
    seq = game.seq
    chat_post(game_id=game.pk, user=ann, text="good luck")
    assert (panels(game), polled(bob, game)) == (1, 1)
    with pytest.raises(ServiceError):
        chat_post(game_id=game.pk, user=ann, text="   ")  # refused: nothing counted
    assert panels(game) == 1

    game_services.game_resign(game=game, user=bob)
    ratings_services.ratings_update(game.pk)  # the ratings' task
    assert panels(game) == 2
    ratings_services.rematch_offer(game_id=game.pk, user=bob)
    ratings_services.rematch_answer(game_id=game.pk, user=ann, accept=True)
    assert (panels(game), polled(ann, game)) == (4, 4)
    assert Game.objects.get(pk=game.pk).seq > seq  # the resignation alone moved the seq


def test_the_parts_read_again_are_drawn_for_whoever_asks():
    ann, bob, cyd = make_user("ann"), make_user("bob"), make_user("cyd")
    game = start_game([ann, bob])
    chat_post(game_id=game.pk, user=ann, text="<b>hi</b> bob")

    def parts(user) -> dict:
        answer = signed_in(user).get(f"/games/{game.pk}/panels.json")
        assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
        return json.loads(answer.content)

    running = parts(bob)
    assert running["panels"] == 1
    html = running["html"]
    assert 'id="resign"' in html and "Resign from this game" in html
    assert "&lt;b&gt;hi&lt;/b&gt; bob" in html and "<b>hi</b>" not in html
    assert "Download the record" not in html and game.seed not in html
    assert "chat-message" not in parts(cyd)["html"]  # the chat is the players' alone

    game_services.game_resign(game=game, user=bob)
    game.refresh_from_db()
    over = parts(ann)["html"]
    assert "Resign from this game" not in over and 'id="resign"' in over
    assert "Download the record" in over and game.seed in over
    assert "Offer a rematch" in over and 'id="rating-changes"' in over
    assert signed_in(ann).get(f"/games/{game.pk + 1000}/panels.json").status_code == 404
