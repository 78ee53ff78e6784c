"""What Make-a-snake's game page and rules page show beyond the generic shell:
what happened since the player's last move (each event in words, and the tiles
laid, for the table to outline), how the game ended in words, its measure in
the final standings (the distances from tongue to tail, or the lollipops
touched in the hunt), and the rules page."""
from __future__ import annotations

import math
from typing import Any

from engine.make_a_snake import GAME, notation
from engine.make_a_snake.geometry import point
from engine.make_a_snake.pieces import COLOURS, SHAPES, TILES, Bend, Line
from engine.make_a_snake.rules import FACES
from engine.make_a_snake.scoring import LOLLIPOP_DISTANCE, LOLLIPOP_HEADINGS
from engine.make_a_snake.snake import lay_tile
from engine.make_a_snake.state import State
from engine.make_a_snake.view import PartView, part_view
from games.game_ui import Measure, Since


def since_last_move(state: State, since: Since, names: list[str]) -> dict[str, Any]:
    """The events since the player's own last move (games.game_ui.Since), in
    words, each take with the tile it took (public from then on); and those
    tiles, for the table to outline."""
    # the n-th take of a colour took the n-th tile of its stack: count back from
    # how many have been taken (only taken tiles are named, never the next ones)
    later = dict.fromkeys(COLOURS, 0)
    took: dict[int, str] = {}
    for told in reversed(since.events):
        colour = told.payload.get("colour")
        if told.type == "take" and colour in later:
            later[colour] += 1
            took[told.seq] = state.stacks[colour][state.drawn[colour] - later[colour]]
    events = []
    for told in since.events:
        text = notation.describe_event(told.payload, names, forced=told.by_server)
        if told.seq in took:
            text += f" ({took[told.seq]})"
        events.append({"seq": told.seq, "type": told.type, "player": told.payload.get("player"),
                       "text": text, "tile": took.get(told.seq)})
    tiles = [t for t in took.values() if t != state.taken]
    return {"seat": since.seat, "events": events, "tiles": tiles, "more": since.more}


def standings(state: State, names: list[str]) -> dict[str, Any]:
    """How the game ended, in words, and (competitive) each seat's distance from
    tongue to tail, the shortest first; equal distances share a place."""
    if state.lollipop:
        touched = len(state.touched)
        if state.end == "won":
            text = "Game over: the lollipop hunt is won, all four lollipops touched."
        elif state.end == "resign":
            text = "Game over: everyone resigned; the lollipop hunt is lost."
        else:
            text = (f"Game over: the lollipop hunt is lost, {touched} of 4 lollipops "
                    "touched before two stacks ran out.")
        return {"text": text, "rows": [], "hunt": state.end, "touched": touched}
    rows = []
    for seat, name in enumerate(names):
        d = state.distances[seat] if seat < len(state.distances) else None
        rows.append({"seat": seat, "name": name, "distance": None if d is None else d / 100,
                     "tiles": len(state.snakes[seat].tiles), "winner": seat in state.winners,
                     "place": None if d is None else 1 + sum(
                         1 for o in state.distances if o is not None and o < d)})
    rows.sort(key=lambda r: (r["place"] is None, r["place"] or 0, r["seat"]))
    winners = [names[w] for w in state.winners]
    # the winners are measured (scoring.measure)
    shortest = state.distances[state.winners[0]] if winners else None
    best = f"{shortest / 100:.2f} cm" if shortest is not None else ""
    if not winners:
        text = "Game over: everyone resigned, nobody wins."
    elif len(winners) > 1:
        text = f"Game over: {' and '.join(winners)} tie at {best} from tongue to tail."
    elif state.end == "resign":  # the last player left wins at once
        text = f"Game over: {winners[0]} wins, the only player left ({best} from tongue to tail)."
    else:
        text = f"Game over: {winners[0]} wins, {best} from tongue to tail."
    return {"text": text, "rows": rows}


def final_measure(state: State, names: list[str]) -> Measure:
    """The final standings' column: each snake's distance from tongue to tail
    (the lollipop hunt: the lollipops touched, shared), with its tiles."""
    laid = [len(state.snake_of(seat).tiles) for seat in range(len(names))]
    tiles = tuple(f"{n} tile{'' if n == 1 else 's'}" for n in laid)
    if state.lollipop:
        touched = f"{len(state.touched)} of 4"
        return Measure("Lollipops touched", (touched,) * len(names), tiles)
    distances = [state.distances[s] if s < len(state.distances) else None
                 for s in range(len(names))]
    return Measure("Tongue to tail", tuple("–" if d is None else f"{d / 100:.2f} cm"
                                           for d in distances), tiles)


def page_extras(state: State, you: int | None, names: list[str]) -> dict[str, Any]:
    """What the game page's state carries for the table and the panels."""
    return {"standings": standings(state, names) if state.finished else None}


def _shape_words(number: int) -> str:
    parts = []
    for part in SHAPES[number]:
        if isinstance(part, Line):
            parts.append(f"a straight line of {part.length} cm")
        else:
            assert isinstance(part, Bend)
            way = "left" if part.turn > 0 else "right"
            parts.append(f"an arc of radius {part.radius} cm turning {abs(part.turn)}° {way}")
    return ", then ".join(parts)


def _svg_path(part: PartView) -> str:
    """A part of the engine's view as an SVG path (y flipped: the plane's y is north)."""
    if "line" in part:
        (x0, y0), (x1, y1) = part["line"]
        return f"M{x0:g},{-y0:g} L{x1:g},{-y1:g}"
    arc = part["arc"]
    (cx, cy), r = arc["centre"], arc["radius"]
    a, b = math.radians(arc["from"]), math.radians(arc["from"] + arc["sweep"])
    x0, y0 = cx + r * math.cos(a), cy + r * math.sin(a)
    x1, y1 = cx + r * math.cos(b), cy + r * math.sin(b)
    return f"M{x0:.3f},{-y0:.3f} A{r},{r} 0 0 0 {x1:.3f},{-y1:.3f}"


def shape_picture(number: int) -> dict[str, Any]:
    """Shape ``number`` laid up from the origin heading north, for the rules page:
    its SVG path and the viewBox around it (a margin of the body's half width)."""
    laid = lay_tile(f"red-{number}", "up", point(0, 0), 90)
    parts = [part_view(p) for p in laid.parts]
    points = [tuple(p) for p in (parts[0]["start"], *(q["end"] for q in parts))]
    for q in parts:  # an arc's extremes within its sweep
        if "arc" in q:
            arc = q["arc"]
            (cx, cy), r = arc["centre"], arc["radius"]
            for k in range(0, 720, 90):
                if arc["from"] < k < arc["from"] + arc["sweep"]:
                    points.append((cx + r * math.cos(math.radians(k)),
                                   cy + r * math.sin(math.radians(k))))
    xs, ys = [p[0] for p in points], [-p[1] for p in points]
    m = 3
    return {"number": number, "words": _shape_words(number),
            "d": " ".join(_svg_path(q) for q in parts),
            "box": f"{min(xs) - m:g} {min(ys) - m:g} {max(xs) - min(xs) + 2 * m:g} "
                   f"{max(ys) - min(ys) + 2 * m:g}"}


def rules_page() -> tuple[str, dict[str, Any]]:
    """The rules in the project's words with the tiles, the die and the notation,
    every number read from the engine's own tables: the template and its context."""
    return "make_a_snake/rules.html", {
        "shapes": [shape_picture(n) for n in SHAPES],
        "tile_count": len(TILES),
        "colours": COLOURS,
        "faces": [f"{a} and {b}" for a, b in FACES],
        "lollipop_distance": LOLLIPOP_DISTANCE,
        "lollipop_headings": LOLLIPOP_HEADINGS,
        "options": GAME.options_declared,
        "examples": ["take blue", "connect up", "connect down", "connect down turn 2",
                     "red", "down"],
    }
