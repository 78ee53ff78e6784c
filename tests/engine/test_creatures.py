"""The fly and the frog (Animals; rule book: "The Fly and the Frog"; spec: creature_appears,
guess, hop).

Boards are strips of all-grass tiles laid east of the starter along y = 0. The starter
carries a blue snake head facing west (an open side), so the creatures appear at the far
east end of the strip and are only eaten when a head tile is laid near them.
"""
from __future__ import annotations

from fractions import Fraction

import pytest

from engine.marram import IllegalAction, apply, awaiting, chance_odds, player_view

from .helpers import flip, game, place, seg, tile

N_GRASS = 70


def animals(players: int = 2, head: bool = True, special: dict[int, str] | None = None):
    """An Animals game; ``special`` puts a named extra tile in a seat's opening hand:
    "H" (a blue head facing north) or "X" (a spade tile that flips next to grass below)."""
    tiles = {
        "S0": tile("GGGGGGGG", seg("blue", "head", 3)) if head else tile("GGGGGGGG"),
        "H": tile("GGGGGGGG", seg("blue", "head", 0)),
        "X": tile("SSSGGGGG", spade=True),
    } | {f"G{i}": tile("GGGGGGGG") for i in range(1, N_GRASS + 1)}
    grass = iter(f"G{i}" for i in range(1, N_GRASS + 1))
    hands = []
    for seat in range(players):
        hand = [special[seat]] if special and seat in special else []
        hands.append(hand + [next(grass) for _ in range(3 - len(hand))])
    return game(tiles, hands, rest=list(grass), variant="animals")


def east_end(state) -> tuple[int, int]:
    return (max(x for x, y in state.board if y == 0) + 1, 0)


def lay(state, at: tuple[int, int] | None = None):
    """The player to move lays a grass tile, by default at the east end of the strip."""
    seat = state.current
    tid = next(t for t in state.hands[seat] if t.startswith("G"))
    return place(state, seat, tid, at or east_end(state))


def grow(state, tiles: int):
    """Lay grass tiles until the board holds ``tiles`` tiles (no creature may be due)."""
    while len(state.board) < tiles:
        assert not state.pending
        state = lay(state)
    return state


def appear(state, creature: str, at):
    return apply(state, {"type": "creature_appears", "creature": creature, "at": list(at)})


def guess(state, player: int, creature: str, hops):
    return apply(state, {"type": "guess", "player": player, "creature": creature, "hops": hops})


def hop(state, creature: str, to):
    return apply(state, {"type": "hop", "creature": creature, "to": list(to)})


def settle(state, guesses: dict[str, dict[int, object]]):
    """Resolve whatever is due: appear at the first tile offered, guess as given, hop
    east (never onto a head: the only head is the starter's)."""
    while state.pending:
        due = awaiting(state)
        if due["kind"] == "guess":
            c = due["creature"]
            state = guess(state, due["player"], c, guesses[c][due["player"]])
            continue
        odds = chance_odds(state)
        c = due["creature"]
        if due["event"] == "appear":
            state = appear(state, c, min(odds))
        else:
            state = hop(state, c, max(odds, key=lambda p: (p[0], -abs(p[1]))))
    return state


def code_of(fn) -> str:
    with pytest.raises(IllegalAction) as e:
        fn()
    return e.value.code


def creature(state, name: str) -> dict:
    return player_view(state)["creatures"][name]


# ---------------------------------------------------------------- appearance

def test_nothing_appears_before_the_twentieth_tile():
    s = grow(animals(), 19)
    assert not s.pending
    assert awaiting(s)["kind"] == "move"
    assert creature(s, "fly")["status"] == "waiting"


def test_fly_appears_after_the_move_that_makes_twenty_tiles_farthest_from_every_head():
    s = grow(animals(), 20)  # x = 0 .. 19; the head is on the starter at x = 0
    assert awaiting(s) == {"kind": "chance", "player": None, "event": "appear",
                           "creature": "fly"}
    assert chance_odds(s) == {(19, 0): Fraction(1)}
    assert code_of(lambda: appear(s, "fly", (18, 0))) == "impossible_chance"
    s = appear(s, "fly", (19, 0))
    assert creature(s, "fly")["status"] == "on_board"
    assert creature(s, "fly")["at"] == [19, 0]


def test_with_no_head_on_the_board_every_tile_is_as_likely():
    s = grow(animals(head=False), 20)
    odds = chance_odds(s)
    assert len(odds) == 20 and set(odds.values()) == {Fraction(1, 20)}


def test_appearance_odds_split_between_equally_far_tiles():
    # a strip to x = 17 with tiles at (17, -1) and (17, 1): both 18 steps from the head
    s = grow(animals(), 18)
    s = lay(s, (17, -1))
    s = lay(s, (17, 1))
    assert chance_odds(s) == {(17, -1): Fraction(1, 2), (17, 1): Fraction(1, 2)}


def test_guesses_start_with_the_mover_and_go_on_in_seat_order():
    # p0 and p1 time out first, so p2 lays the twentieth tile: guesses p2, p0, p1
    s = animals(players=3)
    s = apply(s, {"type": "timeout", "player": 0})
    s = apply(s, {"type": "timeout", "player": 1})
    s = grow(s, 20)
    mover = s.current
    assert mover == 2 and s.moves_in_turn == 1
    s = appear(s, "fly", (19, 0))
    order = []
    for value in (4, 6, "escape"):
        due = awaiting(s)
        assert due["kind"] == "guess"
        order.append(due["player"])
        s = guess(s, due["player"], "fly", value)
    assert order == [2, 0, 1]
    assert creature(s, "fly")["guesses"] == {"2": 4, "0": 6, "1": "escape"}
    assert awaiting(s) == {"kind": "move", "player": 2, "move": 2}


# ---------------------------------------------------------------- nothing else while due

def test_moves_wait_for_the_chance_event_and_the_guesses():
    s = grow(animals(), 19)
    mover = s.current
    s = lay(s)  # the twentieth tile
    g = next(t for t in s.hands[mover] if t.startswith("G"))
    assert code_of(lambda: place(s, mover, g, east_end(s))) == "awaiting_chance"
    assert code_of(lambda: apply(s, {"type": "pass", "player": mover})) == "awaiting_chance"
    assert code_of(lambda: guess(s, mover, "fly", 3)) == "not_pending"
    s = appear(s, "fly", (19, 0))
    assert code_of(lambda: place(s, mover, g, east_end(s))) == "awaiting_guess"
    assert code_of(lambda: flip(s, mover, (0, 0))) == "awaiting_guess"
    other = 1 - mover
    assert code_of(lambda: guess(s, other, "fly", 3)) == "not_your_turn"
    assert code_of(lambda: guess(s, mover, "fly", 0)) == "bad_guess"
    assert code_of(lambda: guess(s, mover, "fly", 31)) == "bad_guess"
    s = guess(s, mover, "fly", 3)
    s = guess(s, other, "fly", 30)
    assert awaiting(s)["kind"] == "move"


# ---------------------------------------------------------------- hopping and being eaten

def fly_on_the_far_end(guesses: tuple[object, object]):
    """Board x = 0..19 laid by alternating seats; p1 lays the twentieth tile, so p1
    guesses first. p0 holds a head tile "H". Returns the state ready for p1's 2nd move."""
    s = grow(animals(special={0: "H"}), 20)
    assert s.current == 1
    s = appear(s, "fly", (19, 0))
    s = guess(s, 1, "fly", guesses[0])
    return guess(s, 0, "fly", guesses[1])


def eaten_after_two_hops(guesses: tuple[object, object]):
    s = fly_on_the_far_end(guesses)
    s = lay(s)  # p1 lays (20, 0): the fly hops, either way as likely
    assert chance_odds(s) == {(18, 0): Fraction(1, 2), (20, 0): Fraction(1, 2)}
    s = hop(s, "fly", (20, 0))
    s = place(s, 0, "H", (21, 0))  # p0 lays a blue head next to the fly
    # the way back (19, 0) weighs half: 1 / (1 + 2) and 2 / (1 + 2)
    assert chance_odds(s) == {(19, 0): Fraction(1, 3), (21, 0): Fraction(2, 3)}
    return hop(s, "fly", (21, 0))  # onto the head: eaten, 2 hops


@pytest.mark.parametrize("guesses, scores", [
    ((2, 5), [0, 24]),                 # p1 exact: 12 + 12 bonus
    ((1, 3), [6, 6]),                  # 1 and 3 both one away: 12 shared
    ((3, 30), [0, 12]),                # p1 closest, not exact: 12
    (("escape", 5), [12, 0]),          # an escape guess cannot share when it is eaten
    (("escape", "escape"), [0, 0]),
])
def test_eaten_fly_pays_the_closest_guesses(guesses, scores):
    s = eaten_after_two_hops(guesses)
    fly = creature(s, "fly")
    assert (fly["status"], fly["outcome"], fly["hops"]) == ("eaten", 2, 2)
    assert s.scores == scores


def test_an_eaten_fly_hops_no_more():
    s = eaten_after_two_hops((2, 5))
    assert not s.pending
    s = lay(s)
    assert not s.pending


def test_hop_to_a_tile_out_of_reach_is_refused():
    s = fly_on_the_far_end((2, 5))
    s = lay(s)
    assert code_of(lambda: hop(s, "fly", (19, 0))) == "impossible_chance"  # no move
    assert code_of(lambda: hop(s, "fly", (17, 0))) == "impossible_chance"  # too far
    assert code_of(lambda: hop(s, "frog", (20, 0))) == "not_pending"


def test_a_flip_also_makes_the_fly_hop():
    s = animals(special={0: "X"})
    s = place(s, 0, "X", (0, -1))  # X (grass on its south side) sits above the starter
    s = grow(s, 20)
    s = settle(s, {"fly": {0: 5, 1: 5}})
    s = flip(s, s.current, (0, -1), rotation=2)  # the back, turned twice, is grass below
    assert awaiting(s) == {"kind": "chance", "player": None, "event": "hop", "creature": "fly"}


# ---------------------------------------------------------------- escape

def test_fly_escapes_after_thirty_hops():
    s = fly_on_the_far_end(("escape", "escape"))
    guesses = {"frog": {0: 1, 1: 1}}
    for _ in range(29):
        s = settle(lay(s), guesses)
    assert creature(s, "fly")["status"] == "on_board"
    assert creature(s, "fly")["hops"] == 29
    s = settle(lay(s), guesses)
    fly = creature(s, "fly")
    assert (fly["status"], fly["outcome"], fly["hops"]) == ("escaped", "escape", 30)
    assert s.scores == [6, 6]  # two escape guesses share 12


def test_escape_pays_only_escape_guessers():
    s = fly_on_the_far_end(("escape", 30))
    for _ in range(30):
        s = settle(lay(s), {"frog": {0: 1, 1: 1}})
    assert creature(s, "fly")["status"] == "escaped"
    assert s.scores == [0, 12]  # p1 guessed escape; p0's 30 earns nothing


# ---------------------------------------------------------------- the frog

def settle_fly(state):
    """Resolve a due fly hop (eastwards), leaving anything about the frog due."""
    if state.pending and state.pending[0] == ("hop", "fly"):
        odds = chance_odds(state)
        state = hop(state, "fly", max(odds, key=lambda p: (p[0], -abs(p[1]))))
    return state


def test_frog_appears_at_thirty_tiles_and_hops_diagonally_too():
    s = fly_on_the_far_end((5, 5))
    guesses = {"frog": {0: 3, 1: 4}}
    while len(s.board) < 29:
        s = settle(lay(s), guesses)
    assert creature(s, "frog")["status"] == "waiting"
    s = lay(s, (28, 1))  # the thirtieth tile: the strip is x = 0..28, plus (28, 1)
    assert [p[0] for p in s.pending[:2]] == ["hop", "appear"]  # the fly hops first
    s = settle_fly(s)
    # king moves: (28, 0) and (28, 1) are both 28 moves from the head
    assert chance_odds(s) == {(28, 0): Fraction(1, 2), (28, 1): Fraction(1, 2)}
    s = appear(s, "frog", (28, 1))
    s = settle(s, guesses)
    s = lay(s, (29, 0))
    s = settle_fly(s)
    # orthogonal (28, 0) and diagonal (27, 0), (29, 0); nothing left yet: 1/3 each
    assert chance_odds(s) == {(27, 0): Fraction(1, 3), (28, 0): Fraction(1, 3),
                              (29, 0): Fraction(1, 3)}
    s = hop(s, "frog", (29, 0))
    s = lay(s, (30, 0))
    s = settle_fly(s)
    # from (29, 0): (28, 0) and (30, 0) weigh 1, the way back (28, 1) weighs 1/2
    assert chance_odds(s) == {(28, 0): Fraction(2, 5), (28, 1): Fraction(1, 5),
                              (30, 0): Fraction(2, 5)}
