"""Two players the computer players are measured against, written from the rule
books rather than from the bots' own policies (``engine.bots``): ``random``
plays any move the rules allow (Marram's claims included), each equally
likely; ``greedy`` plays the move that leaves the best score difference one
ply ahead (the seat's points as the rules count them now, less the best other
seat's), ties broken at random.

Both look at the seat's determinization (``Game.determinize``: its view with
the secrets redrawn), so they know no more than a player would. The points "as
the rules count them now" are each game's own scoring rule applied at once:
Marram's score track, Pond's piles, each Animals on Board ark as it would score
if the game ended (the rule book's ``score_ark``), each Make-a-snake snake's
tongue-to-tail distance with the tail laid at its open end now (the rule
book's measure; lower wins), and for any other game its projection's scores."""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.protocol import AnyGame, Seat
from engine.replay import apply

Player = Callable[[AnyGame, Any, Seat, random.Random], Mapping[str, object]]


def _marram(state: Any) -> list[float]:
    return [float(s) for s in state.scores]


def _pond(state: Any) -> list[float]:
    return [float(p) for p in state.piles]


def _animals_on_board(state: Any) -> list[float]:
    from engine.animals_on_board.scoring import score_ark

    return [float(score_ark(state.arks[s], state.crates[s]).points)
            for s in range(state.seats)]


def _make_a_snake(state: Any) -> list[float]:
    from engine.make_a_snake.scoring import distance_hundredths, touched
    from engine.make_a_snake.snake import lay_tail

    out = []
    for snake in state.snakes:
        if state.lollipop:
            out.append(float(len(touched(snake))))
            continue
        ended = snake.copy()
        ended.tail = lay_tail(*ended.open_end())
        d = distance_hundredths(ended)
        out.append(-float(d) if d is not None else -1e9)
    return out


def _marram_moves(game: AnyGame, state: Any, seat: Seat) -> list[Mapping[str, object]]:
    """Marram's legal actions with each claim the rules allow on a place or a
    flip (``actions.claim_options``): the legal actions list them unclaimed,
    the claim being a part of the move a player picks afterwards."""
    from engine.marram.actions import claim_options

    out: list[Mapping[str, object]] = []
    for action in game.legal_actions(state, seat):
        out.append(action)
        if action["type"] in ("place", "flip"):
            out += [{**action, "claim": claim} for claim in claim_options(state, dict(action))]
    return out


RULE_MOVES: Mapping[str, Callable[[AnyGame, Any, Seat], list[Mapping[str, object]]]] = {
    "marram": _marram_moves,
}


def moves(game: AnyGame, state: Any, seat: Seat) -> list[Mapping[str, object]]:
    """Every move the seat may make by the rules (``Game.legal_actions``, and
    Marram's claims)."""
    rule = RULE_MOVES.get(game.key)
    return rule(game, state, seat) if rule is not None else list(game.legal_actions(state, seat))


RULE_SCORES: Mapping[str, Callable[[Any], list[float]]] = {
    "marram": _marram, "pond": _pond, "animals_on_board": _animals_on_board,
    "make_a_snake": _make_a_snake,
}


def _scores(game: AnyGame, state: Any) -> list[float]:
    rule = RULE_SCORES.get(game.key)
    if rule is not None:
        return rule(state)
    p = game.projection(state)
    sign = -1.0 if p.better == "lower" else 1.0
    return [sign * float(s or 0) for s in p.scores]


def margin(game: AnyGame, state: Any, seat: Seat) -> float:
    """The seat's points now less the best other seat's (its own alone when it
    plays alone or with the others); a finished game won or lost counts most."""
    scores = _scores(game, state)
    others = [v for s, v in enumerate(scores) if s != seat]
    p = game.projection(state)
    value = scores[seat] - (max(others) if others and not p.cooperative else 0.0)
    if p.finished:
        value += 1e9 if seat in p.winners else -1e9
    return value


def uniform_random(game: AnyGame, state: Any, seat: Seat,
                   rng: random.Random) -> Mapping[str, object]:
    """Any move the rules allow (``moves``), each equally likely."""
    seen = game.determinize(state, seat, rng)
    return rng.choice(moves(game, seen, seat))


def greedy(game: AnyGame, state: Any, seat: Seat,
           rng: random.Random) -> Mapping[str, object]:
    """The legal action with the best ``margin`` right after it."""
    seen = game.determinize(state, seat, rng)
    best: list[Mapping[str, object]] = []
    best_value = -float("inf")
    for action in moves(game, seen, seat):
        value = margin(game, apply(game, seen, action), seat)
        if value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return rng.choice(best)


BASELINES: Mapping[str, Player] = {"random": uniform_random, "greedy": greedy}
