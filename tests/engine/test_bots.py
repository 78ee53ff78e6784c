"""Computer players over the protocol: what each level plays, that a bot never
learns a secret, that a seed replays a strong move, and the arena command."""
from __future__ import annotations

import logging
import random
from dataclasses import replace

import pytest

from engine import registry
from engine.bots import choose
from engine.bots.arena import run as arena
from engine.bots.arena import wilson
from engine.bots.mcts import rewards, search
from engine.cli import main
from engine.protocol import SearchSettings, read_options
from engine.replay import apply
from engine.selfplay import secret_seed

from .tictactoe import GAME as TTT

MARRAM = registry.get("marram")
FAST = SearchSettings(playouts=200)


@pytest.fixture(autouse=True)
def tictactoe():
    registry.register(TTT)
    yield TTT
    registry.unregister(TTT.key)


def board(cells: str, **options):
    """A tic-tac-toe position from 'XO.' cells, the player to move deduced."""
    state = TTT.start(TTT.setup(read_options(TTT, options, 2), ["ann", "bob"], "s"))
    for i, c in enumerate(cells):
        state.cells[i] = None if c == "." else "XO".index(c)
    state.current = 0 if cells.count("X") == cells.count("O") else 1
    return state


def marram_midgame(seed: int = 3, events: int = 40, **options):
    opts = read_options(MARRAM, options, 2)
    state = MARRAM.start(MARRAM.setup(opts, ["ann", "bob"], secret_seed(seed)))
    rng = random.Random(seed)
    for _ in range(events):
        event = MARRAM.automatic(state) or MARRAM.bot_action(
            state, MARRAM.awaiting(state).players[0], rng)
        state = MARRAM.fold(state, event)
    return state


# ---------------------------------------------------------------- the levels

@pytest.mark.parametrize("level", ["medium", "strong"])
def test_medium_and_strong_take_a_win_in_one(level):
    # X to move: X . X / O O . / . . .  -> cell 1 wins (cell 5 only blocks)
    state = board("X.XOO....")
    move = choose(TTT, state, 0, level, random.Random(1), FAST)
    assert move.action == {"type": "mark", "player": 0, "cell": 1}


@pytest.mark.parametrize("level", ["medium", "strong"])
def test_medium_and_strong_block_a_line_they_cannot_beat(level):
    # O to move: X X . / . O . / . . .  -> only cell 2 stops X
    state = board("XX..O....")
    move = choose(TTT, state, 1, level, random.Random(1), FAST)
    assert move.action == {"type": "mark", "player": 1, "cell": 2}


def value(cells: str) -> int:
    """Perfect play's result for the player to move: 1 win, 0 draw, -1 loss."""
    mover = board(cells).current
    best = None
    for i, c in enumerate(cells):
        if c != ".":
            continue
        after = cells[:i] + "XO"[mover] + cells[i + 1:]
        state = board(after)
        TTT._score(state)
        if state.winners == [mover]:
            return 1
        best = max(best if best is not None else -1, 0 if state.finished else -value(after))
    return 0 if best is None else best


def forced_wins() -> list[str]:
    """Positions (X to move, two or four marks) X wins by force but not at once."""
    import itertools
    found = []
    for xs in itertools.combinations(range(9), 2):
        for os in itertools.combinations(sorted(set(range(9)) - set(xs)), 2):
            cells = "".join("X" if i in xs else "O" if i in os else "." for i in range(9))
            immediate = any(value_after_is_win(cells, i) for i in range(9) if cells[i] == ".")
            if not immediate and value(cells) == 1:
                found.append(cells)
    return found


def value_after_is_win(cells: str, i: int) -> bool:
    state = board(cells[:i] + "X" + cells[i + 1:])
    TTT._score(state)
    return state.winners == [0]


def test_strong_keeps_a_forced_win_that_takes_a_fork():
    positions = forced_wins()
    assert len(positions) > 10
    for cells in positions[::len(positions) // 8]:
        move = choose(TTT, board(cells), 0, "strong", random.Random(2),
                      SearchSettings(playouts=1500))
        i = move.action["cell"]
        after = cells[:i] + "X" + cells[i + 1:]
        assert value(after) == -1, (cells, i)  # O, to move, loses whatever it does


def test_easy_keeps_the_better_of_two_random_actions(monkeypatch):
    state = board("XX.OO....")  # X to move: cell 2 makes three in a row
    drawn = iter([{"type": "mark", "player": 0, "cell": 7},
                  {"type": "mark", "player": 0, "cell": 2}])
    monkeypatch.setattr(TTT, "bot_action", lambda state, seat, rng, policy="random": next(drawn))
    assert choose(TTT, state, 0, "easy", random.Random(1)).action["cell"] == 2


def test_easy_may_play_any_legal_action():
    state = board("XO.......")
    seen = {choose(TTT, state, 0, "easy", random.Random(s)).action["cell"]
            for s in range(200)}
    assert seen == {2, 3, 4, 5, 6, 7, 8}


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="levels are easy, medium, strong"):
        choose(TTT, board("........."), 0, "grandmaster", random.Random(1))


def test_marram_candidates_are_legal_and_include_claims():
    state = marram_midgame(events=6)
    seat = MARRAM.awaiting(state).players[0]
    candidates = MARRAM.bot_candidates(state, seat)
    assert any(a.get("claim") for a in candidates)
    assert len(candidates) > len(MARRAM.legal_actions(state, seat))
    for action in candidates:
        apply(MARRAM, state, action)  # raises IllegalAction for an illegal one


def marram_played(seed: int, events: int, level: str = "medium"):
    """A position after ``events`` events of bots of ``level`` (medium bots claim
    much, so many claims are blocked by tokens already out)."""
    opts = read_options(MARRAM, {}, 2)
    state = MARRAM.start(MARRAM.setup(opts, ["ann", "bob"], secret_seed(seed)))
    rng = random.Random(seed)
    for _ in range(events):
        event = MARRAM.automatic(state) or choose(
            MARRAM, state, MARRAM.awaiting(state).players[0], level, rng).action
        state = MARRAM.fold(state, event)
    return state


@pytest.mark.parametrize("seed, events", [(1, 8), (2, 16), (3, 24)])
def test_marram_candidates_offer_exactly_the_claims_the_rules_allow(seed, events):
    from engine.marram.actions import claim_options

    state = marram_played(seed, events)
    seat = MARRAM.awaiting(state).players[0]
    offered: dict[str, set[str]] = {}
    for action in MARRAM.bot_candidates(state, seat):
        if action["type"] == "place":
            bare = {**action, "claim": None}
            offered.setdefault(repr(bare), set()).add(repr(action["claim"]))
    assert len(offered) > 10
    blocked = 0
    for key, claims in list(offered.items())[::3]:
        bare = eval(key)  # the action's repr, as the candidates wrote it
        allowed = claim_options(state, bare)
        assert claims == {"None"} | {repr(c) for c in allowed}, bare
        tile = state.config.catalogue[bare["tile"]].oriented(bare["face"], bare["rotation"])
        blocked += len(tile.regions) + len(tile.segments) - len(allowed)
    assert blocked > 0 or state.boots[seat] == 0  # the positions do test blocked claims


def test_marram_medium_completes_and_claims_what_scores_most():
    state = marram_midgame(seed=5, events=20)
    seat = MARRAM.awaiting(state).players[0]
    move = choose(MARRAM, state, seat, "medium", random.Random(1))
    values = [MARRAM.evaluate(apply(MARRAM, state, a), seat)
              for a in MARRAM.bot_candidates(state, seat)]
    assert MARRAM.evaluate(apply(MARRAM, state, move.action), seat) == max(values)


def test_the_quick_fit_agrees_with_the_rules_reason_everywhere():
    from engine.marram import board as B

    checked = misfits = 0
    for seed, events in ((1, 20), (2, 50), (4, 80)):
        state = marram_midgame(seed=seed, events=events, variant="pitchfork")
        for tile in list(state.config.catalogue.tiles.values())[::4]:
            for face in ("front", "back"):
                for rotation in range(4):
                    o = tile.oriented(face, rotation)
                    for pos in state.frontier:
                        quick = B.fits(state.board, state.features, o, pos)
                        assert quick == (B.mismatch(state.board, state.features, o, pos)
                                         is None), (tile.id, face, rotation, pos)
                        checked += 1
                        misfits += not quick
    assert checked > 1000 and 0 < misfits < checked


# ---------------------------------------------------------------- secrets

def other_deck_order(state, seed: int = 99):
    """The same position with the undrawn tiles in another order: what differs is
    exactly what no seat may see."""
    other = state.copy()
    deck = state.config.deck
    rest = list(deck[state.drawn:])
    random.Random(seed).shuffle(rest)
    other.config = replace(state.config, deck=deck[:state.drawn] + tuple(rest))
    assert other.config.deck != deck and MARRAM.view(other, 0) == MARRAM.view(state, 0)
    return other


def test_marram_determinize_redraws_only_the_unseen_tiles():
    state = marram_midgame()
    other = other_deck_order(state)
    mine = MARRAM.determinize(state, 0, random.Random(7))
    theirs = MARRAM.determinize(other, 0, random.Random(7))
    assert mine.config.deck == theirs.config.deck  # nothing of the true order is left
    assert mine.config.deck[:state.drawn] == state.config.deck[:state.drawn]
    assert sorted(mine.config.deck[state.drawn:]) == sorted(state.config.deck[state.drawn:])
    assert mine.config.deck != MARRAM.determinize(state, 0, random.Random(8)).config.deck
    assert MARRAM.view(mine, 0) == MARRAM.view(state, 0)


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_a_marram_bot_plays_the_same_whatever_the_deck_order(level):
    state = marram_midgame()
    other = other_deck_order(state)
    seat = MARRAM.awaiting(state).players[0]
    settings = replace(MARRAM.search, playouts=60)
    mine = choose(MARRAM, state, seat, level, random.Random(11), settings)
    theirs = choose(MARRAM, other, seat, level, random.Random(11), settings)
    assert mine == theirs


def test_the_strong_search_itself_is_blind_to_the_deck_order():
    # not only the move: every playout count of the search is the same
    state = marram_midgame(seed=8, events=30)
    other = other_deck_order(state, seed=5)
    seat = MARRAM.awaiting(state).players[0]
    settings = replace(MARRAM.search, playouts=80)
    mine = search(MARRAM, state, seat, random.Random(4), settings)
    theirs = search(MARRAM, other, seat, random.Random(4), settings)
    assert mine.visits == theirs.visits and mine.action == theirs.action


def test_a_tictactoe_bot_cannot_see_the_other_seats_secret_first_cell():
    state = board(".........", opening="secret")
    chose_centre, chose_corner = TTT.copy(state), TTT.copy(state)
    chose_centre.chosen[0], chose_corner.chosen[0] = 4, 0
    assert TTT.view(chose_centre, 1) == TTT.view(chose_corner, 1)
    for level in ("easy", "medium", "strong"):
        a = choose(TTT, chose_centre, 1, level, random.Random(3), FAST)
        b = choose(TTT, chose_corner, 1, level, random.Random(3), FAST)
        assert a == b


# ---------------------------------------------------------------- budget and replay

def test_a_strong_move_replays_for_its_seed_and_spends_its_playouts():
    state = marram_midgame(seed=4)
    seat = MARRAM.awaiting(state).players[0]
    settings = replace(MARRAM.search, playouts=50)
    first = search(MARRAM, state, seat, random.Random(9), settings)
    again = search(MARRAM, state, seat, random.Random(9), settings)
    assert first == again
    assert first.playouts == 50 and sum(first.visits.values()) == 50


def test_width_searches_only_the_best_root_actions_by_one_ply_evaluation():
    from engine.bots.mcts import action_key
    from engine.bots.ranking import ranked

    state = marram_played(seed=6, events=10)
    seat = MARRAM.awaiting(state).players[0]
    settings = replace(MARRAM.search, playouts=40, width=5)
    result = search(MARRAM, state, seat, random.Random(3), settings)
    values = {action_key(a): v for v, a in ranked(MARRAM, state, seat, random.Random(3))}
    assert len(values) > 5 and len(result.visits) == 5
    searched = [values[k] for k in result.visits]
    left_out = [v for k, v in values.items() if k not in result.visits]
    assert min(searched) >= max(left_out)  # ties at the cut go either way


def test_others_policy_plays_the_other_seats_moves_in_the_tree(monkeypatch):
    calls = []
    played = TTT.bot_action

    def counted(state, seat, rng, policy="random"):
        calls.append((seat, policy))
        return played(state, seat, rng, policy)

    monkeypatch.setattr(TTT, "bot_action", counted)
    state = board("X.XOO....")  # X to move, cell 1 wins
    judged_at_once = SearchSettings(playouts=100, rollout_moves=0)
    search(TTT, state, 0, random.Random(2), judged_at_once)
    assert calls == []  # without it the tree branches on every seat's actions
    result = search(TTT, state, 0, random.Random(2),
                    replace(judged_at_once, others_policy="first"))
    assert calls and set(calls) == {(1, "first")}  # the other seat's, never the searcher's
    assert result.action == {"type": "mark", "player": 0, "cell": 1}


def test_the_cpu_guard_cuts_a_search_short_and_says_so(caplog):
    state = board(".........")
    with caplog.at_level(logging.WARNING, logger="engine.bots"):
        result = search(TTT, state, 0, random.Random(1),
                        SearchSettings(playouts=10**9, cpu_seconds=1e-9))
    assert result.playouts == 1 and result.cut  # the first reading after a playout
    assert "stopped at 1 of its 1000000000 playouts" in caplog.text
    assert "does not replay" in caplog.text


def test_a_search_within_the_guard_spends_its_whole_budget_and_logs_nothing(caplog):
    with caplog.at_level(logging.WARNING, logger="engine.bots"):
        result = search(TTT, board("........."), 0, random.Random(1),
                        SearchSettings(playouts=37, cpu_seconds=60.0))
    assert result.playouts == 37 and not result.cut and caplog.text == ""


def test_the_margin_share_of_a_reward_keeps_a_bigger_lead_worth_more():
    # two positions before the end, judged by a game whose evaluation is the lead
    class Lead:
        def __init__(self, lead: float) -> None:
            self.lead = lead

    class LeadGame:
        def projection(self, state):
            return TTT.projection(board("........."))  # not finished, two seats

        def evaluate(self, state, seat):
            return state.lead if seat == 0 else -state.lead

    game = LeadGame()
    # at Marram's evaluation scale 5, leads of 30 and 40 are both a sure win:
    # 1 / (1 + e^-6) = 0.99753 and 1 / (1 + e^-8) = 0.99966
    flat = [rewards(game, Lead(x), 5.0)[0] for x in (30, 40)]  # type: ignore[arg-type]
    assert flat[1] - flat[0] < 0.0025
    # with a third of the reward on the margin at scale 30: 1/(1+e^-1) = 0.73106,
    # 1/(1+e^-4/3) = 0.79139, so the 10 more points add 0.3 * 0.0603 + 0.7 * 0.0021
    grows = [rewards(game, Lead(x), 5.0, 0.3, 30.0)[0] for x in (30, 40)]  # type: ignore[arg-type]
    assert round(grows[1] - grows[0], 4) == round(0.3 * (0.79139 - 0.73106)
                                                  + 0.7 * (0.99966 - 0.99753), 4)


def test_a_seat_with_nothing_to_do_is_refused():
    state = board("X........")  # O to move
    with pytest.raises(ValueError, match="seat 0 has nothing to do"):
        search(TTT, state, 0, random.Random(1), FAST)


# ---------------------------------------------------------------- the arena

def test_wilson_interval():
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 4) == 0.2775
    assert wilson(10, 10)[1] == 1.0


def test_arena_rotates_seats_and_medium_beats_easy_at_tictactoe(capsys):
    tallies = arena(TTT, read_options(TTT, {}, 2), ["medium", "easy"], 20, 1,
                    progress=False)
    medium, easy = tallies
    assert medium.wins + medium.ties + easy.wins == 20  # every game counted once
    assert medium.wins > 15 and easy.wins == 0
    assert medium.moves > 0 and easy.moves > 0
    out = capsys.readouterr().out
    assert "20 Tic-tac-toe games" in out and "seats rotated" in out


def test_an_arena_game_of_marram_replays_for_its_seed():
    from engine.bots.arena import Tally, play

    options = read_options(MARRAM, {}, 2)
    runs = []
    for _ in range(2):
        tallies = [Tally("medium"), Tally("easy")]
        state = play(MARRAM, options, ["medium", "easy"], 7, 7, tallies)
        runs.append((MARRAM.projection(state), [(t.wins, t.scores, t.moves) for t in tallies]))
    assert runs[0] == runs[1] and runs[0][0].finished
    # seed 7 puts medium in seat 1: rotation gives the odd games' first seat to easy
    assert runs[0][0].scores[1] == runs[0][1][0][1][0]


def test_arena_command_prints_each_level(capsys):
    status = main(["arena", "--game", "tictactoe", "--players", "strong,easy", "--games",
                   "4", "--seed", "2", "--playouts", "100", "--quiet"])
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("4 Tic-tac-toe games")
    assert lines[1].startswith("strong") and "wins " in lines[1] and "/4 (" in lines[1]
    assert "95% CI" in lines[1] and "mean score" in lines[1] and "s/move" in lines[1]
    assert "playouts/s" in lines[1]
    assert lines[2].startswith("easy") and "playouts" not in lines[2]


def test_arena_shows_a_progress_bar_on_stderr(capsys):
    assert main(["arena", "--game", "tictactoe", "--players", "medium,easy",
                 "--games", "3"]) == 0
    captured = capsys.readouterr()
    assert "] 3/3" in captured.err and "] 3/3" not in captured.out


@pytest.mark.parametrize("args, message", [
    (["--players", "medium,wizard"], "no bot level 'wizard'"),
    (["--players", "medium"], "Tic-tac-toe is for 2 players, not 1"),
    (["--players", "medium,easy", "--games", "0"], "--games must be at least 1"),
    (["--players", "strong,easy", "--playouts", "0"], "--playouts must be at least 1"),
    (["--players", "medium,easy", "--option", "misere=maybe"], "Misère must be one of"),
])
def test_arena_refuses_bad_input_in_one_line(args, message, capsys):
    assert main(["arena", "--game", "tictactoe", *args, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
