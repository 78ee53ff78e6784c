"""What players and tools see of a state: the replay summary and the player
view. Hands are public (rule book); the deck order never leaves the engine."""
from __future__ import annotations

from typing import Any

from .features import Feature
from .game import awaiting
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


def tile_view(state: GameState, pos: tuple[int, int], t: Placed,
              features: bool = False) -> dict[str, Any]:
    """A laid tile as it lies; with ``features``, the id of the feature of each
    region and segment (the keys of the player view's ``features``)."""
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
    view["flips_left"] = max(0, state.rules.flips_per_tile - t.flips) if t.spade else 0
    view["token"] = None if t.token is None else {
        "seat": t.token[0], "kind": t.token[1], **_token_target(t, t.token[2])}
    return view


def _static_view(t: Placed) -> dict[str, Any]:
    """What a laid tile shows that depends only on how it lies (cached per orientation)."""
    key = ("view", t.face, t.inverted, t.rotation)
    cached = t.tile.views.get(key)
    if cached is None:
        o = t.o
        cached = t.tile.views[key] = {
            "tile": t.tile.id,
            "face": t.face,
            "rotation": t.rotation,
            "inverted": t.inverted,
            "terrain": o.terrain,
            "regions": [
                {"arcs": list(r.arcs), "terrain": r.terrain,
                 "items": ["gold"] * r.gold + ["silver"] * r.silver + ["flower"] * r.flower}
                for r in o.regions
            ],
            "items": _items(t),
            "beasts": [{"type": seg.type, "kind": seg.kind, "sides": list(seg.sides)}
                       for seg in o.segments],
        }
    return cached


def _items(t: Placed) -> list[dict[str, Any]]:
    shift = 2 * t.rotation
    face = t.tile.face(t.face, t.inverted)
    return [{"arc": (i.arc + shift) % 8, "kind": i.kind} for i in face.items]


def _token_target(t: Placed, node: int) -> dict[str, int]:
    if node in t.region_nodes:
        region = t.region_nodes.index(node)
        return {"arc": t.o.regions[region].arcs[0]}
    i = t.seg_nodes.index(node)
    return {"side": t.o.segments[i].sides[0]}


def face_view(tile: TileDef, face: str) -> dict[str, Any]:
    """One face of a tile as printed (rotation 0), for drawing a hand."""
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
    """Everything a player (or a spectator, seat None) may see, as JSON; with
    ``features``, also every patch and beast by id (complete, size, tokens)."""
    cfg = state.config
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
            t: {"front": face_view(cfg.catalogue[t], "front"),
                "back": face_view(cfg.catalogue[t], "back")}
            for hand in state.hands for t in hand
        },
        "resigned": sorted(state.resigned),
        "moves_in_turn": state.moves_in_turn,
        "board": [tile_view(state, p, state.board[p], features) for p in sorted(state.board)],
        "creatures": {
            name: {"status": c.status, "at": list(c.at) if c.at else None, "hops": c.hops,
                   "guesses": {str(s): g for s, g in c.guesses.items()}, "outcome": c.outcome}
            for name, c in state.creatures.items()
        },
        "log": list(state.log),
    } | ({"features": {str(root): feature_view(f) for root, f in state.features.roots.items()}}
         if features else {})
