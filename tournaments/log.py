"""A tournament's event log and what it folds into: pure, no Django.

Every change to a tournament is an event appended to its log (the
``TournamentEvent`` rows, each a JSON object with ``type`` and ``v``, its shape's
version): ``created``, ``joined``, ``left``, ``started`` (the seeding),
``round_paired`` (the tables, their games, the byes), ``result_recorded`` (a
game's places), ``withdrawn``, ``finished`` (the seed revealed) and
``cancelled``. ``evolve`` applies one without judging it (the services judge
before they append); ``fold`` replays a log. The standings and the next round
are functions of the folded state (``standings``, ``next_pairing``), so
tournaments.verify can pair every round again and compare.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tournaments import pairing, scoring
from tournaments.pairing import History, Pairing
from tournaments.scoring import Player, Result, Row

VERSION = 1
FORMATS = ("round_robin", "swiss", "knockout")


@dataclass
class TableState:
    number: int
    players: tuple[Player, ...]
    part: int
    games: tuple[int, ...]
    places: dict[int, dict[Player, int]] = field(default_factory=dict)
    """Each game's places, once recorded."""
    out: dict[int, set[Player]] = field(default_factory=dict)
    """Each recorded game's players who resigned or ran out of time."""

    @property
    def done(self) -> bool:
        return len(self.places) == len(self.games)


@dataclass
class RoundState:
    number: int
    tables: list[TableState]
    byes: tuple[Player, ...]
    slots: tuple[tuple[Player, ...], ...]
    deadline: str | None

    @property
    def done(self) -> bool:
        return all(t.done for t in self.tables)


@dataclass
class State:
    config: dict[str, Any] = field(default_factory=dict)
    entrants: dict[Player, str] = field(default_factory=dict)
    """Who has joined (and not left), in the order they joined: their names."""
    computers: set[Player] = field(default_factory=set)
    seeding: list[Player] = field(default_factory=list)
    ratings: dict[Player, float] = field(default_factory=dict)
    rounds: list[RoundState] = field(default_factory=list)
    withdrawn: dict[Player, int] = field(default_factory=dict)
    """Players withdrawn, with the round after which they are paired no more."""
    status: str = "open"
    seed: str = ""
    why: str = ""

    @property
    def format(self) -> str:
        return str(self.config["format"])

    @property
    def size(self) -> int:
        return int(self.config["table_size"])

    def table_of_game(self, game_id: int) -> tuple[RoundState, TableState] | None:
        for rnd in self.rounds:
            for table in rnd.tables:
                if game_id in table.games:
                    return rnd, table
        return None


def evolve(state: State, event: Mapping[str, Any]) -> State:
    """``state`` after ``event`` (the state is changed in place and returned)."""
    kind = event["type"]
    if kind == "created":
        state.config = {k: v for k, v in event.items() if k not in ("type", "v")}
    elif kind == "joined":
        state.entrants[int(event["user"])] = str(event["name"])
        if event.get("computer"):
            state.computers.add(int(event["user"]))
    elif kind == "left":
        state.entrants.pop(int(event["user"]), None)
    elif kind == "started":
        state.status = "running"
        state.seeding = [int(s["user"]) for s in event["seeding"]]
        state.ratings = {int(s["user"]): float(s["rating"]) for s in event["seeding"]}
    elif kind == "round_paired":
        state.rounds.append(RoundState(
            number=int(event["round"]),
            tables=[TableState(number=int(t["table"]), players=tuple(t["players"]),
                               part=int(t.get("part", 1)), games=tuple(t["games"]))
                    for t in event["tables"]],
            byes=tuple(event["byes"]), slots=tuple(tuple(s) for s in event.get("slots", ())),
            deadline=event.get("deadline")))
    elif kind == "result_recorded":
        found = state.table_of_game(int(event["game"]))
        if found is None:
            raise ValueError(f"result of game {event['game']}, which no table plays")
        _, table = found
        table.places[int(event["game"])] = {int(p): int(place) for p, place in event["places"]}
        table.out[int(event["game"])] = {int(p) for p in event["out"]}
    elif kind == "withdrawn":
        state.withdrawn[int(event["user"])] = int(event["round"])
    elif kind == "finished":
        state.status = "finished"
        state.seed = str(event.get("seed", ""))
    elif kind == "cancelled":
        state.status = "cancelled"
        state.why = str(event.get("why", ""))
    else:
        raise ValueError(f"no tournament event {kind!r}")
    return state


def fold(events: Iterable[Mapping[str, Any]]) -> State:
    state = State()
    for event in events:
        evolve(state, event)
    return state


# ---------------------------------------------------------------- what follows from it


def results(state: State) -> list[Result]:
    return [Result(places) for rnd in state.rounds for table in rnd.tables
            for places in table.places.values()]


def bye_points(state: State) -> dict[Player, Fraction]:
    """A Swiss bye is worth a win; a round robin's rest and a knockout's bye nothing."""
    found: dict[Player, Fraction] = {}
    if state.format == "swiss":
        for rnd in state.rounds:
            for p in rnd.byes:
                found[p] = found.get(p, Fraction(0)) + 1
    return found


def history(state: State) -> History:
    h = History()
    h.scores = scoring.scores(results(state), bye_points(state), state.seeding)
    for rnd in state.rounds:
        for table in rnd.tables:
            for _ in table.games:
                h.played(table.players)
        for p in rnd.byes:
            h.byes[p] += 1
    return h


def still_in(state: State) -> list[Player]:
    """The seeding less the withdrawn."""
    return [p for p in state.seeding if p not in state.withdrawn]


def table_points(table: TableState) -> dict[Player, Fraction]:
    total = {p: Fraction(0) for p in table.players}
    for places in table.places.values():
        for p, pts in scoring.place_points(places).items():
            total[p] += pts
    return total


def knockout_goes_on(state: State, rnd: RoundState) -> list[Player]:
    """Who goes on from each slot of a finished knockout round, in bracket order."""
    seed = {p: i for i, p in enumerate(state.seeding)}
    tables = {t.players: t for t in rnd.tables}
    found = []
    for slot in rnd.slots:
        if len(slot) == 1:
            winner = slot[0]
        else:
            table = tables[slot]
            present = [p for p in table.players if p not in state.withdrawn] or list(slot)
            winner = pairing.match_winner(present, table_points(table), seed)
        if winner not in state.withdrawn:
            found.append(winner)
    return found


def next_pairing(state: State) -> Pairing | None:
    """The next round's pairing once the last one is over (or due by its deadline);
    None when the tournament is over."""
    size = state.size
    if state.format == "round_robin":
        if state.rounds:
            return None
        return pairing.round_robin(state.seeding, size)
    if state.format == "swiss":
        players = still_in(state)
        if len(state.rounds) >= int(state.config["rounds"]) or len(players) < size:
            return None
        return pairing.swiss(players, history(state), size)
    if not state.rounds:
        return pairing.knockout_first(state.seeding, size)
    going_on = knockout_goes_on(state, state.rounds[-1])
    if len(going_on) < 2:
        return None
    return pairing.knockout_next(going_on, size)


def withdrawals_due(state: State) -> list[tuple[Player, int]]:
    """Players not yet withdrawn who resigned or ran out of time in every game of a
    round (of a round robin's schedule round) once its games are all over: each
    with the round."""
    found: dict[Player, int] = {}
    for rnd in state.rounds:
        stages: dict[tuple[Player, int], list[bool]] = {}
        for table in rnd.tables:
            for game in table.games:
                for p in table.players:  # a game still running: not (yet) out in it
                    stages.setdefault((p, table.part), []).append(
                        game in table.places and p in table.out[game])
        for (p, _), outs in stages.items():
            if p not in state.withdrawn and p not in found and outs and all(outs):
                found[p] = rnd.number
    return sorted(found.items(), key=lambda item: (item[1], item[0]))


def standings(state: State) -> list[Row]:
    if not state.seeding:
        return []
    if state.format in ("swiss", "round_robin"):
        return scoring.standings(state.format, state.seeding, results(state),
                                 bye_points(state))
    return knockout_table(state)


def knockout_table(state: State) -> list[Row]:
    """A knockout's final table: the winner, then by the round each went out in
    (later first), then by seed; players out in the same round share a place."""
    reached = {p: 0 for p in state.seeding}
    for rnd in state.rounds:
        for table in rnd.tables:
            for p in table.players:
                reached[p] = rnd.number
        for p in rnd.byes:
            reached[p] = rnd.number
    alive: set[Player] = set()
    if state.rounds and state.rounds[-1].done:
        alive = set(knockout_goes_on(state, state.rounds[-1]))
    elif state.rounds:
        rnd = state.rounds[-1]
        alive = {p for t in rnd.tables for p in t.players} | set(rnd.byes)
    seed = {p: i for i, p in enumerate(state.seeding)}
    wins = {p: 0 for p in state.seeding}
    games = {p: 0 for p in state.seeding}
    for result in results(state):
        for p, place in result.places.items():
            games[p] += 1
            wins[p] += place == 1 and list(result.places.values()).count(1) == 1

    def key(p: Player) -> tuple[int, int]:
        return (0 if p in alive else 1, -reached[p])

    order = sorted(state.seeding, key=lambda p: (key(p), seed[p]))
    return [Row(player=p, rank=1 + sum(1 for o in order if key(o) < key(p)),
                points=Fraction(reached[p]), tie_breaks=(), games=games[p], wins=wins[p])
            for p in order]


def winner(state: State) -> Player | None:
    if state.status != "finished":
        return None
    rows = standings(state)
    return rows[0].player if rows and (len(rows) < 2 or rows[1].rank > 1) else None


def places_of(rows: Sequence[Row]) -> dict[Player, int]:
    return {row.player: row.rank for row in rows}
