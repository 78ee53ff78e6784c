"""Marram's UI: its board and move UI for the game page (``templates/``,
``static/``) and the board picture its turn mails carry."""
from __future__ import annotations

from games.game_ui import GameUI
from ui.marram import mail, pages

UI = GameUI(
    board_template="marram/board.html",
    script="marram/game.js",
    stylesheets=("marram/board.css", "marram/panels.css"),
    replay_module="marram/replay.js",
    action_texts=False,
    mail_turn=mail.turn_details,
    mail_picture=mail.picture,
    page_extras=pages.page_extras,
    since_last_move=pages.since_last_move,
    final_measure=pages.final_measure,
    rules_page=pages.rules_page,
    tagline="A tile game of grass and sand, snakes and worms: lay tiles, claim the "
    "patches and beasts, and score them when they are finished.",
    notation=("place T17 back 1,-2 r2 claim arc 4", "flip 3,0 r1", "pass", "guess fly 7"),
    home_picture=pages.home_picture,
    picture_module="marram/picture.js",
)
