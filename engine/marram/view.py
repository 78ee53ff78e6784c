"""What players and tools see of a state: the replay summary and the player
view. Hands are public (rule book); the deck order never leaves the engine but
in the revealed view of a finished game's replay (``MarramGame.view_revealed``).

A tile's drawing (its terrain, regions, items and beasts as it lies) is fixed by
the tile, its face, its rotation and whether it was inverted: the player view's
board names it (``drawing``, a key of ``drawings``) instead of repeating it, and
pages and API clients fetch the table of drawings once.

The views' shapes are TypedDicts of JSON values (``Summary``, ``PlayerView``,
``TileView``, ``FaceView``, ``MovePreviews`` and the parts they hold), which the
pages, the mail's board picture and the rules page's pictures (``ui/marram``)
are checked against. What the game waits for (``game.Awaited``) and the score
log's entries (``state.Award``) are typed beside the rules that make them."""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, NotRequired, TypedDict, cast, final

from .board import flipped_face
from .catalogue import STANDARD, Catalogue
from .features import Feature
from .game import Awaited, awaiting, flip_problem
from .rules import RULES_VERSION
from .scoring import is_regular
from .state import Award, CreatureStatus, GameState, Placed
from .tiles import TileDef
from .types import Seat

# ---------------------------------------------------------------- the views' shapes


class Region(TypedDict):
    """A region of a tile as it lies: its arcs (0-7, clockwise from the north-west
    corner), its terrain (``G`` or ``S``) and the items on it."""

    arcs: list[int]
    terrain: str
    items: list[str]
    feature: NotRequired[int]
    """The patch it is part of (a key of the player view's ``features``), when asked for."""


class Item(TypedDict):
    """An item as printed: the arc it lies on and its kind (gold, silver, flower)."""

    arc: int
    kind: str


class Beast(TypedDict):
    """A beast segment of a tile: the beast's type, the segment's kind (head,
    tail, body, ...) and the sides (0-3, north first) it touches."""

    type: str
    kind: str
    sides: list[int]


class LaidBeast(Beast):
    """A segment of a laid tile still on the board, with the type of the beast it
    is part of."""

    feature_type: str
    feature: NotRequired[int]
    """The beast it is part of (a key of the player view's ``features``), when asked for."""


class BeastLeft(TypedDict):
    """A segment of a laid tile still on the board, by its index in the drawing's
    ``beasts``, with the type of the beast it is part of."""

    segment: int
    feature_type: str


@final
class TokenOnArc(TypedDict):
    """A token on a patch: the seat's boot on the region of ``arc``."""

    seat: int
    kind: str
    arc: int


@final
class TokenOnSide(TypedDict):
    """A token on a beast: the seat's boot or pitchfork on the segment at ``side``."""

    seat: int
    kind: str
    side: int


Token = TokenOnArc | TokenOnSide


class Drawing(TypedDict):
    """A tile's drawing as it lies (an entry of the ``drawings`` table)."""

    terrain: str
    """The terrain of each arc, ``G`` or ``S``."""
    regions: list[Region]
    items: list[Item]
    beasts: list[Beast]


class OrientedView(TypedDict):
    """A face of a tile as it lies at a rotation (``oriented_view``)."""

    tile: str
    face: str
    rotation: int
    inverted: bool
    terrain: str
    regions: list[Region]
    items: list[Item]
    beasts: list[Beast]


class TileView(TypedDict):
    """A laid tile drawn in full (``tile_view``), or as a flip would leave it."""

    tile: str
    face: str
    rotation: int
    inverted: bool
    terrain: str
    regions: list[Region]
    items: list[Item]
    beasts: list[LaidBeast]
    at: list[int]
    spade: bool
    flips_left: int
    token: Token | None


class BoardTile(TypedDict):
    """A laid tile as the player view's board has it (``board_tile``): its drawing
    by key, and what the game has changed on it."""

    tile: str
    face: str
    rotation: int
    inverted: bool
    drawing: str
    """A key of the ``drawings`` table."""
    at: list[int]
    beasts: list[BeastLeft]
    spade: bool
    flips_left: int
    token: Token | None


class HandFace(TypedDict):
    """A face of a tile in a hand by its drawing's key (``hand_face``)."""

    drawing: str
    spade: bool


class FaceView(TypedDict):
    """A face of a tile as printed, drawn in full (``face_view``)."""

    terrain: str
    links: list[list[int]]
    regions: list[Region]
    items: list[Item]
    beasts: list[Beast]
    spade: bool


class HandTile(TypedDict):
    """Both faces of a tile in a hand: by drawing, or drawn in full."""

    front: HandFace | FaceView
    back: HandFace | FaceView


class CreatureView(TypedDict):
    status: CreatureStatus
    at: list[int] | None
    hops: int
    guesses: dict[str, int | str]
    """Each seat's guess (its number as a string): hops, or "escape"."""
    outcome: int | str | None


class FeatureView(TypedDict):
    """A patch or beast (``feature_view``)."""

    kind: str
    complete: bool
    size: int
    tokens: list[int]
    """The seat of each token on it, sorted."""
    regular: NotRequired[bool | None]
    """A beast only: whether it is regular, once complete (None before)."""
    bulges: NotRequired[int]
    """A patch only, as its items below."""
    gold: NotRequired[int]
    silver: NotRequired[int]
    flower: NotRequired[int]


class Supply(TypedDict):
    """A seat's tokens and spade cards left, and the tiles in its hand."""

    boots: int
    pitchforks: int
    spades: int
    tiles_in_hand: int


class Summary(TypedDict):
    """``summary``: the replay command's summary."""

    finished: bool
    scores: list[int]
    winners: list[int]
    current_player: int | None
    awaiting: Awaited
    supply: list[Supply]
    tiles_on_board: int
    tiles_left: int
    events: int


class ClaimTokens(TypedDict):
    """The token a claim takes: on a patch (``arc``) and on a beast (``side``)."""

    arc: str
    side: str


class PlayerView(Summary):
    """``player_view``: what a seat (or a spectator) sees; the adapter's revealed
    view adds ``revealed`` and the ``deck``."""

    rules_version: str
    variant: str
    length: str
    players: list[str]
    you: int | None
    target: int | None
    hands: list[list[str]]
    hand_tiles: dict[str, HandTile]
    resigned: list[int]
    claim_tokens: ClaimTokens
    moves_in_turn: int
    board: list[BoardTile] | list[TileView]
    """By drawing for the standard catalogue; drawn in full for another, or with
    the features."""
    creatures: dict[str, CreatureView]
    log: list[Award]
    features: NotRequired[dict[str, FeatureView]]
    """Every patch and beast by id, when asked for."""
    revealed: NotRequired[bool]
    deck: NotRequired[list[str]]
    """The deck's order, next tile first (a finished game's replay only)."""


class PlacePreview(OrientedView):
    """A tile of the hand as a place would lay it (``move_previews``)."""

    spade: bool
    flips_left: int
    token: None


class FlipPreview(TypedDict):
    """A laid tile as a flip would leave it at each rotation (``move_previews``)."""

    at: list[int]
    rotations: list[TileView]


class MovePreviews(TypedDict):
    """``move_previews``: each tile of the hand by its id, each face, at each
    rotation (``place``), and each tile the seat may flip (``flip``)."""

    place: dict[str, dict[str, list[PlacePreview]]]
    flip: list[FlipPreview]


# ---------------------------------------------------------------- making them


def summary(state: GameState) -> Summary:
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


def board_tile(state: GameState, pos: tuple[int, int], t: Placed) -> BoardTile:
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
    entry: BoardTile = {
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
    entry: BoardTile


SHOWN_KEPT = 8192
"""Laid tiles whose board entries are kept (a few dozen games' boards): every
view shows every tile on the board, most of them as the view before showed
them. A laid tile never changes once a state holds it (a move that changes one
lays a copy in its place, ``board.own_tile``); only the types of the beasts it
is part of can, as beasts join, and those are checked."""

_shown: dict[int, _Shown] = {}


def _flips_left(state: GameState, t: Placed) -> int:
    return max(0, state.rules.flips_per_tile - t.flips) if t.spade else 0


def _token(t: Placed) -> Token | None:
    """The token on the tile: on the region of an arc, or the segment at a side."""
    if t.token is None:
        return None
    seat, kind, node = t.token
    if node in t.region_nodes:
        region = t.region_nodes.index(node)
        return {"seat": seat, "kind": kind, "arc": t.o.regions[region].arcs[0]}
    return {"seat": seat, "kind": kind, "side": t.o.segments[t.seg_nodes.index(node)].sides[0]}


def drawing_key(tile_id: str, face: str, rotation: int, inverted: bool = False) -> str:
    """The key of a drawing in ``drawings``: ``T35.front.1``, ``T7.back.2.inverted``."""
    return f"{tile_id}.{face}.{rotation}" + (".inverted" if inverted else "")


def drawings(catalogue: Catalogue) -> dict[str, Drawing]:
    """Every drawing a tile of the catalogue can show on the board, by key: each
    face at each rotation, and inverted too for a tile with a spade. A drawing
    is what ``oriented_view`` holds but which drawing it is."""
    table: dict[str, Drawing] = {}
    for tile_id in sorted(catalogue.tiles):
        tile = catalogue[tile_id]
        for face in ("front", "back"):
            for inverted in (False, True) if tile.spade else (False,):
                for rotation in ROTATIONS:
                    seen = oriented_view(tile, face, rotation, inverted)
                    table[drawing_key(tile_id, face, rotation, inverted)] = {
                        "terrain": seen["terrain"], "regions": seen["regions"],
                        "items": seen["items"], "beasts": seen["beasts"]}
    return table


def drawn_board(state: GameState, features: bool = False) -> list[TileView]:
    """Every laid tile drawn in full (``tile_view``), by position."""
    return [tile_view(state, p, state.board[p], features) for p in sorted(state.board)]


def tile_view(state: GameState, pos: tuple[int, int], t: Placed,
              features: bool = False) -> TileView:
    """A laid tile drawn in full, as it lies (the board's ``board_tile`` with its
    drawing filled in, beasts whole); with ``features``, the id of the feature of
    each region and segment (the keys of the player view's ``features``)."""
    feats = state.features
    static = _static_view(t)
    regions = static["regions"]
    if features:
        regions = [{**r, "feature": feats.find(n)}
                   for r, n in zip(static["regions"], t.region_nodes, strict=True)]
    beasts: list[LaidBeast] = []
    for b, n in zip(static["beasts"], t.seg_nodes, strict=True):
        if n is None:
            continue
        beast: LaidBeast = {"type": b["type"], "kind": b["kind"], "sides": b["sides"],
                            "feature_type": feats.of(n).btype}
        if features:
            beast["feature"] = feats.find(n)
        beasts.append(beast)
    return _laid(static, list(pos), regions, beasts, t.spade, _flips_left(state, t), _token(t))


def _laid(seen: OrientedView, at: list[int], regions: list[Region], beasts: list[LaidBeast],
          spade: bool, flips_left: int, token: Token | None) -> TileView:
    """A tile drawn as it lies at ``at``, with what the game has changed on it."""
    return {"tile": seen["tile"], "face": seen["face"], "rotation": seen["rotation"],
            "inverted": seen["inverted"], "terrain": seen["terrain"], "regions": regions,
            "items": seen["items"], "beasts": beasts, "at": at, "spade": spade,
            "flips_left": flips_left, "token": token}


def _static_view(t: Placed) -> OrientedView:
    """What a laid tile shows that depends only on how it lies."""
    return oriented_view(t.tile, t.face, t.rotation, t.inverted)


def oriented_view(tile: TileDef, face: str, rotation: int,
                  inverted: bool = False) -> OrientedView:
    """A face of a tile as it lies at ``rotation`` (``inverted``: its grass and
    sand swapped, a tile that gained a spade and was flipped), cached per
    orientation: its terrain, regions, items and beasts."""
    key = ("view", face, inverted, rotation)
    cached = tile.views.get(key)
    if cached is not None:
        return cast(OrientedView, cached)  # what this function put there
    o = tile.oriented(face, rotation, inverted)  # type: ignore[arg-type]
    shift = 2 * rotation
    printed = tile.face(face, inverted)  # type: ignore[arg-type]
    made: OrientedView = {
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
    tile.views[key] = made
    return made


def hand_face(tile: TileDef, face: str) -> HandFace:
    """One face of a tile in a hand as the player view has it: its drawing as
    printed (rotation 0) by key, and whether the tile has a spade. Only for a
    tile of the standard catalogue, the one the table of drawings holds."""
    return {"drawing": drawing_key(tile.id, face, 0), "spade": tile.spade}


def face_view(tile: TileDef, face: str) -> FaceView:
    """One face of a tile as printed (rotation 0), drawn in full, for drawing a hand."""
    key = ("face", face)
    if key not in tile.views:
        tile.views[key] = _face_view(tile, face)
    return cast(FaceView, tile.views[key])  # what this function put there


def _face_view(tile: TileDef, face: str) -> FaceView:
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


def feature_view(f: Feature) -> FeatureView:
    """A patch or beast: what it is, whether it is complete, who holds it."""
    view: FeatureView = {"kind": f.kind_name(), "complete": f.complete, "size": f.size,
                         "tokens": sorted(seat for _, seat in f.claims)}
    if f.beast:
        view["regular"] = is_regular(f) if f.complete else None
    else:
        view.update({"bulges": f.bulges, "gold": f.gold, "silver": f.silver,
                     "flower": f.flower})
    return view


def player_view(state: GameState, seat: Seat | None = None,
                features: bool = False) -> PlayerView:
    """Everything a player (or a spectator, seat None) may see, as JSON: the board's
    tiles and the hands' faces by drawing (``board_tile``, ``hand_face``), or drawn
    in full (``drawn_board``, ``face_view``) where the table of drawings does not
    hold them (a custom catalogue). With ``features``, drawn in full with the
    feature of each region and beast, and every patch and beast by id (complete,
    size, tokens)."""
    cfg = state.config
    by_drawing = not features and cfg.catalogue.name == STANDARD
    face: Callable[[TileDef, str], HandFace | FaceView] = (
        hand_face if by_drawing else face_view)
    view: PlayerView = {
        "rules_version": RULES_VERSION,
        "variant": cfg.variant,
        "length": cfg.length,
        "players": list(cfg.players),
        "you": seat,
        "target": state.rules.target,
        # mypy asks that a ** item name PlayerView's optional keys; a Summary has none
        **summary(state),  # type: ignore[typeddict-item]
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
    }
    if features:
        view["features"] = {str(root): feature_view(f)
                            for root, f in state.features.roots.items()}
    return view


def claim_tokens(state: GameState) -> ClaimTokens:
    """The token a claim takes: of a patch (``{"arc": ...}``) and of a beast
    (``{"side": ...}``), by the variant's rules."""
    return {"arc": "boot", "side": "pitchfork" if state.rules.pitchforks_for_beasts else "boot"}


ROTATIONS = range(4)


def move_previews(state: GameState, seat: Seat) -> MovePreviews:
    """How each move the seat may make would leave its tile, for the game page to
    draw before the player confirms (the browser computes no rule): ``place``,
    each tile in the seat's hand, each face, as it would lie at rotations 0 to 3;
    ``flip``, each tile on the board the seat may flip (rotation and fit aside),
    as it would lie flipped to rotations 0 to 3, its token gone. Each as the move
    lays it, before a beast it completes leaves the board."""
    flips = state.rules.flips_per_tile
    place: dict[str, dict[str, list[PlacePreview]]] = {}
    for tile_id in state.hands[seat]:
        tile = state.config.catalogue[tile_id]
        place[tile_id] = {
            face: [{**oriented_view(tile, face, r), "spade": tile.spade,
                    "flips_left": flips if tile.spade else 0, "token": None}
                   for r in ROTATIONS]
            for face in ("front", "back")}
    flip: list[FlipPreview] = []
    for pos in sorted(state.board):
        placed = state.board[pos]
        if not placed.spade or flip_problem(state, seat, pos) is not None:
            continue
        face, inverted = flipped_face(placed)
        # the beasts still on the tile, by their segment's index (those gone stay gone)
        live = {i: state.features.of(n).btype for i, n in enumerate(placed.seg_nodes)
                if n is not None}
        rotations: list[TileView] = []
        for r in ROTATIONS:
            view = oriented_view(placed.tile, face, r, inverted)
            beasts: list[LaidBeast] = [
                {"type": b["type"], "kind": b["kind"], "sides": b["sides"],
                 "feature_type": live[i]}
                for i, b in enumerate(view["beasts"]) if i in live]
            rotations.append(_laid(view, list(pos), view["regions"], beasts, placed.spade,
                                   max(0, flips - placed.flips - 1), None))
        flip.append({"at": list(pos), "rotations": rotations})
    return {"place": place, "flip": flip}
