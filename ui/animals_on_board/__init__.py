"""Animals on Board's UI: the table and move UI of its game page
(``templates/``, ``static/``: the middle's groups, the player's ark, the others'
crates and ark counts), its replay step, its rules page, and the picture its
turn mails carry."""
from __future__ import annotations

from functools import partial

from games.game_ui import GameUI, recorded_position
from ui.animals_on_board import mail, pages

UI = GameUI(
    board_template="animals_on_board/board.html",
    script="animals_on_board/game.js",
    stylesheets=("animals_on_board/board.css",),
    replay_module="animals_on_board/replay.js",
    # a group of 13 tiles splits 8190 ways: the board offers them, not a list of buttons
    action_texts=False,
    mail_turn=mail.turn_details,
    mail_picture=mail.picture,
    since_last_move=pages.since_last_move,
    since_needs_before=True,
    final_measure=pages.final_measure,
    rules_page=pages.rules_page,
    tagline="Split the groups of animals for food crates and spend them on the groups "
    "you want aboard your ark: a lone animal or a herd scores.",
    notation=("keep C4", "split 0 A1 ?", "take 1", "pass"),
    home_picture=partial(recorded_position, "animals_on_board"),
    picture_module="animals_on_board/picture.js",
)
