"""Points and standings of a tournament: pure functions of the games' results.

A game's result comes in as each player's place (1 for the best, players who tie
sharing a place, as the game's own standings give them: engine.protocol.standings).
Points by place, ties shared: at a table of k, place p is worth (k - p) / (k - 1),
and players who tie share the points of the places they cover. For two players
that is 1 for a win, 1/2 each for a draw, 0 for a loss; at a table of four, 1,
2/3, 1/3 and 0. A bye is worth a win (1) in a Swiss; a round robin's byes (the
rest of an odd count) are worth nothing, for everybody has one.

Tie-breaks, stated per format (``standings``):
- Swiss: Buchholz (the sum of the final scores of every opponent met, each time
  met), then Sonneborn-Berger (for each game, the points scored in it times the
  mean final score of the others at its table: for two players, the scores of the
  opponents beaten plus half of those drawn with), then the seeding.
- Round robin: head-to-head (the points scored in the games among the players
  tied on points), then Sonneborn-Berger, then the seeding.
- Knockout: the round reached, then the seeding (knockout.py's final table).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

Player = int
"""An entrant, by account id."""


def place_points(places: Mapping[Player, int]) -> dict[Player, Fraction]:
    """Each player's points from a table's places (1 for the best; ties share a place
    and the points of the places they cover)."""
    k = len(places)
    if k < 2:
        raise ValueError("a table has two players or more")
    worth = [Fraction(k - p, k - 1) for p in range(1, k + 1)]
    found: dict[Player, Fraction] = {}
    for player, place in places.items():
        tied = sum(1 for q in places.values() if q == place)
        if not 1 <= place <= k - tied + 1:
            raise ValueError(f"place {place} of {tied} tied players at a table of {k}")
        found[player] = sum(worth[place - 1:place - 1 + tied], Fraction(0)) / tied
    return found


@dataclass(frozen=True)
class Result:
    """One game's places, by player."""

    places: Mapping[Player, int]

    @property
    def points(self) -> dict[Player, Fraction]:
        return place_points(self.places)


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    player: Player
    rank: int
    """1 for the best; players equal on points and every tie-break share a rank."""
    points: Fraction
    tie_breaks: tuple[Fraction, ...]
    games: int
    wins: int


def scores(results: Sequence[Result], byes: Mapping[Player, Fraction],
           players: Sequence[Player]) -> dict[Player, Fraction]:
    """Each player's points: the games' and the byes'."""
    total = {p: Fraction(byes.get(p, 0)) for p in players}
    for result in results:
        for player, pts in result.points.items():
            total[player] = total.get(player, Fraction(0)) + pts
    return total


def buchholz(results: Sequence[Result], score: Mapping[Player, Fraction]
             ) -> dict[Player, Fraction]:
    found: dict[Player, Fraction] = defaultdict(Fraction)
    for result in results:
        for player in result.places:
            found[player] += sum((score.get(o, Fraction(0)) for o in result.places
                                  if o != player), Fraction(0))
    return found


def sonneborn_berger(results: Sequence[Result], score: Mapping[Player, Fraction]
                     ) -> dict[Player, Fraction]:
    found: dict[Player, Fraction] = defaultdict(Fraction)
    for result in results:
        points = result.points
        for player in result.places:
            others = [score.get(o, Fraction(0)) for o in result.places if o != player]
            found[player] += points[player] * sum(others, Fraction(0)) / len(others)
    return found


def head_to_head(results: Sequence[Result], tied: set[Player]) -> dict[Player, Fraction]:
    """Points scored in the games whose players are all among ``tied``."""
    found: dict[Player, Fraction] = defaultdict(Fraction)
    for result in results:
        if set(result.places) <= tied:
            for player, pts in result.points.items():
                found[player] += pts
    return found


def standings(fmt: str, players: Sequence[Player], results: Sequence[Result],
              byes: Mapping[Player, Fraction]) -> list[Row]:
    """The standings of a Swiss (``fmt`` "swiss") or a round robin ("round_robin"):
    ``players`` in seeding order (the last tie-break)."""
    score = scores(results, byes, players)
    seed = {p: i for i, p in enumerate(players)}
    games: dict[Player, int] = defaultdict(int)
    wins: dict[Player, int] = defaultdict(int)
    for result in results:
        for player, place in result.places.items():
            games[player] += 1
            wins[player] += place == 1 and sum(1 for q in result.places.values() if q == 1) == 1
    sb = sonneborn_berger(results, score)
    if fmt == "swiss":
        bh = buchholz(results, score)
        breaks = {p: (bh[p], sb[p]) for p in players}
    elif fmt == "round_robin":
        by_points: dict[Fraction, set[Player]] = defaultdict(set)
        for p in players:
            by_points[score[p]].add(p)
        h2h: dict[Player, Fraction] = {}
        for group in by_points.values():
            h2h.update(head_to_head(results, group) if len(group) > 1 else {})
        breaks = {p: (h2h.get(p, Fraction(0)), sb[p]) for p in players}
    else:
        raise ValueError(f"no standings by points for the format {fmt!r}")

    def key(p: Player) -> tuple[Fraction, ...]:
        return (-score[p], *(-b for b in breaks[p]))

    order = sorted(players, key=lambda p: (key(p), seed[p]))
    return [Row(player=p, rank=1 + sum(1 for o in order if key(o) < key(p)), points=score[p],
                tie_breaks=breaks[p], games=games[p], wins=wins[p]) for p in order]


def shown(value: Fraction) -> str:
    """A score as the pages show it: 3, 2.5, 0.67."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0")


TIE_BREAKS = {"swiss": ("Buchholz", "Sonneborn-Berger"),
              "round_robin": ("Head-to-head", "Sonneborn-Berger"),
              "knockout": ()}
"""The tie-breaks' names, in the order ``standings`` applies them."""
