"""What players and tools see of a state: the replay summary and the player
view. Hands are public (rule book); the deck order never leaves the engine but
in the revealed view of a finished game's replay (``MarramGame.view_revealed``).

A tile's drawing (its terrain, regions, items and beasts as it lies) is fixed by
the tile, its face, its rotation and whether it was inverted: the player view's
board names it (``drawing``, a key of ``drawings``) instead of repeating it, and
pages and API clients fetch the table of drawings once."""
from __future__ import annotations

from typing import Any, NamedTuple

from .board import flipped_face
from .catalogue import STANDARD, Catalogue
from .features import Feature
from .game import awaiting, flip_problem
from .rules import RULES_VERSION
from .scoring import is_regular
from .state import GameState, Placed
from .tiles import TileDef
from .types import Seat


def summary(state: GameState) -> dict[str, Any]:
    """The replay command's summary (spec: `python -m engine replay`)."""
    return {
        "finished": state.finished,
        "scores": list(state.scores),
        "winners": list(state.winners),
        "current_player": None if state.finished else state.current,
        "awaiting": awaiting(state),
        "supply": [
            {"boots": state.boots[s], "pitchforks": state.pitchforks[s],
             "spades": state.spades[s], "tiles_in_hand": len(state.hands[s])}
            for s in range(state.players)
        ],
        "tiles_on_board": len(state.board),
        "tiles_left": state.deck_left,
        "events": state.events,
    }


def board_tile(state: GameState, pos: tuple[int, int], t: Placed) -> dict[str, Any]:
    """A laid tile as the player view's board has it: its drawing by key, and what
    the game has changed on it. ``beasts``: the beasts still on the tile, each by
    its index in the drawing's ``beasts`` (``segment``) with the type of the beast
    it is part of (``feature_type``). Only for a tile of the standard catalogue,
    the one the table of drawings holds.

    Shown from ``_shown`` when this very tile was shown with the same beast types
    (a shared entry: read it, never change it)."""
    of = state.features.of
    types = tuple(None if n is None else of(n).btype for n in t.seg_nodes)
    found = _shown.get(id(t))
    if found is not None and found.placed is t and found.types == types:
        return found.entry
    entry = {
        "tile": t.tile.id, "face": t.face, "rotation": t.rotation, "inverted": t.inverted,
        "drawing": drawing_key(t.tile.id, t.face, t.rotation, t.inverted),
        "at": list(pos),
        "beasts": [{"segment": i, "feature_type": kind} for i, kind in enumerate(types)
                   if kind is not None],
        "spade": t.spade,
        "flips_left": _flips_left(state, t),
        "token": _token(t),
    }
    if len(_shown) >= SHOWN_KEPT:
        _shown.clear()
    _shown[id(t)] = _Shown(t, types, entry)
    return entry


class _Shown(NamedTuple):
    placed: Placed
    """Held, so that its id names no other tile while the entry lives."""
    types: tuple[str | None, ...]
    """The type of the beast each segment of the tile is part of, None where the
    segment has left the board: all the entry shows that a tile does not fix."""
    entry: dict[str, Any]


SHOWN_KEPT = 8192
"""Laid tiles whose board entries are kept (a few dozen games' boards): every
view shows every tile on the board, most of them as the view before showed
them. A laid tile never changes once a state holds it (a move that changes one
lays a copy in its place, ``board.own_tile``); only the types of the beasts it
is part of can, as beasts join, and those are checked."""

_shown: dict[int, _Shown] = {}


def _flips_left(state: GameState, t: Placed) -> int:
    return max(0, state.rules.flips_per_tile - t.flips) if t.spade else 0


def _token(t: Placed) -> dict[str, Any] | None:
    return None if t.token is None else {
        "seat": t.token[0], "kind": t.token[1], **_token_target(t, t.token[2])}


def drawing_key(tile_id: str, face: str, rotation: int, inverted: bool = False) -> str:
    """The key of a drawing in ``drawings``: ``T35.front.1``, ``T7.back.2.inverted``."""
    return f"{tile_id}.{face}.{rotation}" + (".inverted" if inverted else "")


DRAWN = ("terrain", "regions", "items", "beasts")
"""What a drawing holds (the rest of ``oriented_view`` says which drawing it is)."""


def drawings(catalogue: Catalogue) -> dict[str, dict[str, Any]]:
    """Every drawing a tile of the catalogue can show on the board, by key: each
    face at each rotation, and inverted too for a tile with a spade."""
    table: dict[str, dict[str, Any]] = {}
    for tile_id in sorted(catalogue.tiles):
        tile = catalogue[tile_id]
        for face in ("front", "back"):
            for inverted in (False, True) if tile.spade else (False,):
                for rotation in ROTATIONS:
                    seen = oriented_view(tile, face, rotation, inverted)
                    table[drawing_key(tile_id, face, rotation, inverted)] = {
                        name: seen[name] for name in DRAWN}
    return table


def drawn_board(state: GameState, features: bool = False) -> list[dict[str, Any]]:
    """Every laid tile drawn in full (``tile_view``), by position."""
    return [tile_view(state, p, state.board[p], features) for p in sorted(state.board)]


def tile_view(state: GameState, pos: tuple[int, int], t: Placed,
              features: bool = False) -> dict[str, Any]:
    """A laid tile drawn in full, as it lies (the board's ``board_tile`` with its
    drawing filled in, beasts whole); with ``features``, the id of the feature of
    each region and segment (the keys of the player view's ``features``)."""
    feats = state.features
    static = _static_view(t)
    view = dict(static)
    view["at"] = list(pos)
    if features:
        view["regions"] = [{**r, "feature": feats.find(n)}
                           for r, n in zip(static["regions"], t.region_nodes, strict=True)]
    view["beasts"] = [{**b, "feature_type": feats.of(n).btype}
                      | ({"feature": feats.find(n)} if features else {})
                      for b, n in zip(static["beasts"], t.seg_nodes, strict=True)
                      if n is not None]
    view["spade"] = t.spade
    view["flips_left"] = _flips_left(state, t)
    view["token"] = _token(t)
    return view


def _static_view(t: Placed) -> dict[str, Any]:
    """What a laid tile shows that depends only on how it lies."""
    return oriented_view(t.tile, t.face, t.rotation, t.inverted)


def oriented_view(tile: TileDef, face: str, rotation: int,
                  inverted: bool = False) -> dict[str, Any]:
    """A face of a tile as it lies at ``rotation`` (``inverted``: its grass and
    sand swapped, a tile that gained a spade and was flipped), cached per
    orientation: its terrain, regions, items and beasts."""
    key = ("view", face, inverted, rotation)
    cached = tile.views.get(key)
    if cached is None:
        o = tile.oriented(face, rotation, inverted)  # type: ignore[arg-type]
        shift = 2 * rotation
        printed = tile.face(face, inverted)  # type: ignore[arg-type]
        cached = tile.views[key] = {
            "tile": tile.id,
            "face": face,
            "rotation": rotation,
            "inverted": inverted,
            "terrain": o.terrain,
            "regions": [
                {"arcs": list(r.arcs), "terrain": r.terrain,
                 "items": ["gold"] * r.gold + ["silver"] * r.silver + ["flower"] * r.flower}
                for r in o.regions
            ],
            "items": [{"arc": (i.arc + shift) % 8, "kind": i.kind} for i in printed.items],
            "beasts": [{"type": seg.type, "kind": seg.kind, "sides": list(seg.sides)}
                       for seg in o.segments],
        }
    return cached


def _token_target(t: Placed, node: int) -> dict[str, int]:
    if node in t.region_nodes:
        region = t.region_nodes.index(node)
        return {"arc": t.o.regions[region].arcs[0]}
    i = t.seg_nodes.index(node)
    return {"side": t.o.segments[i].sides[0]}


def hand_face(tile: TileDef, face: str) -> dict[str, Any]:
    """One face of a tile in a hand as the player view has it: its drawing as
    printed (rotation 0) by key, and whether the tile has a spade. Only for a
    tile of the standard catalogue, the one the table of drawings holds."""
    return {"drawing": drawing_key(tile.id, face, 0), "spade": tile.spade}


def face_view(tile: TileDef, face: str) -> dict[str, Any]:
    """One face of a tile as printed (rotation 0), drawn in full, for drawing a hand."""
    key = ("face", face)
    if key not in tile.views:
        tile.views[key] = _face_view(tile, face)
    return tile.views[key]


def _face_view(tile: TileDef, face: str) -> dict[str, Any]:
    o = tile.oriented(face, 0)  # type: ignore[arg-type]
    printed = tile.face(face)  # type: ignore[arg-type]
    return {
        "terrain": o.terrain,
        "links": [list(link) for link in printed.links],
        "regions": [
            {"arcs": list(r.arcs), "terrain": r.terrain,
             "items": ["gold"] * r.gold + ["silver"] * r.silver + ["flower"] * r.flower}
            for r in o.regions
        ],
        "items": [{"arc": i.arc, "kind": i.kind} for i in printed.items],
        "beasts": [{"type": b.type, "kind": b.kind, "sides": list(b.sides)}
                   for b in o.segments],
        "spade": tile.spade,
    }


def feature_view(f: Feature) -> dict[str, Any]:
    """A patch or beast: what it is, whether it is complete, who holds it."""
    view: dict[str, Any] = {"kind": f.kind_name(), "complete": f.complete, "size": f.size,
                            "tokens": sorted(seat for _, seat in f.claims)}
    if f.beast:
        view["regular"] = is_regular(f) if f.complete else None
    else:
        view.update(bulges=f.bulges, gold=f.gold, silver=f.silver, flower=f.flower)
    return view


def player_view(state: GameState, seat: Seat | None = None,
                features: bool = False) -> dict[str, Any]:
    """Everything a player (or a spectator, seat None) may see, as JSON: the board's
    tiles and the hands' faces by drawing (``board_tile``, ``hand_face``), or drawn
    in full (``drawn_board``, ``face_view``) where the table of drawings does not
    hold them (a custom catalogue). With ``features``, drawn in full with the
    feature of each region and beast, and every patch and beast by id (complete,
    size, tokens)."""
    cfg = state.config
    by_drawing = not features and cfg.catalogue.name == STANDARD
    face = hand_face if by_drawing else face_view
    return {
        "rules_version": RULES_VERSION,
        "variant": cfg.variant,
        "length": cfg.length,
        "players": list(cfg.players),
        "you": seat,
        "target": state.rules.target,
        **summary(state),
        "hands": [list(h) for h in state.hands],
        "hand_tiles": {
            t: {"front": face(cfg.catalogue[t], "front"), "back": face(cfg.catalogue[t], "back")}
            for hand in state.hands for t in hand
        },
        "resigned": sorted(state.resigned),
        "claim_tokens": claim_tokens(state),
        "moves_in_turn": state.moves_in_turn,
        "board": [board_tile(state, p, state.board[p]) for p in sorted(state.board)]
        if by_drawing else drawn_board(state, features),
        "creatures": {
            name: {"status": c.status, "at": list(c.at) if c.at else None, "hops": c.hops,
                   "guesses": {str(s): g for s, g in c.guesses.items()}, "outcome": c.outcome}
            for name, c in state.creatures.items()
        },
        "log": list(state.log),
    } | ({"features": {str(root): feature_view(f) for root, f in state.features.roots.items()}}
         if features else {})


def claim_tokens(state: GameState) -> dict[str, str]:
    """The token a claim takes: of a patch (``{"arc": ...}``) and of a beast
    (``{"side": ...}``), by the variant's rules."""
    return {"arc": "boot", "side": "pitchfork" if state.rules.pitchforks_for_beasts else "boot"}


ROTATIONS = range(4)


def move_previews(state: GameState, seat: Seat) -> dict[str, Any]:
    """How each move the seat may make would leave its tile, for the game page to
    draw before the player confirms (the browser computes no rule): ``place``,
    each tile in the seat's hand, each face, as it would lie at rotations 0 to 3;
    ``flip``, each tile on the board the seat may flip (rotation and fit aside),
    as it would lie flipped to rotations 0 to 3, its token gone. Each as the move
    lays it, before a beast it completes leaves the board."""
    flips = state.rules.flips_per_tile
    place: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for tile_id in state.hands[seat]:
        tile = state.config.catalogue[tile_id]
        place[tile_id] = {
            face: [{**oriented_view(tile, face, r), "spade": tile.spade,
                    "flips_left": flips if tile.spade else 0, "token": None}
                   for r in ROTATIONS]
            for face in ("front", "back")}
    flip = []
    for pos in sorted(state.board):
        placed = state.board[pos]
        if not placed.spade or flip_problem(state, seat, pos) is not None:
            continue
        face, inverted = flipped_face(placed)
        # the beasts still on the tile, by their segment's index (those gone stay gone)
        live = {i: state.features.of(n).btype for i, n in enumerate(placed.seg_nodes)
                if n is not None}
        rotations = []
        for r in ROTATIONS:
            view = oriented_view(placed.tile, face, r, inverted)
            rotations.append({
                **view, "at": list(pos), "spade": placed.spade,
                "beasts": [{**b, "feature_type": live[i]}
                           for i, b in enumerate(view["beasts"]) if i in live],
                "flips_left": max(0, flips - placed.flips - 1), "token": None})
        flip.append({"at": list(pos), "rotations": rotations})
    return {"place": place, "flip": flip}
