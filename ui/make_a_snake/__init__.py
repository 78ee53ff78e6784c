"""Make-a-snake's UI: the table drawn to scale in SVG with the moves by clicks
(``templates/``, ``static/``), the replay viewer's step (``static/.../replay.js``),
what the page adds (``pages``), the rules page, and the picture its turn mails
carry (``mail``, ``picture``)."""
from __future__ import annotations

from functools import partial

from games.game_ui import GameUI, recorded_position
from ui.make_a_snake import mail, pages

UI = GameUI(
    board_template="make_a_snake/board.html",
    script="make_a_snake/game.js",
    stylesheets=("make_a_snake/snake.css",),
    action_texts=False,
    replay_module="make_a_snake/replay.js",
    mail_turn=mail.turn_details,
    mail_picture=mail.picture,
    page_extras=pages.page_extras,
    since_last_move=pages.since_last_move,
    final_measure=pages.final_measure,
    rules_page=pages.rules_page,
    tagline="Grow a snake of curved tiles, a tile a turn, so that its tail ends closest "
    "to its tongue; or grow one together and touch four lollipops.",
    notation=("take blue", "connect up", "connect down turn 2"),
    home_picture=partial(recorded_position, "make_a_snake"),
    picture_module="make_a_snake/picture.js",
)
