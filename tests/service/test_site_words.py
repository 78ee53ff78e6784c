"""The platform's words name no game: the board part of a turn mail says only
what every game's says unless the game gives its own words (Marram's claims and
its picture's key are Marram's), and docs/api.md gives each game's actions with
the examples the API's documentation takes from its legal actions."""

from __future__ import annotations

import json
from pathlib import Path

from django.template.loader import render_to_string

from engine import registry
from games.game_ui import ui_for
from games.schema import action_examples
from tests.service.conftest import make_user, start_game

ROOT = Path(__file__).resolve().parents[2]
MARRAM_WORDS = ("claim arc", "claim side", "open place", "your hand", "rotation r0")


def board_part(details: dict) -> str:
    text = render_to_string("notifications/email/board.txt", details)
    html = render_to_string("notifications/email/board.html", details)
    return f"{text}\n{html}"


def test_the_board_part_of_a_turn_mail_says_nothing_of_any_game_by_default():
    said = board_part({"hand": None, "moves": ["mark 1", "mark 5"],
                       "picture": {"cid": "board.1", "alt": "The board", "width": 10,
                                   "height": 10}})
    assert "Some moves you could make:" in said and "mark 5" in said
    assert "The HTML version of this mail has a picture of the board." in said
    for words in MARRAM_WORDS:
        assert words not in said, words


def test_marrams_turn_mail_gives_its_own_words(db):
    from games.selectors import game_state_get, rules_of

    ann, bob = make_user("ann"), make_user("bob")
    game = start_game([ann, bob], seed="5eed" * 16)
    details = ui_for("marram").mail_turn(rules_of(game), game_state_get(game), 0)
    said = board_part({**details, "picture": {**details["picture"], "cid": "board.1"}})
    assert "claim arc N" in said and "claim side N" in said
    assert "Each open place shows its position (x,y)" in said


def test_docs_api_gives_each_games_actions_with_examples_from_its_legal_actions():
    docs = (ROOT / "docs" / "api.md").read_text()
    for game in registry.games():
        examples = action_examples(game.key)
        assert examples, game.key
        assert f"| {game.title} (`{game.key}`) |" in docs
        for action in examples.values():
            assert f"`{json.dumps(action)}`" in docs, (game.key, action)


def test_mail_goes_by_the_sites_name(db, settings):
    from django.core import mail

    from notifications import services as notes
    from notifications.models import Notification
    from tests.service.conftest import start_game_of

    settings.MARRAM_SITE_NAME = "The Riverside Games Club"
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game_of("pond", [ann, bob], seed="5eed" * 16)
    turn = Notification.objects.get(game=game, user=ann, kind="your_turn")
    assert notes.notification_deliver(turn.pk) == "sent"
    [sent] = mail.outbox
    html = sent.alternatives[0][0]
    assert "Unsubscribe from all The Riverside Games Club mail" in sent.body
    assert "Unsubscribe from all The Riverside Games Club mail" in html
    assert "Marram" not in sent.body and "Marram" not in html


def test_the_readme_gives_every_games_notation_for_moves_by_mail():
    import re

    readme = " ".join((ROOT / "README.md").read_text().split())
    start = readme.index("- **Moves by mail**")
    notation = readme[readme.index("in the notation (", start) + len("in the notation ("):
                      readme.index("; each game's rules page has its notation", start)]
    games = registry.games()
    # the first game's moves, then "in <title>" before each other game's
    parts = re.split(r"; in ([^`;]+?) (?=`)", notation)
    assert [t for t in parts[1::2]] == [g.title for g in games[1:]]
    for game, words in zip(games, parts[0::2], strict=True):
        moves = re.findall(r"`([^`]+)`", words)
        assert moves, game.key
        for line in moves:
            assert game.parse_action(line, 0)["type"], (game.key, line)
