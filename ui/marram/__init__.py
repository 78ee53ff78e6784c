"""Marram's UI: its board and move UI for the game page (``templates/``,
``static/``) and the board picture its turn mails carry."""
from __future__ import annotations

from ui import GameUI
from ui.marram import mail

UI = GameUI(
    board_template="marram/board.html",
    script="marram/game.js",
    replay_template="marram/replay_step.html",
    mail_turn=mail.turn_details,
    mail_picture=mail.picture,
)
