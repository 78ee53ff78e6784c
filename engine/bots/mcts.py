"""The strong bot: information-set Monte Carlo tree search (Cowling, Powley and
Whitehouse's single-observer ISMCTS) over the Game protocol.

Each playout starts from a fresh determinization of the root
(``Game.determinize``: the seat's view with its secrets redrawn), descends the
one tree of action sequences by UCB among the actions legal in that
determinization (each child counts how often it was available), adds one node,
plays on at random (``SearchSettings.rollout_moves`` actions, or to the end) and
backs up a reward between 0 and 1 for every seat: the result of a finished
game, or a logistic of ``Game.evaluate`` of a cut-off one. Each node keeps the
reward of the seat that chose it, so every seat plays for itself (max^n),
unless ``SearchSettings.others_policy`` names a ``bot_action`` policy: the other
seats' actions in the tree are then that policy's, one a node.
Chance and automatic events are drawn as they come and open no node.

The budget is a number of playouts, so a seed replays a move exactly. A CPU-time
guard (``SearchSettings.cpu_seconds``), counted from the call and read before
every playout, only ever cuts a search short, and says so in the log
(``engine.bots``, a warning) and in the result (``SearchResult.cut``): a cut
move is the one move that does not replay from its seed."""
from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from ..protocol import Game, SearchSettings, Seat
from .ranking import ranked

S = TypeVar("S")
E = TypeVar("E", bound=Mapping[str, object])


log = logging.getLogger("engine.bots")


@dataclass(frozen=True, slots=True)
class SearchResult(Generic[E]):
    action: E
    playouts: int
    visits: dict[str, int]
    """Playouts through each root action, by its key (``action_key``)."""
    cut: bool = False
    """Whether the CPU-time guard stopped the search before its budget."""


class _Node(Generic[E]):
    __slots__ = ("action", "mover", "children", "visits", "available", "reward", "ranked")

    def __init__(self, action: E | None, mover: Seat | None) -> None:
        self.action = action
        self.mover = mover
        self.children: dict[str, _Node[E]] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        """The sum of the mover's rewards over the playouts through this node."""
        self.ranked: set[str] | None = None
        """The keys of the actions searched below it, when ``width`` prunes them."""


def action_key(action: Mapping[str, object]) -> str:
    """An action as a key of the tree. ``repr`` is several times faster than
    JSON and the tree's hottest call; equal actions get equal keys because a
    game's ``bot_candidates`` builds each kind of action with its fields in one
    order."""
    return repr(action)


def _draw(odds: Sequence[tuple[E, Fraction]], rng: random.Random) -> E:
    pick = rng.random()
    total = 0.0
    for event, p in odds:
        total += float(p)
        if pick < total:
            return event
    return odds[-1][0]


def forced_event(game: Game[S, E], state: S, rng: random.Random) -> E | None:
    """The automatic event due, or a chance outcome drawn with its odds, or None
    when seats must act (or the game is over)."""
    event = game.automatic(state)
    if event is not None:
        return event
    chance = game.chance(state)
    return _draw(chance.outcomes, rng) if chance is not None else None


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def _margin(game: Game[S, E], state: S, seat: Seat, finished: bool) -> float:
    """The seat's lead in points: its final score less the best other's (the
    other way round when lower scores win), or its evaluation before the end."""
    if not finished:
        return game.evaluate(state, seat)
    p = game.projection(state)
    sign = -1.0 if p.better == "lower" else 1.0
    scores = [sign * float(x or 0) for x in p.scores]
    others = [v for s, v in enumerate(scores) if s != seat]
    return scores[seat] - (max(others) if others and not p.cooperative else 0.0)


def rewards(game: Game[S, E], state: S, scale: float, margin_weight: float = 0.0,
            margin_scale: float = 30.0) -> list[float]:
    """Each seat's reward for a playout ending in ``state``: 1 for a win (shared
    among the winners of a competitive game), 0 for a loss; before the end, a
    logistic of the seat's evaluation. With a ``margin_weight``, that share of
    the reward is instead a logistic of the seat's margin at the wider
    ``margin_scale`` (``SearchSettings.margin_weight``): a lead keeps its
    worth growing where the win's logistic is flat."""
    p = game.projection(state)
    seats = range(len(p.scores))
    if p.finished:
        share = 1.0 if p.cooperative else 1.0 / max(len(p.winners), 1)
        out = [share if s in p.winners else 0.0 for s in seats]
    else:
        out = [_logistic(game.evaluate(state, s) / scale) for s in seats]
    if margin_weight:
        out = [(1.0 - margin_weight) * r + margin_weight
               * _logistic(_margin(game, state, s, p.finished) / margin_scale)
               for s, r in zip(seats, out, strict=True)]
    return out


def _select(node: _Node[E], keys: list[str], c: float) -> _Node[E]:
    best, best_value = None, -math.inf
    for k in keys:
        child = node.children[k]
        value = child.reward / child.visits + c * math.sqrt(math.log(child.available)
                                                             / child.visits)
        if value > best_value:
            best, best_value = child, value
    assert best is not None
    return best


def search(game: Game[S, E], state: S, seat: Seat, rng: random.Random,
           settings: SearchSettings) -> SearchResult[E]:
    """The action the strong bot plays for ``seat`` (which must be awaited)."""
    started = time.process_time()
    first = game.determinize(state, seat, rng)
    candidates = game.bot_candidates(first, seat)
    if not candidates:
        raise ValueError(f"seat {seat} has nothing to do now")
    width = settings.width
    if width is not None and len(candidates) > width:
        candidates = [a for _, a in ranked(game, first, seat, rng)[:width]]
    if len(candidates) == 1:
        return SearchResult(candidates[0], 0, {action_key(candidates[0]): 0})
    root_keys = [action_key(a) for a in candidates]
    root: _Node[E] = _Node(None, None)
    c = settings.exploration
    playouts = 0
    cut = False
    while playouts < settings.playouts:
        if playouts and time.process_time() - started >= settings.cpu_seconds:
            cut = True
            log.warning("%s: the strong bot's search stopped at %d of its %d playouts, "
                        "after %.2f CPU s (the guard: %.2f s); this move does not replay "
                        "from its seed", game.title, playouts, settings.playouts,
                        time.process_time() - started, settings.cpu_seconds)
            break
        d = first if playouts == 0 else game.determinize(state, seat, rng)
        playouts += 1
        node, path, depth = root, [root], 0
        expanded = False
        while not expanded:
            event = forced_event(game, d, rng)
            if event is not None:
                d = game.fold(d, event)
                continue
            wait = game.awaiting(d)
            if wait.finished:
                break
            if node is root:
                actor, actions, keys = seat, candidates, root_keys
            else:
                actor = wait.players[0] if len(wait.players) == 1 else rng.choice(wait.players)
                if actor != seat and settings.others_policy is not None:
                    actions = [game.bot_action(d, actor, rng, settings.others_policy)]
                    keys = [action_key(actions[0])]
                else:
                    actions = game.bot_candidates(d, actor)
                    keys = [action_key(a) for a in actions]
                    if width is not None and depth < settings.ranked_depth and len(keys) > width:
                        keys, actions = _prune(game, d, actor, rng, node, width, keys, actions)
            untried = [i for i, k in enumerate(keys) if k not in node.children]
            for k in keys:
                if k in node.children:
                    node.children[k].available += 1
            if untried:
                i = rng.choice(untried)
                child = node.children[keys[i]] = _Node(actions[i], actor)
                child.available = 1
                expanded = True
            else:
                child = _select(node, keys, c)
            assert child.action is not None
            d = game.fold(d, child.action)
            node = child
            path.append(node)
            depth += 1
        d = _rollout(game, d, rng, settings)
        reward = rewards(game, d, settings.evaluation_scale, settings.margin_weight,
                         settings.margin_scale)
        for n in path:
            n.visits += 1
            if n.mover is not None:
                n.reward += reward[n.mover]
    visits = {k: root.children[k].visits if k in root.children else 0 for k in root_keys}
    best = max(range(len(root_keys)), key=lambda i: (
        visits[root_keys[i]], root.children[root_keys[i]].reward
        if root_keys[i] in root.children else 0.0))
    return SearchResult(candidates[best], playouts, visits, cut)


def _prune(game: Game[S, E], state: S, actor: Seat, rng: random.Random, node: _Node[E],
           width: int, keys: list[str], actions: list[E]) -> tuple[list[str], list[E]]:
    """The node's ``width`` best actions by one-ply evaluation, ranked the first
    time a playout reaches it and kept; later determinizations search those of
    them they allow (all their actions when they allow none)."""
    if node.ranked is None:
        node.ranked = {action_key(a) for _, a in ranked(game, state, actor, rng)[:width]}
    kept = [i for i, k in enumerate(keys) if k in node.ranked]
    if not kept:
        return keys, actions
    return [keys[i] for i in kept], [actions[i] for i in kept]


def play_out(game: Game[S, E], state: S, rng: random.Random, limit: int | None,
             choose: Callable[[S, Seat, random.Random], E]) -> S:
    """``state`` played on: chance and forced events as they fall (drawn from
    ``rng``), each seat's action by ``choose``, until the game ends or ``limit``
    actions (None: no limit) have been chosen. Where several seats act at once,
    one of them drawn at random acts first."""
    moves = 0
    while limit is None or moves < limit:
        event = forced_event(game, state, rng)
        if event is None:
            wait = game.awaiting(state)
            if wait.finished:
                break
            actor = wait.players[0] if len(wait.players) == 1 else rng.choice(wait.players)
            event = choose(state, actor, rng)
            moves += 1
        state = game.fold(state, event)
    return state


def _rollout(game: Game[S, E], state: S, rng: random.Random, settings: SearchSettings) -> S:
    policy = settings.rollout_policy
    return play_out(game, state, rng, settings.rollout_moves,
                    lambda s, actor, r: game.bot_action(s, actor, r, policy))
