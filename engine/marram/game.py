"""Commands and their events: check an action against the rules, then fold
the event into the state.

``apply`` is pure: it returns a new state and leaves its argument untouched.
``step`` is the same fold done in place, for replays and self-play; when it
raises, the state it was given must be thrown away.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict, final

from ..errors import IllegalAction, RecordError
from . import board as B
from .catalogue import Catalogue, parse_catalogue
from .creatures import ORDER, appearance_odds, guess_awards, has_head, hop_odds
from .features import Feature, Features
from .rules import (
    CREATURE_MAX_HOPS,
    CREATURE_THRESHOLDS,
    HAND_SIZE,
    MOVES_PER_TURN,
    rules_for,
)
from .scoring import completed_value, describe, feature_kind, majority, unfinished_value
from .state import Creature, GameConfig, GameState, Placed
from .types import Pos, Seat

Event = dict[str, Any]


# ---------------------------------------------------------------- set-up

def make_config(
    variant: str,
    length: str,
    players: Sequence[str],
    catalogue: Any = "standard",
    deck: Sequence[str] | None = None,
    starter: str | None = None,
) -> GameConfig:
    """A game's configuration; RecordError says what is wrong with it."""
    try:
        rules_for(variant, length, len(players))
    except ValueError as e:
        raise RecordError(str(e)) from None
    cat: Catalogue = catalogue if isinstance(catalogue, Catalogue) else parse_catalogue(catalogue)
    starter = starter or cat.starter
    if starter is None:
        raise RecordError("a custom catalogue needs the config to name its starter")
    if starter not in cat.tiles:
        raise RecordError(f"unknown tile {starter!r}: the starter is not in the catalogue")
    if deck is None:
        if cat.name != "standard":
            raise RecordError("a custom catalogue needs the config to give the deck")
        deck = [t for t in cat.deck_ids() if t != starter]
    deck = list(deck)
    for t in deck:
        if not isinstance(t, str) or t not in cat.tiles:
            raise RecordError(f"unknown tile {t!r} in the deck")
    if len(set(deck)) != len(deck) or starter in deck:
        raise RecordError("each tile is in the game once: the deck repeats a tile or the starter")
    return GameConfig(variant, length, tuple(players), cat, tuple(deck), starter)


def new_game(config: GameConfig) -> GameState:
    rules = rules_for(config.variant, config.length, len(config.players))
    n = len(config.players)
    state = GameState(
        config=config, rules=rules, board={}, frontier=set(), features=Features(),
        drawn=0, hands=[[] for _ in range(n)], discarded=[],
        boots=[rules.boots] * n, pitchforks=[rules.pitchforks] * n, spades=[rules.spades] * n,
        scores=[0] * n, retired=[0] * n,
    )
    if rules.creatures:
        state.creatures = {name: Creature(name) for name in ORDER}
    B.lay(state, config.catalogue[config.starter], "front", 0, (0, 0))
    for seat in range(n):
        _top_up(state, seat)
    return state


def _top_up(state: GameState, seat: Seat) -> None:
    hand = state.hands[seat]
    deck = state.config.deck
    while len(hand) < HAND_SIZE and state.drawn < len(deck):
        hand.append(deck[state.drawn])
        state.drawn += 1


# ---------------------------------------------------------------- the fold

def apply(state: GameState, event: Mapping[str, Any]) -> GameState:
    """The state after ``event``; raises IllegalAction and changes nothing if it is not allowed."""
    new = state.copy()
    step(new, event)
    return new


def step(state: GameState, event: Mapping[str, Any]) -> GameState:
    """Check ``event`` and apply it to ``state`` (in place); return the state."""
    if not isinstance(event, Mapping):
        raise IllegalAction("bad_event", f"an event is a JSON object, got {event!r}")
    kind = event.get("type")
    handler = _HANDLERS.get(kind)  # type: ignore[arg-type]
    if handler is None:
        raise IllegalAction("bad_event", f"unknown event type {kind!r}: expected one of "
                            + ", ".join(_HANDLERS))
    if state.finished:
        raise IllegalAction("game_finished", "the game is over: no event can follow its end")
    handler(state, event)
    state.events += 1
    return state


def _seat(state: GameState, event: Mapping[str, Any]) -> Seat:
    seat = event.get("player")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction("bad_event", f"'player' must be a seat from 0 to {state.players - 1}, "
                            f"got {seat!r}")
    return seat


def _pos(value: Any, field: str) -> Pos:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise IllegalAction("bad_event", f"'{field}' must be a position [x, y], got {value!r}")
    return (value[0], value[1])


def _rotation(event: Mapping[str, Any]) -> int:
    r = event.get("rotation")
    if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r <= 3:
        raise IllegalAction("bad_rotation", f"rotation must be 0, 1, 2 or 3, got {r!r}")
    return r


def _check_mover(state: GameState, seat: Seat) -> None:
    if state.pending:
        what = state.pending[0]
        if what[0] == "guess":
            raise IllegalAction("awaiting_guess", f"waiting for player {what[2]}'s guess for "
                                f"the {what[1]} before any move")
        raise IllegalAction("awaiting_chance", f"waiting for the {what[1]} to "
                            f"{'appear' if what[0] == 'appear' else 'hop'} before any move")
    if seat in state.resigned:
        raise IllegalAction("resigned", f"player {seat} has left the game")
    if seat != state.current:
        raise IllegalAction("not_your_turn", f"it is player {state.current}'s turn, "
                            f"not player {seat}'s")


def _place(state: GameState, event: Mapping[str, Any]) -> None:
    seat = _seat(state, event)
    _check_mover(state, seat)
    tile_id = event.get("tile")
    if tile_id not in state.hands[seat]:
        raise IllegalAction("tile_not_in_hand", f"tile {tile_id!r} is not in player {seat}'s "
                            f"hand ({', '.join(state.hands[seat]) or 'empty'})")
    face = event.get("face")
    if face not in ("front", "back"):
        raise IllegalAction("bad_face", f"face must be 'front' or 'back', got {face!r}")
    rotation = _rotation(event)
    pos = _pos(event.get("at"), "at")
    if pos in state.board:
        raise IllegalAction("occupied", f"a tile already lies at [{pos[0]}, {pos[1]}]")
    if pos not in state.frontier:
        raise IllegalAction("detached", f"[{pos[0]}, {pos[1]}] does not touch any laid tile "
                            "along a side")
    tile = state.config.catalogue[tile_id]
    why = B.mismatch(state.board, state.features, tile.oriented(face, rotation), pos)
    if why:
        raise IllegalAction("edge_mismatch", f"tile {tile_id} cannot lie at "
                            f"[{pos[0]}, {pos[1]}]: {why}")
    state.hands[seat].remove(tile_id)
    placed = B.lay(state, tile, face, rotation, pos)
    _after_move(state, seat, pos, placed, event.get("claim"), new_tile=True)


def flip_problem(state: GameState, seat: Seat, pos: Pos) -> IllegalAction | None:
    """Why the player may not flip the tile at pos at all (rotation aside)."""
    placed = state.board.get(pos)
    if placed is None:
        return IllegalAction("no_tile", f"there is no tile at [{pos[0]}, {pos[1]}] to flip")
    rules = state.rules
    if not placed.spade:
        return IllegalAction("not_flippable", f"the tile at [{pos[0]}, {pos[1]}] has no spade")
    if placed.flips >= rules.flips_per_tile:
        times = "once" if rules.flips_per_tile == 1 else f"{rules.flips_per_tile} times"
        return IllegalAction("flip_limit", f"a tile may be flipped {times} in a game; the tile "
                             f"at [{pos[0]}, {pos[1]}] has been")
    if rules.no_reflip_in_turn and pos in state.flipped_this_turn:
        return IllegalAction("flipped_this_turn", "the same tile cannot be flipped twice in "
                             "one turn")
    if state.spades[seat] <= 0:
        return IllegalAction("no_spades", f"player {seat} has no spade cards left")
    return None


def _flip(state: GameState, event: Mapping[str, Any]) -> None:
    seat = _seat(state, event)
    _check_mover(state, seat)
    pos = _pos(event.get("at"), "at")
    problem = flip_problem(state, seat, pos)
    if problem:
        raise problem
    rotation = _rotation(event)
    why = B.flip_mismatch(state, pos, B.flipped_oriented(state.board[pos], rotation))
    if why:
        raise IllegalAction("edge_mismatch", f"the tile at [{pos[0]}, {pos[1]}] cannot be "
                            f"flipped to rotation {rotation}: {why}")
    state.spades[seat] -= 1
    state.flipped_this_turn.add(pos)
    placed = B.turn_over(state, pos, rotation)
    _after_move(state, seat, pos, placed, event.get("claim"), new_tile=False)


def _claim(state: GameState, seat: Seat, placed: Placed, claim: Any) -> None:
    if claim is None:
        return
    if not isinstance(claim, Mapping) or len({"arc", "side"} & set(claim)) != 1:
        raise IllegalAction("bad_claim", "a claim is {\"arc\": 0-7} for a patch or "
                            f"{{\"side\": 0-3}} for a beast, got {claim!r}")
    rules = state.rules
    if "arc" in claim:
        arc = claim["arc"]
        if isinstance(arc, bool) or not isinstance(arc, int) or not 0 <= arc <= 7:
            raise IllegalAction("bad_claim", f"a claimed arc is 0 to 7, got {arc!r}")
        node = placed.region_nodes[placed.o.region_of_arc[arc]]
        token = "boot"
    else:
        side = claim["side"]
        if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side <= 3:
            raise IllegalAction("bad_claim", f"a claimed side is 0 to 3, got {side!r}")
        live = placed.live_segment(side)
        if live is None:
            raise IllegalAction("bad_claim", f"no beast crosses side {side} of this tile")
        node = live
        token = "pitchfork" if rules.pitchforks_for_beasts else "boot"
    asked = claim.get("token")
    if asked is not None and asked != token:
        raise IllegalAction("wrong_token", f"this feature is claimed with a {token}, not a "
                            f"{asked}" + (" (patches take boots, beasts pitchforks)"
                                          if rules.pitchforks_for_beasts else ""))
    if state.supply(token)[seat] <= 0:
        raise IllegalAction("no_token", f"player {seat} has no {token}s left in stock")
    feature = state.features.of(node)
    if feature.claims:
        raise IllegalAction("taken_feature", f"the {feature.kind_name()} already holds a token: "
                            "a claimed feature cannot be claimed again")
    state.supply(token)[seat] -= 1
    placed.token = (seat, token, node)
    state.features.edit(node).claims.append((node, seat))


def _after_move(state: GameState, seat: Seat, pos: Pos, placed: Placed, claim: Any,
                new_tile: bool) -> None:
    _claim(state, seat, placed, claim)
    feats = state.features
    roots = dict.fromkeys(feats.find(n) for n in placed.region_nodes + placed.seg_nodes
                          if n is not None)
    done = [r for r in roots if feats.roots[r].complete]
    for r in done:
        f = feats.own(r)  # scoring sends its tokens home
        kind = feature_kind(f)
        state.completed[kind] = state.completed.get(kind, 0) + 1
        _score(state, f, completed_value(f, state.rules.patch))
    if state.rules.beasts_leave:
        for r in done:
            if feats.roots[r].beast:
                _beast_completed(state, r)
        if new_tile and state.lingering is not None:
            lingering = feats.find(state.lingering)
            if any(seg.kind == "head" and n is not None and feats.find(n) != lingering
                   for seg, n in zip(placed.o.segments, placed.seg_nodes, strict=True)):
                B.remove_beast(state, lingering)
    state.pass_streak = 0
    state.moves_in_turn += 1
    if state.rules.creatures:
        _queue_creatures(state, seat)
    # rule book: a short game is knocked out while tiles are still to be played,
    # or by the move that lays the last one; after that, end-game scoring decides
    if state.rules.target is not None and (new_tile or not state.nothing_to_lay()) \
            and _knockout(state):
        return
    if state.moves_in_turn >= MOVES_PER_TURN:
        _end_turn(state)


def _score(state: GameState, f: Feature, value: int, final: bool = False) -> None:
    """Award a feature to its majority and send its tokens home (unless ``final``:
    then ``f`` is only read; otherwise it must be the state's own, Features.own)."""
    counts = f.holders(state.players)
    for s in majority(counts) if value else ():  # a feature worth nothing is no award
        state.scores[s] += value
        state.log.append({"seat": s, "points": value, "feature": describe(f),
                          "kind": feature_kind(f), "unfinished": final,
                          "event": state.events})
    if final:
        return
    token = "pitchfork" if f.beast and state.rules.pitchforks_for_beasts else "boot"
    for node, seat in f.claims:
        B.own_tile(state, state.features.node_pos[node]).token = None
        state.supply(token)[seat] += 1
    f.claims.clear()


def _beast_completed(state: GameState, root: int) -> None:
    """Completed beasts leave the board, but the last blue head always stays."""
    feats = state.features
    f = feats.roots[root]
    if f.btype == "blue" and f.heads:
        lingering = feats.find(state.lingering) if state.lingering is not None else None
        others = any(feats.find(n) not in (root, lingering)
                     for nodes in B.blue_heads(state).values() for n in nodes)
        if not others:
            if lingering is not None:
                B.remove_beast(state, lingering)
            state.lingering = root
            return
    B.remove_beast(state, root)


def _knockout(state: GameState) -> bool:
    target = state.rules.target
    assert target is not None
    if any(state.scores[s] >= target for s in state.active_seats()):
        _finish(state)
        return True
    return False


def _end_turn(state: GameState) -> None:
    _top_up(state, state.current)
    state.moves_in_turn = 0
    state.flipped_this_turn.clear()
    state.current = _next_seat(state, state.current)


def _next_seat(state: GameState, seat: Seat) -> Seat:
    for k in range(1, state.players + 1):
        s = (seat + k) % state.players
        if s not in state.resigned:
            return s
    return seat


def _pass(state: GameState, event: Mapping[str, Any]) -> None:
    seat = _seat(state, event)
    _check_mover(state, seat)
    hand = state.hands[seat]
    if hand:
        found = first_placement(state, seat)
        if found is not None:
            tile, face, rotation, pos = found
            raise IllegalAction("must_place", f"a pass is allowed only when no tile fits: tile "
                                f"{tile} fits at [{pos[0]}, {pos[1]}] ({face}, rotation "
                                f"{rotation})")
        # nothing fits: the hand leaves the game and a fresh one is dealt for this move
        state.discarded += hand
        hand.clear()
        _top_up(state, seat)
        state.pass_streak = 0
        return
    _give_up_turn(state)


def _give_up_turn(state: GameState) -> None:
    if state.nothing_to_lay():
        state.pass_streak += 1
    else:
        state.pass_streak = 0
    _end_turn(state)
    if state.pass_streak >= len(state.active_seats()):
        _end_game(state)


def _timeout(state: GameState, event: Mapping[str, Any]) -> None:
    seat = _seat(state, event)
    if state.pending and state.pending[0][0] == "guess" and state.pending[0][2] == seat:
        state.pending.pop(0)  # no guess from a player whose time ran out
        return
    _check_mover(state, seat)
    _give_up_turn(state)


def _resign(state: GameState, event: Mapping[str, Any]) -> None:
    seat = _seat(state, event)
    if seat in state.resigned:
        raise IllegalAction("resigned", f"player {seat} has already left the game")
    state.resigned.add(seat)
    state.discarded += state.hands[seat]
    state.hands[seat].clear()
    state.pending = [p for p in state.pending if not (p[0] == "guess" and p[2] == seat)]
    active = state.active_seats()
    if len(active) == 1:
        state.pending.clear()
        state.finished = True
        state.winners = active
        return
    if seat == state.current:
        state.moves_in_turn = 0
        state.flipped_this_turn.clear()
        state.current = _next_seat(state, seat)
    if state.nothing_to_lay() and state.pass_streak >= len(active):
        _end_game(state)


# ---------------------------------------------------------------- the fly and the frog

def _queue_creatures(state: GameState, mover: Seat) -> None:
    for name in ORDER:
        if state.creatures[name].status == "on_board":
            state.pending.append(("hop", name))
    for name in ORDER:
        c = state.creatures[name]
        if c.status == "waiting" and len(state.board) >= CREATURE_THRESHOLDS[name]:
            state.pending.append(("appear", name))
            for k in range(state.players):
                s = (mover + k) % state.players
                if s not in state.resigned:
                    state.pending.append(("guess", name, s))


def _expect(state: GameState, kind: str, name: Any) -> Creature:
    if name not in ORDER:
        raise IllegalAction("bad_event", f"'creature' must be 'fly' or 'frog', got {name!r}")
    if not state.pending or state.pending[0][:2] != (kind, name):
        wanted = state.pending[0] if state.pending else None
        raise IllegalAction("not_pending", f"no {kind} of the {name} is due now"
                            + (f" (due: {wanted[0]} of the {wanted[1]})" if wanted else ""))
    return state.creatures[name]


def _appear(state: GameState, event: Mapping[str, Any]) -> None:
    c = _expect(state, "appear", event.get("creature"))
    pos = _pos(event.get("at"), "at")
    if pos not in appearance_odds(state, c.name):
        raise IllegalAction("impossible_chance", f"the {c.name} appears on a tile as far as "
                            f"possible from every blue snake head, not at [{pos[0]}, {pos[1]}]")
    state.pending.pop(0)
    c.status, c.at = "on_board", pos


def _guess(state: GameState, event: Mapping[str, Any]) -> None:
    seat = _seat(state, event)
    name = event.get("creature")
    if name not in ORDER:
        raise IllegalAction("bad_event", f"'creature' must be 'fly' or 'frog', got {name!r}")
    head = state.pending[0] if state.pending else None
    if head is None or head[0] != "guess" or head[1] != name:
        raise IllegalAction("not_pending", f"no guess for the {name} is due now")
    if head[2] != seat:
        raise IllegalAction("not_your_turn", f"player {head[2]} guesses next for the {name}")
    hops = event.get("hops")
    if not (hops == "escape" or (isinstance(hops, int) and not isinstance(hops, bool)
                                 and 1 <= hops <= CREATURE_MAX_HOPS)):
        raise IllegalAction("bad_guess", f"a guess is a number of hops from 1 to "
                            f"{CREATURE_MAX_HOPS} or \"escape\", got {hops!r}")
    state.pending.pop(0)
    state.creatures[name].guesses[seat] = hops


def _hop(state: GameState, event: Mapping[str, Any]) -> None:
    c = _expect(state, "hop", event.get("creature"))
    to = _pos(event.get("to"), "to")
    if to not in hop_odds(state, c):
        where = f"[{c.at[0]}, {c.at[1]}]" if c.at else "nowhere"
        raise IllegalAction("impossible_chance", f"the {c.name} at {where} cannot hop to "
                            f"[{to[0]}, {to[1]}]")
    state.pending.pop(0)
    c.prev, c.at, c.hops = c.at, to, c.hops + 1
    if has_head(state.board[to]):
        _settle(state, c, c.hops)
    elif c.hops >= CREATURE_MAX_HOPS:
        _settle(state, c, "escape")


def _settle(state: GameState, c: Creature, outcome: int | str) -> None:
    c.status = "escaped" if outcome == "escape" else "eaten"
    c.outcome = outcome
    state.pending = [p for p in state.pending if p[1] != c.name]
    for seat, points in guess_awards(c, outcome, state.active_seats()).items():
        state.scores[seat] += points
        what = "escaped" if outcome == "escape" else f"was eaten after {outcome} hops"
        state.log.append({"seat": seat, "points": points, "feature": f"the {c.name} {what}",
                          "kind": c.name, "unfinished": False, "event": state.events})


# ---------------------------------------------------------------- the end

def _end_game(state: GameState) -> None:
    """End-game scoring: unfinished features score for their majority."""
    for c in state.creatures.values():
        if c.status == "on_board":
            _settle(state, c, "escape")
    for f in list(state.features.roots.values()):
        if f.claims and not f.complete:
            _score(state, f, unfinished_value(f), final=True)
    _finish(state)


def _finish(state: GameState) -> None:
    state.finished = True
    state.pending.clear()
    active = state.active_seats()
    best = max(state.scores[s] for s in active)
    state.winners = [s for s in active if state.scores[s] == best]


# ---------------------------------------------------------------- queries

def first_placement(state: GameState, seat: Seat) -> tuple[str, str, int, Pos] | None:
    """Some legal placement of a tile from the seat's hand, or None."""
    return next(B.iter_placements(state, state.hands[seat]), None)


@final
class AwaitedMove(TypedDict):
    """A seat's move: its number in the turn (1 or 2)."""

    kind: Literal["move"]
    player: Seat
    move: int


@final
class AwaitedGuess(TypedDict):
    """A seat's guess of where a creature will end."""

    kind: Literal["guess"]
    player: Seat
    creature: str


@final
class AwaitedChance(TypedDict):
    """A chance event (``event``: "appear" or "hop") moving a creature."""

    kind: Literal["chance"]
    player: None
    event: str
    creature: str


@final
class AwaitedNothing(TypedDict):
    """The game is over."""

    kind: Literal["finished"]
    player: None


Awaited = AwaitedMove | AwaitedGuess | AwaitedChance | AwaitedNothing
"""What the game waits for (``awaiting``)."""


def awaiting(state: GameState) -> Awaited:
    """Who or what the game waits for."""
    if state.finished:
        return {"kind": "finished", "player": None}
    if state.pending:
        head = state.pending[0]
        if head[0] == "guess":
            return {"kind": "guess", "player": head[2], "creature": head[1]}
        return {"kind": "chance", "player": None, "event": head[0], "creature": head[1]}
    return {"kind": "move", "player": state.current, "move": state.moves_in_turn + 1}


def chance_odds(state: GameState) -> dict[Pos, Any] | None:
    """The odds of each outcome of the chance event now due, or None."""
    if state.finished or not state.pending or state.pending[0][0] == "guess":
        return None
    kind, name = state.pending[0][:2]
    c = state.creatures[name]
    return appearance_odds(state, name) if kind == "appear" else hop_odds(state, c)


def chance_event(state: GameState, outcome: Pos) -> Event:
    """The event recording a drawn outcome of the chance event now due."""
    kind, name = state.pending[0][:2]
    if kind == "appear":
        return {"type": "creature_appears", "creature": name, "at": list(outcome)}
    return {"type": "hop", "creature": name, "to": list(outcome)}


_HANDLERS = {
    "place": _place,
    "flip": _flip,
    "pass": _pass,
    "timeout": _timeout,
    "resign": _resign,
    "creature_appears": _appear,
    "guess": _guess,
    "hop": _hop,
}
EVENT_TYPES = tuple(_HANDLERS)
