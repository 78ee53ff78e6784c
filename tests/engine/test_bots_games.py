"""Computer players of Pond, Animals on Board and Make-a-snake: each level sees
only its seat's view (the same move, and for the strong bot the same search,
whatever the secrets), the moves a bot weighs are legal, and the evaluation
drives the medium bot to what a player would call the good move."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import registry
from engine.bots import choose
from engine.bots.mcts import search
from engine.protocol import read_options
from engine.replay import apply
from engine.selfplay import secret_seed

POND = registry.get("pond")
ANIMALS = registry.get("animals_on_board")
SNAKE = registry.get("make_a_snake")
LEVELS = ("easy", "medium", "strong")


def played(game, seed: int, events: int, players: int = 2, **options):
    """A position after ``events`` events of random play (chance drawn at random)."""
    opts = read_options(game, options, players)
    state = game.start(game.setup(opts, ["ann", "bob", "cat", "dan"][:players],
                                  secret_seed(seed)))
    rng = random.Random(seed)
    for _ in range(events):
        wait = game.awaiting(state)
        assert not wait.finished
        event = game.automatic(state)
        if event is None and wait.chance is not None:
            outcomes = game.chance(state).outcomes
            event = rng.choice(outcomes)[0]
        elif event is None:
            event = game.bot_action(state, rng.choice(wait.players), rng)
        state = game.fold(state, event)
    return state


def same_for_every_level(game, state, other, seat, playouts: int = 60):
    """Every level plays the same in both states, and the strong search spends
    the same playouts on every root action."""
    settings = replace(game.search, playouts=playouts, cpu_seconds=1e9)
    for level in LEVELS:
        mine = choose(game, state, seat, level, random.Random(5), settings)
        theirs = choose(game, other, seat, level, random.Random(5), settings)
        assert mine == theirs, level
    mine = search(game, state, seat, random.Random(6), settings)
    theirs = search(game, other, seat, random.Random(6), settings)
    assert mine.visits == theirs.visits and mine.playouts == theirs.playouts == playouts


# ---------------------------------------------------------------- Animals on Board

def swap_tiles(state, a: str, b: str):
    """``state`` with tiles ``a`` and ``b`` trading places everywhere (stack,
    middle, arks, keeps, the face-down tile)."""
    def sw(t):
        return b if t == a else a if t == b else t

    out = ANIMALS.copy(state)
    out.config = replace(state.config, deck=tuple(sw(t) for t in state.config.deck))
    out.drawn = [[sw(t) for t in d] for d in state.drawn]
    out.kept = [None if t is None else sw(t) for t in state.kept]
    out.arks = [[sw(t) for t in ark] for ark in state.arks]
    out.unseen = [[sw(t) for t in u] for u in state.unseen]
    out.middle = [sorted(sw(t) for t in group) for group in state.middle]
    out.face_down = None if state.face_down is None else sw(state.face_down)
    return out


def animals_in_play(seed: int, events: int):
    """A position of a round in which the other seat has taken the face-down tile."""
    for tries in range(200):
        state = played(ANIMALS, seed + 1000 * tries, events)
        wait = ANIMALS.awaiting(state)
        if (not wait.finished and not state.setup and state.face_down is not None
                and state.stack() >= 2 and len(state.unseen[1 - wait.players[0]]) >= 2):
            return state
    raise AssertionError("no such position")


def test_an_animals_bot_plays_the_same_whatever_it_cannot_see():
    state = animals_in_play(seed=3, events=14)
    seat = ANIMALS.awaiting(state).players[0]
    rival = 1 - seat
    stack = state.config.deck[state.next_draw:]
    other = swap_tiles(state, state.face_down, stack[0])  # another face-down tile
    other = swap_tiles(other, other.unseen[rival][0], stack[1])  # another secret keep
    taken_face_down = other.unseen[rival][1]
    other = swap_tiles(other, taken_face_down, stack[-1])  # another tile taken face down
    rest = list(other.config.deck[other.next_draw:])
    other.config = replace(other.config, deck=other.config.deck[:other.next_draw]
                           + tuple(reversed(rest)))  # and the stack in another order
    assert other.face_down != state.face_down and other.arks[rival] != state.arks[rival]
    assert ANIMALS.view(other, seat) == ANIMALS.view(state, seat)
    same_for_every_level(ANIMALS, state, other, seat)


def test_an_animals_bot_keeps_the_same_whatever_the_others_drew():
    state = played(ANIMALS, seed=4, events=1)  # one seat has kept in secret
    seat = ANIMALS.awaiting(state).players[0]
    rival = 1 - seat
    assert state.setup and state.kept[rival] is not None
    stack = state.config.deck[state.next_draw:]
    other = state
    for i, tile in enumerate(state.drawn[rival]):
        other = swap_tiles(other, tile, stack[i])
    assert other.kept[rival] != state.kept[rival]
    assert ANIMALS.view(other, seat) == ANIMALS.view(state, seat)
    same_for_every_level(ANIMALS, state, other, seat)


def test_animals_determinize_keeps_what_the_seat_saw_and_redraws_the_rest():
    state = animals_in_play(seed=5, events=16)
    seat = ANIMALS.awaiting(state).players[0]
    rival = 1 - seat
    d = ANIMALS.determinize(state, seat, random.Random(1))
    assert ANIMALS.view(d, seat) == ANIMALS.view(state, seat)
    assert sorted(d.config.deck) == sorted(state.config.deck)
    public = [t for t in state.arks[rival] if t not in state.unseen[rival]]
    assert d.arks[rival][:len(public)] == public  # the groups it took face up stay
    assert len(d.arks[rival]) == len(state.arks[rival])
    guesses = {tuple(ANIMALS.determinize(state, seat, random.Random(s)).unseen[rival])
               for s in range(20)}
    assert len(guesses) > 10  # the secrets are drawn anew, not copied


def test_animals_candidates_are_legal_and_few():
    state = played(ANIMALS, seed=2, events=2)  # the first turn: one group of 9
    seat = ANIMALS.awaiting(state).players[0]
    legal = ANIMALS.legal_actions(state, seat)
    candidates = ANIMALS.bot_candidates(state, seat)
    assert len(legal) > 500 and 10 < len(candidates) < 40
    for action in candidates:
        apply(ANIMALS, state, action)
    # every tile alone can be split off
    singles = {a["part"][0] for a in candidates if a["type"] == "split" and len(a["part"]) == 1}
    assert len(singles) == len(state.middle[0])


def test_animals_medium_buys_a_herd():
    from tests.engine.animals_on_board.helpers import keep, play, split, start, take

    # ann keeps A5, bob B1; the middle: A3 A4 B2 C1-C4 D1 and E1 face down. Ann
    # splits A3 A4 off (2 crates now), bob splits B2 off: A3 A4 on A5 is a herd
    # of three, 15 points for 2 crates
    state = start("A5", "C1", "C2", "B1", "C3", "C4", "A4", "A3", "B2", "D1", "E1")
    state = play(state, keep(0, "A5"), keep(1, "B1"))
    state = play(state, split(0, 0, "A3", "A4"), split(1, 0, "B2"))
    groups = [list(g) for g in state.middle]
    move = choose(ANIMALS, state, 0, "medium", random.Random(1)).action
    assert move == take(0, groups.index(["A3", "A4"])), (groups, move)


def test_animals_candidates_are_those_of_the_legal_actions():
    """``candidates`` lists its splits without listing every legal split: the
    same actions as picking them out of ``legal_actions``, in the same order."""
    from engine.animals_on_board.bots import SPLITS_IN_FULL, candidates

    for seed in range(8):
        state = played(ANIMALS, seed=seed, events=0)
        rng = random.Random(seed)
        while not ANIMALS.awaiting(state).finished:
            seat = rng.choice(ANIMALS.awaiting(state).players)
            legal = ANIMALS.legal_actions(state, seat)
            mine = candidates(state, seat)
            assert [a for a in mine if a["type"] != "split"] == \
                [a for a in legal if a["type"] != "split"]
            small = [a for a in legal if a["type"] == "split"
                     and len(state.middle[a["group"]]) <= SPLITS_IN_FULL]
            assert [a for a in mine if a["type"] == "split"
                    and len(state.middle[a["group"]]) <= SPLITS_IN_FULL] == small
            for action in mine:
                apply(ANIMALS, state, action)  # legal (a part may list "?" first)
            state = ANIMALS.fold(state, rng.choice(mine))


def test_animals_greedy_policy_plays_legal_actions_deterministically():
    """The playouts' policy: a legal action, the same for a seed, and the one
    the medium bot's evaluation likes best."""
    from engine.animals_on_board.bots import evaluate

    for seed in range(6):
        state = played(ANIMALS, seed=seed, events=0)
        rng = random.Random(seed)
        while not ANIMALS.awaiting(state).finished:
            seat = rng.choice(ANIMALS.awaiting(state).players)
            action = ANIMALS.bot_action(state, seat, random.Random(seed), "greedy")
            assert action == ANIMALS.bot_action(state, seat, random.Random(seed), "greedy")
            apply(ANIMALS, state, action)  # legal
            best = max(evaluate(apply(ANIMALS, state, a), seat)
                       for a in ANIMALS.bot_candidates(state, seat))
            assert evaluate(apply(ANIMALS, state, action), seat) == best
            state = ANIMALS.fold(state, action)


def test_animals_strong_search_plays_its_rollouts_greedily_and_replays():
    assert ANIMALS.search.rollout_policy in ANIMALS.bot_policies
    state = animals_in_play(seed=7, events=12)
    seat = ANIMALS.awaiting(state).players[0]
    settings = replace(ANIMALS.search, playouts=80, cpu_seconds=1e9)
    first = search(ANIMALS, state, seat, random.Random(3), settings)
    again = search(ANIMALS, state, seat, random.Random(3), settings)
    assert first == again and first.playouts == 80
    apply(ANIMALS, state, first.action)


def test_every_game_declares_its_strong_bots_rollout_policy():
    for game in registry.games():
        assert game.search.rollout_policy in game.bot_policies, game.key


# ---------------------------------------------------------------- Make-a-snake

def other_stacks(state):
    """The same position with every stack's untaken tiles in another order."""
    other = SNAKE.copy(state)
    other.stacks = {c: tiles[:state.drawn[c]] + tuple(reversed(tiles[state.drawn[c]:]))
                    for c, tiles in state.stacks.items()}
    assert other.stacks != state.stacks
    assert SNAKE.view(other, 0) == SNAKE.view(state, 0)
    return other


@pytest.mark.parametrize("mode", ["competitive", "lollipop"])
def test_a_snake_bot_plays_the_same_whatever_the_stacks_hold(mode):
    state = played(SNAKE, seed=7, events=13, mode=mode)  # a take is awaited
    assert state.phase == "take"
    seat = SNAKE.awaiting(state).players[0]
    same_for_every_level(SNAKE, state, other_stacks(state), seat, playouts=40)


def test_snake_determinize_redraws_the_untaken_tiles_only():
    state = played(SNAKE, seed=8, events=16)
    mine = SNAKE.determinize(state, 0, random.Random(2))
    theirs = SNAKE.determinize(other_stacks(state), 0, random.Random(2))
    assert mine.stacks == theirs.stacks
    for colour, tiles in state.stacks.items():
        taken = state.drawn[colour]
        assert mine.stacks[colour][:taken] == tiles[:taken]
        assert sorted(mine.stacks[colour]) == sorted(tiles)
    assert state.stacks == played(SNAKE, seed=8, events=16).stacks  # the input untouched


def test_snake_medium_connects_the_side_that_brings_the_tail_nearest():
    from engine.make_a_snake.bots import laid_with, tail_distance

    for seed in range(6):
        state = played(SNAKE, seed=seed, events=14)  # a connect is awaited
        assert state.phase == "connect"
        seat = state.current
        sides = [a["side"] for a in SNAKE.legal_actions(state, seat)]
        if len(sides) < 2:
            continue
        distances = {side: tail_distance(laid_with(state, side)) for side in sides}
        move = choose(SNAKE, state, seat, "medium", random.Random(1)).action
        assert distances[move["side"]] == min(distances.values())


# ---------------------------------------------------------------- Pond

def pond_board(rows: list[str], current: int = 0):
    """A Pond position from rows of ``.etfETF`` (light lower case)."""
    from engine.pond.pieces import PIECES

    state = played(POND, seed=1, events=0)
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            state.board[(x, y)] = None if c == "." else PIECES[c.isupper()]["etf".index(c.lower())]
    state.current = current
    state.seen = {state.key(): 1}
    return state


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_pond_bots_make_the_set_that_scores_their_own_pieces(level):
    # light to move: an egg below (or beside) the egg at 2,0 develops it into a
    # tadpole, making a row of three light tadpoles: three pieces for light
    state = pond_board(["tte..",
                        ".....",
                        ".....",
                        ".....",
                        "....."])
    assert POND.evaluate(state, 0) == POND.evaluate(state, 1) * -1
    settings = replace(POND.search, playouts=200)
    move = choose(POND, state, 0, level, random.Random(1), settings).action
    after = apply(POND, state, move)
    assert after.piles == [3, 0], move


def test_pond_evaluation_counts_piles_first():
    ahead = pond_board(["T....", ".....", ".....", ".....", "....."])
    ahead.piles = [3, 0]
    behind = pond_board(["tttt.", ".....", ".....", ".....", "....."])
    assert POND.evaluate(ahead, 0) > POND.evaluate(behind, 0) > 0
    assert POND.evaluate(ahead, 1) == -POND.evaluate(ahead, 0)
