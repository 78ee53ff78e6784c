"""What the platform shows of each game beyond its rules: one folder per game,
``ui/<key>/``, found by the game's key (nothing lists them).

A game's folder holds its board and move UI for the game page (``templates/``
and ``static/``, which the settings add to Django's search paths) and, in its
``__init__``, a ``UI``: a ``GameUI`` saying where those are and, if the game
draws one, the picture of the board that a "your turn" mail carries. A game
without a folder is served by the generic page and plain mail (its view as JSON,
its notation).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any


@dataclass(frozen=True)
class GameUI:
    board_template: str = "games/board_generic.html"
    """The game page's board and move UI, included in the page's shell."""
    script: str = "games/generic.js"
    """The page's script (a static path): the game's module, on the generic client."""
    stylesheets: tuple[str, ...] = ()
    """The game's own style sheets (static paths)."""
    action_texts: bool = True
    """Whether the page's state lists each legal action in the notation (the generic
    page's buttons); a game whose actions are many and drawn on a board says no."""
    replay_module: str | None = None
    """The static path of an ES module exporting ``renderReplayStep(container, step)``
    that draws one step of the replay viewer (games/static/games/replay.js): the
    container is the same element at every step (empty at the first; the module
    may keep what it drew, e.g. the board's zoom) and ``step`` is the JSON of one
    step of the replay endpoint (games.pages.replay: ``at``, ``players``, ``view``,
    ``event``, ``scores``). Without one, the viewer shows the view as JSON."""
    page_extras: Callable[[Any, Any, int | None, list[str]], dict[str, Any]] | None = None
    """(game, state, seat, names) -> what the game page's state carries besides
    the generic (Marram: what happened since the player's last move, the standings)."""
    home_extras: Callable[[], dict[str, Any]] | None = None
    """() -> what the site's home page (games/home.html) shows of the site's own
    game, the registry's default (Marram: the picture of a game a few turns in)."""
    rules_page: Callable[[], tuple[str, dict[str, Any]]] | None = None
    """() -> the template and context of the game's rules page (/rules/<key>/)."""
    mail_turn: Callable[[Any, Any, int], dict[str, Any]] | None = None
    """(rules, state, seat) -> what a turn mail shows besides the words: "hand",
    "moves" (actions in the notation) and "picture" (its "alt", "width", "height");
    "board_text" and "board_html" name the game's own templates for that part of the
    mail (else notifications/email/board.txt and .html), which get all of these."""
    mail_picture: Callable[[Any, int], bytes] | None = None
    """(state, seat) -> the PNG of the board that the turn mail's HTML shows."""


@dataclass(frozen=True)
class Picture:
    """A game's board drawn for a turn mail: the PNG, the words for readers who
    cannot see it, and its size in pixels (the HTML mail states it)."""

    png: bytes
    alt: str
    width: int
    height: int


GENERIC = GameUI()


@cache
def ui_for(key: str) -> GameUI:
    """The UI of the game with this key: ``ui/<key>/``'s ``UI``, or the generic one."""
    try:
        module = importlib.import_module(f"ui.{key}")
    except ModuleNotFoundError as missing:
        if missing.name not in (f"ui.{key}",):
            raise
        return GENERIC
    return getattr(module, "UI", GENERIC)
