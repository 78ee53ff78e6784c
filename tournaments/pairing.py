"""Pairings of the three formats: pure functions of the seeding and the results so
far, so that anyone can pair a round again from a tournament's log and find the
same tables (tournaments.log.verify does).

A table is the players of one game, in seat order. Players are account ids; the
seeding is the entrants by rating at the start (tournaments.services draws the
order of equal ratings from the tournament's committed seed), best first.

- Round robin (``round_robin``): every table of the schedule at once, as
  correspondence players expect. Two players: the circle method (Berger tables),
  each pair once, each player first in half their games (one more or less); an
  odd count gives each player one rest. Tables of three or four: ``rounds`` of
  tables in which each pair meets as equally often as the numbers allow, chosen
  greedily (fewest meetings so far, then seeding).
- Swiss (``swiss``): two players, a maximum-weight matching (Edmonds' blossom,
  networkx.max_weight_matching) of the players still in, with weights that put
  no repeated pair above everything, then equal scores, then near places in the
  ranking by score and seeding; with an odd count the lowest-ranked player who has
  not had one gets a bye. Seat order: the player who has sat first less often sits
  first (the better-ranked one when even). Tables of three or four: groups by
  score, each table filled in ranking order with the next players who have met
  none of its players (when there are none, the next ones); the players left over
  when the count does not divide get byes, lowest-ranked first.
- Knockout (``knockout``): two players, the standard bracket (1 v 8, 4 v 5, 2 v 7,
  3 v 6 for eight) in a field rounded up to a power of two, the places past the
  entrants being byes, which thus go to the top seeds; the winners meet in the
  bracket's order. Tables of three or four: the field split by snake seeding into
  as few tables as hold it (some one short when the count does not divide); each
  table's winner goes on.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

import networkx as nx

from tournaments.scoring import Player


@dataclass(frozen=True)
class Table:
    players: tuple[Player, ...]
    """In seat order."""
    part: int = 1
    """For a round robin, which of the schedule's rounds (all played at once)."""


@dataclass(frozen=True)
class Pairing:
    tables: tuple[Table, ...]
    byes: tuple[Player, ...] = ()
    slots: tuple[tuple[Player, ...], ...] = ()
    """A knockout's tables and byes together, in the bracket's order (a bye is a slot
    of one player): whoever goes on from each meets the neighbouring slot's."""


@dataclass
class History:
    """What the pairing of a round needs to know of the rounds before it."""

    scores: dict[Player, Fraction] = field(default_factory=dict)
    met: Counter[frozenset[Player]] = field(default_factory=Counter)
    """How many times each pair has shared a table."""
    firsts: Counter[Player] = field(default_factory=Counter)
    """Games in which each sat first."""
    seconds: Counter[Player] = field(default_factory=Counter)
    byes: Counter[Player] = field(default_factory=Counter)

    def played(self, table: Sequence[Player]) -> None:
        for a, b in combinations(table, 2):
            self.met[frozenset((a, b))] += 1
        self.firsts[table[0]] += 1
        for p in table[1:]:
            self.seconds[p] += 1


# ---------------------------------------------------------------- round robin


def berger(players: Sequence[Player]) -> list[list[tuple[Player, Player]]]:
    """The circle method: rounds of pairs, every pair once. The last player stays
    put, the others turn; the fixed player's seat alternates by round, the others'
    by their distance from it, so each sits first in half their games."""
    field_: list[Player | None] = list(players)
    if len(field_) % 2:
        field_.append(None)
    n = len(field_)
    rounds = []
    ring = field_[:-1]
    fixed = field_[-1]
    for r in range(n - 1):
        pairs: list[tuple[Player, Player]] = []
        a, b = ring[0], fixed
        if a is not None and b is not None:
            pairs.append((a, b) if r % 2 == 0 else (b, a))
        for i in range(1, n // 2):
            a, b = ring[i], ring[-i]
            if a is not None and b is not None:
                pairs.append((a, b) if i % 2 == 1 else (b, a))
        rounds.append(pairs)
        ring = ring[-1:] + ring[:-1]
    return rounds


def round_robin(players: Sequence[Player], size: int) -> Pairing:
    """The whole schedule, every table at once; ``part`` is its round."""
    if size == 2:
        return Pairing(tuple(Table(pair, part=r + 1)
                             for r, pairs in enumerate(berger(players)) for pair in pairs))
    return _tables_schedule(players, size)


def _tables_schedule(players: Sequence[Player], size: int) -> Pairing:
    n = len(players)
    if n < size:
        raise ValueError(f"a round robin of tables of {size} needs {size} players")
    history = History()
    tables: list[Table] = []
    part = 0
    # each player meets (size - 1) others a game: enough rounds that everyone can
    # have met everyone once, and more while a pair has never met
    need = -(-(n - 1) // (size - 1))
    while part < need or (part < 4 * need and any(
            history.met[frozenset(pair)] == 0 for pair in combinations(players, 2))):
        part += 1
        for table in _greedy_tables(players, size, history, part):
            tables.append(table)
            history.played(table.players)
    return Pairing(tuple(tables))


def _greedy_tables(players: Sequence[Player], size: int, history: History,
                   part: int) -> list[Table]:
    """One round of tables: those who have played most rest (the count past a
    multiple of ``size``); the rest seated greedily (each table's next player the
    one who has met its players least), then the best seating found: every one
    searched when there are few, else swapping two players of two tables while it
    helps; best is the most pairs meeting for the first time, then the least sum of
    the squares of the meetings."""
    seed = {p: i for i, p in enumerate(players)}
    games = Counter({p: history.firsts[p] + history.seconds[p] for p in players})
    left = sorted(players, key=lambda p: (games[p], seed[p]))
    left = left[:len(left) - len(left) % size]
    left.sort(key=lambda p: seed[p])
    tables: list[list[Player]] = []
    while left:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda p: (sum(history.met[frozenset((p, q))] for q in table),
                                            seed[p]))
            left.remove(best)
            table.append(best)
        tables.append(table)

    def cost(table: Sequence[Player]) -> int:
        # pairs that have never met first, then repeats spread out
        met = [history.met[frozenset((a, b))] for a, b in combinations(table, 2)]
        return sum(m * m - NEW_PAIR * (m == 0) for m in met)

    if _partition_count(len(players) - len(players) % size, size) <= SEARCH_LIMIT:
        searched = min(_partitions(sorted(p for t in tables for p in t), size),
                       key=lambda split: sum(cost(t) for t in split))
        tables = [list(t) for t in searched]
    improved = True
    while improved:
        improved = False
        for t, u in combinations(range(len(tables)), 2):
            for i, j in ((i, j) for i in range(size) for j in range(size)):
                a, b = tables[t][:], tables[u][:]
                a[i], b[j] = b[j], a[i]
                if cost(a) + cost(b) < cost(tables[t]) + cost(tables[u]):
                    tables[t], tables[u] = sorted(a, key=seed.__getitem__), sorted(
                        b, key=seed.__getitem__)
                    improved = True
    return [Table(_seat_order(table, history), part=part) for table in tables]


NEW_PAIR = 1000
"""What a pair meeting for the first time is worth against the squares of repeats."""
SEARCH_LIMIT = 6000
"""Rounds of tables with at most this many ways to seat them are searched whole."""


def _partition_count(n: int, size: int) -> int:
    count, left = 1, n
    while left:
        count *= math.comb(left - 1, size - 1)
        left -= size
    return count


def _partitions(players: Sequence[Player], size: int) -> Iterator[list[tuple[Player, ...]]]:
    """Every way to seat ``players`` at tables of ``size``, in a fixed order."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, size - 1):
        left = [p for p in rest if p not in others]
        for split in _partitions(left, size):
            yield [(first, *others), *split]


def _seat_order(table: Sequence[Player], history: History) -> tuple[Player, ...]:
    """Who has sat first least often sits first; the table's own order (the ranking)
    breaks ties."""
    order = {p: i for i, p in enumerate(table)}
    return tuple(sorted(table, key=lambda p: (history.firsts[p] - history.seconds[p]
                                              / max(1, len(table) - 1), order[p])))


# ---------------------------------------------------------------- Swiss


def ranking(players: Sequence[Player], history: History) -> list[Player]:
    """By score, then seeding (``players`` is the seeding)."""
    seed = {p: i for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (-history.scores.get(p, Fraction(0)), seed[p]))


def _bye(order: Sequence[Player], history: History, count: int) -> list[Player]:
    """The ``count`` lowest-ranked players who have had the fewest byes."""
    if not count:
        return []
    fewest = sorted(reversed(order), key=lambda p: history.byes[p])
    return fewest[:count]


def swiss(players: Sequence[Player], history: History, size: int = 2) -> Pairing:
    """The next round of a Swiss among ``players`` (the seeding, those still in)."""
    order = ranking(players, history)
    byes = _bye(order, history, len(order) % size)
    order = [p for p in order if p not in byes]
    tables = _swiss_pairs(order, history) if size == 2 else _swiss_groups(order, history, size)
    return Pairing(tuple(tables), tuple(byes))


WINDOW = 8
"""Each player is offered as opponents the players within this many places of them
in the ranking (more, doubling, when that leaves someone unpaired or a pair
repeated): a sparse graph, which the blossom pairs a 1,000-player round on in about
a second where the complete graph takes minutes (benchmarks/tournament_bench.py)."""


def _swiss_pairs(order: Sequence[Player], history: History) -> list[Table]:
    """Score group by score group from the top: each group, with the player who
    floated down from the one above, matched on its own; a group that cannot be
    matched without a repeated pair is merged with the next."""
    place = {p: i for i, p in enumerate(order)}
    groups: list[list[Player]] = []
    for p in order:
        if groups and history.scores.get(groups[-1][0], Fraction(0)) == \
                history.scores.get(p, Fraction(0)):
            groups[-1].append(p)
        else:
            groups.append([p])
    pairs: list[tuple[Player, Player]] = []
    carry: list[Player] = []
    for i, group in enumerate(groups):
        pool = carry + group
        last = i == len(groups) - 1
        # an odd pool: its lowest-ranked player floats down, or the next lowest when
        # the others cannot be paired without a repeat without it
        floaters: list[Player | None] = list(reversed(pool)) if len(pool) % 2 else [None]
        for floater in floaters:
            found = _match([p for p in pool if p != floater], history, place)
            if last or not any(history.met[frozenset(pair)] for pair in found):
                pairs.extend(found)
                carry = [] if floater is None else [floater]
                break
        else:  # merged with the next group
            carry = pool
    if any(history.met[frozenset(pair)] for pair in pairs):
        # the groups from the bottom up could not avoid a repeat: one matching of
        # everyone, which repeats a pair only where no pairing of the round can avoid it
        pairs = _match(order, history, place)
    return [Table(_seat_order(pair, history))
            for pair in sorted(pairs, key=lambda pair: place[pair[0]])]


def _match(pool: Sequence[Player], history: History, place: Mapping[Player, int]
           ) -> list[tuple[Player, Player]]:
    """A maximum matching of ``pool`` of the greatest weight: integer weights, each
    term outweighing every sum of the ones after it: no pair repeated, then equal
    scores, then near places in the ranking."""
    n = len(pool)
    half_points = {p: int(history.scores.get(p, Fraction(0)) * 2) for p in pool}
    spread = max(half_points.values(), default=0) - min(half_points.values(), default=0)
    score_step = n * n + 1
    repeat_step = score_step * ((spread + 1) ** 2 * n + 1)
    window = WINDOW
    while True:
        graph = nx.Graph()
        graph.add_nodes_from(pool)
        for i, a in enumerate(pool):
            for b in pool[i + 1:i + 1 + window]:
                weight = (repeat_step * (history.met[frozenset((a, b))] == 0)
                          - score_step * (half_points[a] - half_points[b]) ** 2
                          - abs(place[b] - place[a]))
                graph.add_edge(a, b, weight=weight + repeat_step * 2)  # all positive
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if window >= n or len(matching) == n // 2 and not any(
                history.met[frozenset(pair)] for pair in matching):
            break
        window *= 2
    return [(a, b) if place[a] < place[b] else (b, a) for a, b in matching]


def _swiss_groups(order: Sequence[Player], history: History, size: int) -> list[Table]:
    left = list(order)
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < size:
            fresh = [p for p in left if all(history.met[frozenset((p, q))] == 0 for q in table)]
            pick = fresh[0] if fresh else left[0]
            left.remove(pick)
            table.append(pick)
        tables.append(Table(_seat_order(table, history)))
    return tables


# ---------------------------------------------------------------- knockout


def bracket_order(size: int) -> list[int]:
    """The standard bracket's seeds (1-based) from top to bottom for a power of two:
    [1, 8, 4, 5, 2, 7, 3, 6] for eight, each first-round pair adding up to size + 1."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_first(players: Sequence[Player], size: int = 2) -> Pairing:
    """The first round: ``players`` is the seeding."""
    if size == 2:
        field_ = 1
        while field_ < len(players):
            field_ *= 2
        seeds = bracket_order(field_)
        slots = []
        for i in range(0, field_, 2):
            a, b = seeds[i], seeds[i + 1]
            slots.append((players[a - 1],) if b > len(players)
                         else (players[a - 1], players[b - 1]))
        return _slotted(slots)
    return knockout_tables(players, size)


def _slotted(slots: Sequence[tuple[Player, ...]]) -> Pairing:
    return Pairing(tuple(Table(s) for s in slots if len(s) > 1),
                   tuple(s[0] for s in slots if len(s) == 1), tuple(slots))


def knockout_next(winners: Sequence[Player], size: int = 2) -> Pairing:
    """A later round: ``winners`` in the bracket's order (each table's or bye's,
    top to bottom) meet their neighbours; tables of three or four are seeded again."""
    if size == 2:
        return _slotted([tuple(winners[i:i + 2]) for i in range(0, len(winners), 2)])
    return knockout_tables(winners, size)


def knockout_tables(players: Sequence[Player], size: int) -> Pairing:
    """Snake seeding into the fewest tables of at most ``size`` (the best seed at the
    first table, the next at the second, ... back again); a lone player has a bye."""
    count = -(-len(players) // size)
    tables: list[list[Player]] = [[] for _ in range(count)]
    for i, player in enumerate(players):
        lap, at = divmod(i, count)
        tables[at if lap % 2 == 0 else count - 1 - at].append(player)
    return _slotted([tuple(t) for t in tables])


def match_winner(table: Sequence[Player], points: Mapping[Player, Fraction],
                 seed: Mapping[Player, int]) -> Player:
    """Who goes on from a knockout table: the most points over its games (a best of
    N); a tie goes to the better seed."""
    return min(table, key=lambda p: (-points.get(p, Fraction(0)), seed[p]))
