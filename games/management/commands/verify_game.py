"""Replay a game from zero through the current engine and compare the outcome
with what the service stored, its snapshots included. Exits non-zero on any
problem."""


from engine import registry
from games.management.commands._checks import GameCheckCommand
from games.models import Event, Game
from games.selectors import awaited_seats, game_replay, projection_of, rules_of
from games.snapshots import game_snapshot_problems


def game_problems(game: Game) -> list[str]:
    """What is wrong with a stored game, judged by replaying it; empty when sound."""
    problems = []
    rows = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "type",
                                                                            "payload"))
    if [seq for seq, _, _ in rows] != list(range(len(rows))):
        problems.append("the event sequence has gaps")
    if len(rows) != game.seq:
        problems.append(f"the game says seq {game.seq} but has {len(rows)} events")
    for seq, kind, payload in rows:
        if payload.get("type") != kind:
            problems.append(f"event {seq}: stored as {kind!r} but is a {payload.get('type')!r}")
    try:
        rules = rules_of(game)
    except registry.UnknownGame as e:
        return [*problems, str(e)]
    if game.rules_version != rules.rules_version:
        problems.append(f"the game was created under rules version {game.rules_version}, this "
                        f"engine is version {rules.rules_version}: outcomes may differ")
    if game.config is None:
        if rows:
            problems.append("the game has events but no config")
        return problems
    replay = game_replay(game)
    if replay.error is not None and replay.error_index is not None:  # set together
        problems.append(f"event {replay.error_index} ({rows[replay.error_index][2]}) is refused "
                        f"by the engine: {replay.error.code}: {replay.error.message}")
        return problems
    fresh = projection_of(rules, replay.state)
    for key in sorted(set(fresh) | set(game.projection)):
        if fresh.get(key) != game.projection.get(key):
            problems.append(f"{key}: stored {game.projection.get(key)!r}, replay gives "
                            f"{fresh.get(key)!r}")
    seats = {seat.index: seat for seat in game.seats.exclude(index=None)}
    awaited = awaited_seats(game, fresh)
    for index, seat in sorted(seats.items()):
        if seat.resigned != (index in fresh["resigned"]):
            problems.append(f"seat {index}: stored as {'' if seat.resigned else 'not '}"
                            "resigned, the replay says "
                            f"{'' if not seat.resigned else 'not '}resigned")
        if seat.awaited != (index in awaited):
            problems.append(f"seat {index}: stored as {'' if seat.awaited else 'not '}"
                            "awaited, the replay says "
                            f"{'' if not seat.awaited else 'not '}awaited")
    finished = game.status == Game.Status.FINISHED
    if fresh["finished"] != finished:
        problems.append(f"the game is {game.status} but the replay is "
                        f"{'finished' if fresh['finished'] else 'not finished'}")
    return problems + game_snapshot_problems(game)


class Command(GameCheckCommand):
    help = __doc__
    failed = "the replay disagrees"

    def problems(self, game: Game) -> list[str]:
        return game_problems(game)

    def passed(self, game: Game) -> str:
        return f"{game.seq} events replay to the stored outcome"
