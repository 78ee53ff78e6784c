"""A Marram state as JSON and back, for the server's snapshots (``engine.snapshot``).

Everything a fold reads is written out as it is, the union-find of the
features included (node numbers, parents and each root's totals), so that a
state read back folds on exactly as the one written: rebuilding the features
from the board would renumber them after a flip. What the config gives (the
catalogue, the deck, the rules) is not written: ``load_state`` starts from the
record's config and puts the rest back. Each laid tile is its id, face,
rotation and inversion; its oriented shape comes from the catalogue again.
Dicts whose order a fold or a view may follow are written as lists of pairs (the
database keeps a JSON object's keys in its own order), and each node's parent
as its root, so that a state's JSON does not depend on which finds ran on it.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..protocol import JSON, JSONObject
from .features import Feature, Features
from .state import Award, Creature, GameState, Placed
from .types import Pos

VERSION = 1
"""The version of this JSON (the game's ``snapshot_version``)."""

_FEATURE_COUNTS = ("open", "bulges", "gold", "silver", "flower", "heads", "tails", "ends",
                   "bodies", "saddles")


def _pos(raw: Any) -> Pos:
    x, y = raw
    return (int(x), int(y))


def _maybe_pos(raw: Any) -> Pos | None:
    return None if raw is None else _pos(raw)


# ---------------------------------------------------------------- out


def _placed(pos: Pos, p: Placed) -> JSON:
    return [list(pos), p.tile.id, p.face, p.rotation, p.inverted, list(p.region_nodes),
            list(p.seg_nodes), p.spade, p.flips, None if p.token is None else list(p.token)]


def _feature(root: int, f: Feature) -> JSON:
    return [root, f.beast, f.terrain, f.btype, list(f.nodes),
            [[n, seat] for n, seat in f.claims], [getattr(f, k) for k in _FEATURE_COUNTS]]


def _creature(c: Creature) -> JSON:
    return {"name": c.name, "status": c.status, "at": None if c.at is None else list(c.at),
            "prev": None if c.prev is None else list(c.prev), "hops": c.hops,
            "guesses": [[seat, guess] for seat, guess in c.guesses.items()],
            "outcome": c.outcome}


def dump(state: GameState) -> JSONObject:
    feats = state.features
    return {
        "board": [_placed(pos, p) for pos, p in state.board.items()],
        "frontier": [list(p) for p in sorted(state.frontier)],
        "features": {
            "parent": [feats.find(n) for n in range(len(feats.parent))],
            "pos": [list(p) for p in feats.node_pos],
            "ref": list(feats.node_ref), "beast": list(feats.node_beast),
            "roots": [_feature(r, f) for r, f in feats.roots.items()],
        },
        "drawn": state.drawn, "hands": [list(h) for h in state.hands],
        "discarded": list(state.discarded), "boots": list(state.boots),
        "pitchforks": list(state.pitchforks), "spades": list(state.spades),
        "scores": list(state.scores), "current": state.current,
        "moves_in_turn": state.moves_in_turn,
        "flipped_this_turn": [list(p) for p in sorted(state.flipped_this_turn)],
        "pass_streak": state.pass_streak, "resigned": cast(JSON, sorted(state.resigned)),
        "finished": state.finished, "winners": list(state.winners),
        "creatures": [_creature(c) for c in state.creatures.values()],
        "pending": [list(p) for p in state.pending], "lingering": state.lingering,
        "log": cast(JSON, [dict(entry) for entry in state.log]), "events": state.events,
        "retired": list(state.retired),
        "completed": [[kind, n] for kind, n in state.completed.items()],
    }


# ---------------------------------------------------------------- in


def _features(raw: Mapping[str, Any]) -> Features:
    # the hot part of a read: hundreds of features, built positionally
    feats = Features(list(raw["parent"]), [(x, y) for x, y in raw["pos"]],
                     list(raw["ref"]), list(raw["beast"]))
    token, roots = feats._token, feats.roots
    for root, beast, terrain, btype, nodes, claims, counts in raw["roots"]:
        opened, bulges, gold, silver, flower, heads, tails, ends, bodies, saddles = counts
        f = Feature(beast, terrain, nodes, opened, [(n, seat) for n, seat in claims],
                    bulges, gold, silver, flower, btype, heads, tails, ends, bodies, saddles)
        f.owner = token
        roots[root] = f
    return feats


def _board(state: GameState, raw: list[Any]) -> dict[Pos, Placed]:
    catalogue = state.config.catalogue
    board: dict[Pos, Placed] = {}
    for pos, tile_id, face, rotation, inverted, regions, segs, spade, flips, token in raw:
        tile = catalogue[tile_id]
        board[_pos(pos)] = Placed(
            tile, face, int(rotation), bool(inverted),
            tile.oriented(face, int(rotation), bool(inverted)),
            [int(n) for n in regions], [None if n is None else int(n) for n in segs],
            bool(spade), int(flips),
            None if token is None else (int(token[0]), str(token[1]), int(token[2])))
    return board


def _creature_in(raw: Mapping[str, Any]) -> Creature:
    return Creature(str(raw["name"]), raw["status"], _maybe_pos(raw["at"]),
                    _maybe_pos(raw["prev"]), int(raw["hops"]),
                    {int(seat): guess for seat, guess in raw["guesses"]}, raw["outcome"])


def _award(raw: Mapping[str, Any]) -> Award:
    return {"seat": int(raw["seat"]), "points": int(raw["points"]),
            "feature": str(raw["feature"]), "kind": str(raw["kind"]),
            "unfinished": bool(raw["unfinished"]), "event": int(raw["event"])}


def load(start: GameState, data: Mapping[str, JSON]) -> GameState:
    """The state ``dump`` wrote, on the config and rules of ``start`` (the
    state before any event of the same game)."""
    raw = cast(Mapping[str, Any], data)
    state = start
    state.board = _board(state, raw["board"])
    state.frontier = {_pos(p) for p in raw["frontier"]}
    state.features = _features(raw["features"])
    state.drawn = int(raw["drawn"])
    state.hands = [[str(t) for t in h] for h in raw["hands"]]
    state.discarded = [str(t) for t in raw["discarded"]]
    state.boots = [int(n) for n in raw["boots"]]
    state.pitchforks = [int(n) for n in raw["pitchforks"]]
    state.spades = [int(n) for n in raw["spades"]]
    state.scores = [int(n) for n in raw["scores"]]
    state.current = int(raw["current"])
    state.moves_in_turn = int(raw["moves_in_turn"])
    state.flipped_this_turn = {_pos(p) for p in raw["flipped_this_turn"]}
    state.pass_streak = int(raw["pass_streak"])
    state.resigned = {int(s) for s in raw["resigned"]}
    state.finished = bool(raw["finished"])
    state.winners = [int(s) for s in raw["winners"]]
    state.creatures = {str(c["name"]): _creature_in(c) for c in raw["creatures"]}
    state.pending = [tuple(p) for p in raw["pending"]]
    state.lingering = None if raw["lingering"] is None else int(raw["lingering"])
    state.log = [_award(entry) for entry in raw["log"]]
    state.events = int(raw["events"])
    state.retired = [int(n) for n in raw["retired"]]
    state.completed = {str(k): int(v) for k, v in raw["completed"]}
    return state
