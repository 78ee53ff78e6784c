"""Pond's UI: its board and move UI for the game page (``templates/pond/``,
``static/pond/``), its replay step, its rules page, and the picture of the pond
its turn mails carry."""
from __future__ import annotations

from functools import partial

from games.game_ui import GameUI, recorded_position
from ui.pond import mail, pages

UI = GameUI(
    board_template="pond/board.html",
    script="pond/game.js",
    stylesheets=("pond/pond.css",),
    action_texts=False,
    replay_module="pond/replay.js",
    since_last_move=pages.since_last_move,
    final_measure=pages.final_measure,
    rules_page=pages.rules_page,
    mail_turn=mail.turn_details,
    mail_picture=mail.picture,
    tagline="Eggs hatch into tadpoles and tadpoles grow into frogs: line up three alike "
    "to carry them off to your pile.",
    notation=("egg 1,2", "move 1,2 2,2"),
    home_picture=partial(recorded_position, "pond"),
    picture_module="pond/picture.js",
)
