"""What the mail and the mail's pictures say in words: a game without options
is named without an empty pair of brackets, and a count says "1 crate", never
"1 crates" nor "crate(s)"."""

from __future__ import annotations

import pytest
from django.core import mail

from games import services as game_services
from games.selectors import invitation_url
from notifications.models import Notification
from tests.service.aob_kit import start_animals
from tests.service.conftest import client_for
from tests.service.mail_kit import eager_tasks
from ui.animals_on_board.board_picture import alt_text

pytestmark = pytest.mark.django_db


def test_mail_of_a_game_without_options_names_it_without_empty_brackets(
        users, settings, django_capture_on_commit_callbacks):
    ann, bob, cyd, _ = users
    game = game_services.game_create(user=ann, game="animals_on_board", seats=3)
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        game_services.game_invite(game=game, user=ann, emails=["eve@example.org"],
                                  url_for=invitation_url)
        client_for(ann).post(f"/api/games/{game.pk}/invite/users/", {"usernames": ["bob"]},
                             format="json")
    by_address = next(m for m in mail.outbox if m.to == ["eve@example.org"])
    by_name = next(m for m in mail.outbox if m.to == ["bob@example.org"])
    for sent in (by_address, by_name):
        assert "a game of Animals on Board (3 players)" in sent.body, sent.body
        assert "()" not in sent.body and "(, " not in sent.body

    running = start_animals([ann, bob])
    with eager_tasks(settings), django_capture_on_commit_callbacks(execute=True):
        game_services.game_resign(game=running, user=bob)
    over = Notification.objects.filter(game=running, kind="game_over", user=ann).get()
    assert f"Animals on Board game {running.pk} is over." in over.body_text
    assert "()" not in over.body_text


def test_the_table_in_a_turn_mails_words_counts_one_as_one():
    view = {"round": 1, "stack": 1, "middle": [["A1"]], "prices": [1], "drawn": [],
            "you": 0, "ark": ["B2"], "crates": [1, 3], "ark_sizes": [1, 2],
            "finished": False, "in_round": [0, 1], "start_player": 1}
    words = alt_text(view, ["ann", "bob"])
    assert "Round 1, 1 tile left in the stack." in words
    assert "Group 0: 1 tile, take for 1 crate:" in words
    assert "Your ark (ann): 1 tile, 1 crate:" in words
    assert "ann: 1 crate, ark 1" in words and "bob: 3 crates, ark 2" in words
    assert "(s)" not in words
