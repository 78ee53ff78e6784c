"""What the platform asks of each game's UI beyond its rules: one folder per
game, ``ui/<key>/``, found by the game's key (nothing lists them), which
imports this module and is imported by nothing but ``ui_for``.

A game's folder holds its board and move UI for the game page (``templates/``
and ``static/``, which the settings add to Django's search paths) and, in its
``__init__``, a ``UI``: a ``GameUI`` saying where those are, what the home page
says and shows of the game, how it tells what happened since a player's last
move (``Since``, read by the platform, described by the game) and, if the game
draws one, the picture of the board that a "your turn" mail carries. A game
without a folder is served by the generic page and plain mail (its view as
JSON, its notation).
"""
from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from engine import replay


class Told(NamedTuple):
    """An event of the game as "since your last move" tells it."""

    seq: int
    type: str
    payload: dict[str, Any]
    """The event as stored (a seat's secrets in it are the game's to keep:
    ``event_view``)."""
    by_server: bool
    """Made by the server (a chance draw, a pass forced on a seat, a timeout),
    not by a player."""


@dataclass(frozen=True)
class Since:
    """What happened since a seat's last move, as the platform reads it for the
    game page, by one rule for every game (games.pages.since): the events after
    ``seat``'s own last move (a player's event of that seat, not a resignation),
    the latest ``SINCE_SHOWN`` at most. ``seat`` is the reader's; a spectator's
    is the seat the game waits for; with nobody to wait for (a draw is due), and
    for every reader once the game is over (how it ended), the list starts after
    the last move of anyone but the latest mover."""

    seat: int | None
    reader: int | None
    """The reader's seat (None: a spectator)."""
    events: tuple[Told, ...]
    """Oldest first."""
    more: bool
    """More happened than the list shows: the seat's last move is out of reach."""
    own: Told | None
    """The seat's own last move, which the list starts after (None when out of
    reach, or when ``seat`` is None)."""
    before: Any = None
    """The state before ``own`` (or before the first event, without it), when the
    game's UI asks for it (``GameUI.since_needs_before``)."""


@dataclass(frozen=True)
class GameUI:
    board_template: str = "games/board_generic.html"
    """The game page's board and move UI, included in the page's shell."""
    script: str = "games/generic.js"
    """The page's script (a static path): the game's module, on the generic client
    (``games/client.js``). It calls ``showFinalStandings(page)``
    (``games/static/games/standings.js``) with each state it draws, so that a page
    open when the game ends shows the final standings."""
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
    page_extras: Callable[[Any, int | None, list[str]], dict[str, Any]] | None = None
    """(state, seat, names) -> what the game page's state carries besides the
    generic (what the game's own panels show: the previews of its moves, its
    standings)."""
    since_last_move: Callable[[Any, Since, list[str]], dict[str, Any]] | None = None
    """(state, since, names) -> what the page's "since your last move" panel
    shows (``since_last_move`` in its state): the events ``since`` holds, in the
    game's words. Pure: the platform reads the events."""
    since_needs_before: bool = False
    """Whether ``since_last_move`` needs the state before the events
    (``Since.before``), which the platform then replays the game to."""
    tagline: str = ""
    """The game in one line, for the home page and the rules index."""
    notation: tuple[str, ...] = ()
    """A few moves in the game's notation, each a line its ``parse_action`` reads:
    what the pages that explain moves by mail (the mail settings, the mail page's
    reply) give as examples."""
    home_picture: Callable[[], dict[str, Any]] | None = None
    """() -> a real position of the game, as ``picture_module`` draws it on the
    home page (``recorded_position`` replays one)."""
    picture_module: str | None = None
    """The static path of an ES module exporting ``renderPicture(container,
    picture)``, which draws ``home_picture``'s JSON into an empty element with the
    game's own board renderer, and nothing to play or move."""
    rules_page: Callable[[], tuple[str, dict[str, Any]]] | None = None
    """() -> the template and context of the game's rules page (/rules/<key>/)."""
    mail_turn: Callable[[Any, Any, int], dict[str, Any]] | None = None
    """(rules, state, seat) -> what a turn mail shows besides the words: "hand",
    "moves" (actions in the notation) with "moves_intro" (the words before them),
    and "picture" (its "alt", "width", "height", and the game's words about it:
    "text" for the plain mail, "caption" under it); "board_text" and "board_html"
    name the game's own templates for that part of the mail (else
    notifications/email/board.txt and .html, which say nothing of any game
    where the game says nothing), which get all of these."""
    mail_picture: Callable[[Any, int], bytes] | None = None
    """(state, seat) -> the PNG of the board that the turn mail's HTML shows."""
    final_measure: Callable[[Any, list[str]], Measure] | None = None
    """(state, names) -> what the final standings show of each seat in the game's
    own measure (games/templates/games/final_standings.html lays them out, the
    same for every game); without one, each seat's score."""


@dataclass(frozen=True)
class Measure:
    """A finished game's own measure of each seat, for the final standings: the
    platform ranks the seats and lays out the table; the game says what its
    column is called and what each seat made."""

    heading: str
    """The column's heading, in the game's words (what its measure is called)."""
    values: tuple[str, ...]
    """Each seat's measure, by seat, as the game writes it ("34.20 cm")."""
    details: tuple[str, ...] = ()
    """By seat, how the measure was made, in a few words ("" for nothing to say)."""
    ending: str = ""
    """Why the game ended, in a sentence, when the status line does not say it."""


@dataclass(frozen=True)
class Picture:
    """A game's board drawn for a turn mail: the PNG, the words for readers who
    cannot see it, and its size in pixels (the HTML mail states it)."""

    png: bytes
    alt: str
    width: int
    height: int


GENERIC = GameUI()


def ui_folder(key: str) -> Path:
    """The folder of the game's UI, ``ui/<key>/``."""
    spec = importlib.util.find_spec(f"ui.{key}")
    if spec is None or not spec.submodule_search_locations:
        raise LookupError(f"the game {key!r} has no UI folder")
    return Path(spec.submodule_search_locations[0])


@cache
def recorded_position(key: str, name: str = "home") -> dict[str, Any]:
    """The position after the record ``ui/<key>/data/pictures/<name>.json``,
    replayed through the engine (so it is one the rules allow) and seen as a
    spectator sees it: ``{"players", "view"}``. The records stop at a position
    worth showing (tools/make_pictures.py writes them)."""
    record = json.loads((ui_folder(key) / "data" / "pictures" / f"{name}.json").read_text())
    read = replay.read_record(record)
    game = read.game
    after = replay.replay_events(game, game.start(read.config), read.events)
    if not after.ok:
        raise RuntimeError(f"picture {key}/{name} does not replay: event "
                           f"{after.error_index} is refused ({after.error})")
    listed = game.config(after.state).get("players")
    players = [str(n) for n in listed] if isinstance(listed, list) else []
    return {"players": players, "view": game.view(after.state, None)}


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
