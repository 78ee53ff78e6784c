"""Check a tournament against its log and its games' records: every round's
pairing paired again from the log before it, every result read again from its
game, every withdrawal due when it was made, the seed against its commitment, and
the stored projection against the fold of the whole log."""

from __future__ import annotations

from typing import Any

from engine import fairness
from games.models import Game
from tournaments import log, services
from tournaments.log import State
from tournaments.models import Tournament


def tournament_verify(tournament: Tournament) -> list[str]:
    """What does not check out, in words; [] when everything does."""
    problems: list[str] = []
    state = State()
    for seq, event in enumerate(services.events_of(tournament)):
        kind = event.get("type")
        if kind == "round_paired":
            expected = log.next_pairing(state)
            tables = [tuple(t["players"]) for t in event["tables"]]
            if expected is None:
                problems.append(f"event {seq}: round {event['round']} paired after the end")
            elif [t.players for t in expected.tables] != tables \
                    or list(expected.byes) != list(event["byes"]):
                problems.append(f"event {seq}: round {event['round']}'s pairing is not the one "
                                "its log gives")
        elif kind == "result_recorded":
            game = Game.objects.filter(pk=event["game"]).first()
            if game is None or game.status != Game.Status.FINISHED:
                problems.append(f"event {seq}: game {event['game']} is not finished")
            else:
                places, out = services.places_in(game)
                if places != event["places"] or out != event["out"]:
                    problems.append(f"event {seq}: game {event['game']}'s result is not the "
                                    "one its record gives")
        elif kind == "withdrawn":
            due = dict(log.withdrawals_due(state))
            if event["user"] not in due:
                problems.append(f"event {seq}: player {event['user']} withdrawn, not due")
        elif kind == "started":
            problems += _seeding_problems(tournament, seq, event["seeding"])
        elif kind == "finished":
            if fairness.commitment(str(event.get("seed"))) != tournament.commitment:
                problems.append(f"event {seq}: the seed revealed does not match the "
                                "commitment")
            if not state.rounds or not state.rounds[-1].done \
                    or log.next_pairing(state) is not None:
                problems.append(f"event {seq}: finished before its last round was over")
        try:
            log.evolve(state, event)
        except (KeyError, ValueError, TypeError) as error:
            problems.append(f"event {seq}: cannot be applied: {error}")
            return problems
    if services.projection(state) != tournament.projection:
        problems.append("the stored projection differs from the log's")
    if state.status != tournament.status:
        problems.append(f"the stored status {tournament.status!r} is not the log's "
                        f"{state.status!r}")
    return problems


def _seeding_problems(tournament: Tournament, seq: int, seeding: list[dict[str, Any]]
                      ) -> list[str]:
    """The seeding is by rating, best first; once the seed is revealed, equal
    ratings in the order it draws."""
    ratings = [float(s["rating"]) for s in seeding]
    if ratings != sorted(ratings, reverse=True):
        return [f"event {seq}: the seeding is not by rating"]
    if tournament.status == Tournament.Status.FINISHED:
        users = [int(s["user"]) for s in seeding]
        if services.seeding_of_ratings(tournament.seed, dict(zip(users, ratings, strict=True))
                                       ) != users:
            return [f"event {seq}: equal ratings are not in the order the seed draws"]
    return []
