"""The core of the protocol is enough: a game that writes only ``Rules`` (and
says whether it leaves anything to chance) is played, replayed, verified, told
in words and asked for by mail through the defaults of ``Game``; the platform
checks for the capability that has no default, snapshots."""
from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pytest

from engine.errors import IllegalAction, NotationError, RecordError
from engine.fairness import commitment, verify
from engine.protocol import (
    JSON,
    Awaiting,
    Game,
    JSONObject,
    Options,
    Projection,
    Seat,
    Snapshots,
    Task,
)
from engine.replay import replay_events
from engine.selfplay import play
from engine.snapshot import supported

from .tictactoe import GAME as TICTACTOE

STONES = 7
EventT = dict[str, JSON]


@dataclass
class Pile:
    players: list[str]
    stones: int = STONES
    current: Seat = 0
    taken: list[int] = field(default_factory=lambda: [0, 0])
    winner: Seat | None = None


class Nim(Game[Pile, EventT]):
    """Two seats take one to three stones in turn; who takes the last one wins."""

    key = "nim"
    title = "Nim"
    rules_version = "1"
    record_format = "nim-game-record"
    record_version = 1
    seat_counts = (2,)
    options_declared = ()
    event_types = ("take", "timeout", "resign")
    has_chance = False

    def setup(self, options: Options, players: Sequence[str], seed: str) -> JSONObject:
        return {"players": list(players)}

    def start(self, config: Mapping[str, JSON]) -> Pile:
        players = config.get("players")
        if not isinstance(players, list) or len(players) != 2:
            raise RecordError("'players' must be a list of two names")
        return Pile([str(p) for p in players])

    def config(self, state: Pile) -> JSONObject:
        return {"players": list(state.players)}

    def fold(self, state: Pile, event: EventT) -> Pile:
        if state.winner is not None:
            raise IllegalAction("game_finished", "the game is over")
        seat = event.get("player")
        if seat not in (0, 1):
            raise IllegalAction("bad_event", f"'player' must be seat 0 or 1, got {seat!r}")
        assert isinstance(seat, int)
        if event["type"] == "resign":
            state.winner = 1 - seat
            return state
        if seat != state.current:
            raise IllegalAction("not_your_turn", f"it is player {state.current}'s turn")
        if event["type"] == "take":
            stones = event.get("stones")
            if isinstance(stones, bool) or not isinstance(stones, int) \
                    or not 1 <= stones <= min(3, state.stones):
                raise IllegalAction("bad_take", f"take one to three stones, got {stones!r}")
            state.stones -= stones
            state.taken[seat] += stones
            if state.stones == 0:
                state.winner = seat
        state.current = 1 - seat
        return state

    def awaiting(self, state: Pile) -> Awaiting:
        if state.winner is not None:
            return Awaiting.over()
        return Awaiting.seats(Task(state.current, "take", "take one to three stones"))

    def legal_actions(self, state: Pile, seat: Seat) -> list[EventT]:
        if state.winner is not None or seat != state.current:
            return []
        return [{"type": "take", "player": seat, "stones": n}
                for n in (1, 2, 3) if n <= state.stones]

    def view(self, state: Pile, seat: Seat | None) -> JSONObject:
        return {"stones": state.stones, "taken": list(state.taken)}

    def summary(self, state: Pile) -> JSONObject:
        return {"finished": state.winner is not None,
                "winners": [] if state.winner is None else [state.winner],
                "current_player": None if state.winner is not None else state.current}

    def projection(self, state: Pile) -> Projection:
        return Projection(finished=state.winner is not None, scores=tuple(state.taken),
                          winners=() if state.winner is None else (state.winner,),
                          to_act=self.awaiting(state).players)


NIM = Nim()


def take(player: int, stones: int) -> EventT:
    return {"type": "take", "player": player, "stones": stones}


def test_a_game_of_the_core_alone_is_played_replayed_and_verified():
    state, record = play(NIM, {}, ["ann", "bob"], 1)
    assert NIM.awaiting(state).finished and NIM.projection(state).winners
    again = replay_events(NIM, NIM.start(record["config"]), record["events"])
    assert again.ok and NIM.projection(again.state) == NIM.projection(state)
    seed = record["fairness"]["seed"]
    assert verify(NIM, record, seed, commitment(seed)) == []


def test_the_defaults_copy_the_state_and_read_no_options_and_no_chance():
    state = NIM.start({"players": ["ann", "bob"]})
    copy = NIM.copy(state)
    NIM.fold(copy, NIM.read_event(take(0, 3)))
    assert (state.stones, state.taken) == (STONES, [0, 0]) and copy.stones == STONES - 3
    assert NIM.options(state) == {} and NIM.chance(state) is None
    assert NIM.automatic(state) is None and NIM.unaffected(state, [take(0, 1)], 1) is False
    assert NIM.view_revealed(state, 0) == NIM.view(state, 0)
    assert NIM.event_view(state, take(0, 1), 1) == take(0, 1)
    assert NIM.queries == {} and NIM.view_tables() == {}
    after = NIM.fold(NIM.copy(state), NIM.timeout(state, 0)[0])
    assert NIM.awaiting(after).players == (1,)
    gone = NIM.fold(NIM.copy(state), NIM.resign(state, 0)[0])
    assert NIM.projection(gone).winners == (1,)


def test_without_a_notation_of_its_own_an_action_is_written_as_json():
    line = NIM.format_action(take(1, 2))
    assert json.loads(line) == {"type": "take", "stones": 2}  # the writer is the seat
    assert NIM.parse_action(line, 1) == take(1, 2)
    assert NIM.describe_event(take(1, 2), ["ann", "bob"]) == f"bob: {line}"
    with pytest.raises(NotationError, match="JSON object"):
        NIM.parse_action("take 2", 1)
    with pytest.raises(NotationError, match="unknown event type 'castle'"):
        NIM.parse_action('{"type": "castle"}', 1)


def test_the_default_turn_mail_asks_the_awaited_seat_with_legal_examples():
    state = NIM.start({"players": ["ann", "bob"]})
    mail = NIM.turn_mail(state, 0)
    assert mail is not None and mail.subject == "your move"
    assert [NIM.parse_action(e, 0) for e in mail.examples] == NIM.legal_actions(state, 0)
    assert mail.prompt == f"Please take one to three stones: reply '{mail.examples[0]}'."
    assert NIM.turn_mail(state, 1) is None


def test_the_default_bots_play_legal_actions_judged_by_the_score():
    state = NIM.start({"players": ["ann", "bob"]})
    assert NIM.bot_action(state, 0, random.Random(0)) in NIM.legal_actions(state, 0)
    assert NIM.bot_candidates(state, 0) == NIM.legal_actions(state, 0)
    after = NIM.fold(NIM.copy(state), NIM.read_event(take(0, 3)))
    assert NIM.evaluate(after, 0) == 3 and NIM.evaluate(after, 1) == -3


def test_snapshots_are_a_capability_the_platform_checks_for():
    assert not isinstance(NIM, Snapshots) and not supported(NIM)
    assert not supported(TICTACTOE)
