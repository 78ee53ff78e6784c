"""What Marram's game page and rules page show beyond the generic shell: what
happened since the player's last move (with the points each event scored and
where), its measure in the final standings (the points and where they came
from), and the numbers the rules page quotes from the engine's rule tables
(games.pages.reads and views ask for them through ``ui.GameUI``)."""
from __future__ import annotations

from typing import Any

from engine.marram import rules
from engine.marram.notation import describe_event
from engine.marram.standings import breakdown
from engine.marram.state import GameState
from engine.marram.view import move_previews
from games.game_ui import Measure, Since
from ui.marram import pictures

BOARD_MOVES = ("place", "flip")


def since_last_move(state: GameState, since: Since, names: list[str]) -> dict[str, Any]:
    """What happened since the player's own last move (games.game_ui.Since): each
    event in words (engine.notation.describe_event) with the points it scored
    and where it happened, and every position where a tile was laid or
    flipped, for the board to outline."""
    scored: dict[int, list[dict[str, Any]]] = {}
    for entry in state.log:
        scored.setdefault(entry["event"], []).append(
            {"seat": entry["seat"], "points": entry["points"], "feature": entry["feature"]})
    events = []
    tiles: list[list[int]] = []
    for told in since.events:
        payload, kind = told.payload, told.type
        at = payload.get("at") or payload.get("to")
        if kind in BOARD_MOVES and at is not None and at not in tiles:
            tiles.append(at)
        events.append({
            "seq": told.seq, "type": kind, "player": payload.get("player"), "at": at,
            "text": describe_event(payload, names, forced=told.by_server and kind == "pass"),
            "points": scored.get(told.seq, []),
        })
    return {"seat": since.seat, "events": events, "tiles": tiles, "more": since.more}


def page_extras(state: GameState, you: int | None, names: list[str]) -> dict[str, Any]:
    """What the game page's state carries for Marram's board and panels: with
    a seat, how each move it may make would leave its tile (the page previews a
    move with these, computing no rule itself)."""
    return {"move_previews": None if you is None or state.finished
            else move_previews(state, you)}


SOURCE_WORDS = {
    "grass": ("grass patch", "grass patches"), "sand": ("sand patch", "sand patches"),
    "blue": ("blue snake", "blue snakes"), "orange": ("orange snake", "orange snakes"),
    "worm": ("worm", "worms"), "freak": ("freak", "freaks"),
    "end_game": ("feature unfinished at the end", "features unfinished at the end"),
    "fly": ("guess of the fly", "guesses of the fly"),
    "frog": ("guess of the frog", "guesses of the frog"),
}
"""Where points come from (engine.marram.standings.SOURCES), in words."""


def points_words(sources: dict[str, dict[str, int]]) -> str:
    """Where a player's points came from: "12 from 3 grass patches, 5 from 1 worm"."""
    said = []
    for source, (one, many) in SOURCE_WORDS.items():
        cell = sources.get(source) or {"points": 0, "count": 0}
        if cell["points"]:
            said.append(f"{cell['points']} from {cell['count']} "
                        f"{one if cell['count'] == 1 else many}")
    return ", ".join(said)


def final_measure(state: GameState, names: list[str]) -> Measure:
    """The final standings' column: each player's points, and where they came from."""
    return Measure("Points", tuple(str(points) for points in state.scores),
                   tuple(points_words(sources) for sources in breakdown(state)))


def home_picture() -> dict[str, Any]:
    """The home page's picture: a real game a few turns in."""
    return pictures.picture("home")


RULES_PICTURES = ("patch", "blue-snake", "flip", "pitchfork", "animals")


def rules_page() -> tuple[str, dict[str, Any]]:
    """The rules in the project's own words, with pictures of real positions and
    the numbers read from the engine's own tables: the template and its context."""
    return "marram/rules.html", {
        "pictures": {name.replace("-", "_"): pictures.picture(name)
                     for name in RULES_PICTURES},
        **rule_numbers(),
    }


def rule_numbers() -> dict[str, Any]:
    """Every number the rules page quotes, read from the engine's rule tables so that
    the page and the engine cannot disagree: per variant and length, the supplies,
    the spade cards and short-game targets for 2, 3 and 4 players, the flips a tile
    allows and the patch values; and the values every variant shares."""
    variants: dict[str, dict[str, Any]] = {}
    for variant in rules.VARIANTS:
        for length in rules.LENGTHS:
            try:
                by_players = [rules.rules_for(variant, length, n) for n in (2, 3, 4)]
            except ValueError:  # Animals is long only
                continue
            two = by_players[0]
            variants.setdefault(variant, {})[length] = {
                "boots": two.boots, "pitchforks": two.pitchforks,
                "spades": [r.spades for r in by_players],
                "targets": [r.target for r in by_players],
                "flips_per_tile": two.flips_per_tile, "patch": two.patch,
            }
    return {
        "variants": variants,
        "hand_size": rules.HAND_SIZE,
        "moves_per_turn": rules.MOVES_PER_TURN,
        "beast": rules.BEAST_SEGMENT_VALUE,
        "freak": rules.FREAK_VALUE,
        "end_patch": rules.END_PATCH,
        "end_segment": rules.END_SEGMENT_VALUE,
        "creatures": rules.CREATURE_THRESHOLDS,
        "max_hops": rules.CREATURE_MAX_HOPS,
        "guess_points": rules.GUESS_POINTS,
        "exact_bonus": rules.EXACT_GUESS_BONUS,
    }
