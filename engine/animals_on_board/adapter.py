"""Animals on Board as the platform sees it: the Game protocol
(``engine.protocol``) over the rules modules of this package, which it only
calls. Nothing here decides a rule."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import cast

from ..protocol import (
    EXAMPLES_IN_MAIL,
    JSON,
    Awaiting,
    Game,
    JSONObject,
    ModuleNotation,
    ModuleSnapshots,
    Option,
    Options,
    Projection,
    SearchSettings,
    Seat,
    Task,
    TurnMail,
)
from . import bots, moves, notation, rounds, rules, snapshot
from . import view as views
from .events import ACTION_SCHEMA, EVENT_TYPES, Event, Pass
from .record import FORMAT, VERSION, config_from_json, config_to_json, deal
from .scoring import score_ark
from .state import State
from .tiles import SEAT_COUNTS, shown


class AnimalsOnBoard(ModuleNotation[State, Event], ModuleSnapshots[State], Game[State, Event]):
    key = "animals_on_board"
    title = "Animals on Board"
    rules_version = rules.RULES_VERSION
    record_format = FORMAT
    record_version = VERSION
    seat_counts = SEAT_COUNTS
    options_declared: tuple[Option, ...] = ()
    event_types = EVENT_TYPES
    has_chance = True  # the deck, dealt from the seed
    hidden_information = True  # the stack, the face-down tile, secret keeps, tiles taken unseen
    action_schema = ACTION_SCHEMA
    bot_policies = bots.POLICIES
    action_fields: Mapping[str, tuple[str, ...]] = {
        # declared, so that the platform never lists the legal actions (8190 splits
        # of a 4-player round's group) to learn what a player may submit
        "keep": ("type", "player", "tile"),
        "split": ("type", "player", "group", "part"),
        "take": ("type", "player", "group"),
        "pass": ("type", "player"),
        "resign": ("type", "player"),
    }
    search = SearchSettings(playouts=180, cpu_seconds=2.0, rollout_moves=3,
                            rollout_policy="greedy", width=8, ranked_depth=3,
                            evaluation_scale=5.0, exploration=0.2,
                            others_policy="greedy")
    """The eight best actions by one-ply evaluation at the first three levels of
    the tree (unpruned, a few hundred playouts cannot try every reply to every
    action, and a move's value is then the mean of replies nobody would make: at
    200 playouts it won 4 of its first 11 games against medium); the other
    seat's actions in the tree are the ``greedy`` policy's (the candidate the
    evaluation likes best, as the medium bot plays, on the playout's
    determinization), so the tree branches on the seat's own actions alone;
    where the tree leaves a line, three more actions of the ``greedy`` policy,
    then the evaluation. Judged at once, a line stops mid-round, where the
    evaluation only guesses at the takes to come: that search (500 playouts)
    won 40 of 76 games against medium; the short greedy rollouts won 59.0% of
    200 (250 playouts, the other seat searched by UCB). Each greedy action of
    the other seat costs a rollout's, so the budget is 180 playouts
    (on 80 paired seeds it won 53 where that search won 45; over the 200
    games of seed 1, 147 against medium where that search won 118;
    docs/bots.md). Random play to the end buys groups no player would."""

    # -- members that are functions of the rules modules as they stand

    notation_module = notation
    snapshot_module = snapshot
    fold = staticmethod(rules.step)
    legal_actions = staticmethod(moves.legal_actions)
    unaffected = staticmethod(moves.keep_unaffected)
    event_view = staticmethod(views.event_view)
    determinize = staticmethod(bots.determinize)
    evaluate = staticmethod(bots.evaluate)
    bot_candidates = staticmethod(bots.candidates)

    # -- options and the start

    def setup(self, options: Options, players: Sequence[str], seed: str) -> JSONObject:
        return config_to_json(deal(players, seed))

    def start(self, config: Mapping[str, JSON]) -> State:
        return State.new(config_from_json(config))

    def config(self, state: State) -> JSONObject:
        return config_to_json(state.config)

    # -- who acts

    def awaiting(self, state: State) -> Awaiting:
        if state.finished:
            return Awaiting.over()
        if state.setup:
            return Awaiting.seats(*(Task(s, "keep", "keep one of your three tiles on your "
                                         "ark, in secret", short="keep a tile")
                                    for s in moves.awaited(state)))
        seat = state.current
        assert seat is not None  # a round in play always has a seat to move
        prompt = ("pass: you can neither split a group nor pay for one"
                  if moves.stuck(state, seat) else
                  "split a group (and gain a food crate) or take one (a crate a tile)")
        return Awaiting.seats(Task(seat, "turn", prompt, {"round": state.round,
                                                          "final_turn": state.final_turn},
                                   short="pass" if moves.stuck(state, seat)
                                   else "split or take"))

    def automatic(self, state: State) -> Event | None:
        """The pass of a seat that can neither split nor pay for a group."""
        seat = state.current
        if state.finished or state.setup or seat is None or not moves.stuck(state, seat):
            return None
        return Pass(type="pass", player=seat)

    # -- what people see

    # The views are TypedDicts of JSON values (engine.animals_on_board.view): JSON
    # objects, which mypy does not take a TypedDict for.

    def view(self, state: State, seat: Seat | None) -> JSONObject:
        return cast(JSONObject, views.seat_view(state, seat))

    def view_revealed(self, state: State, seat: Seat | None) -> JSONObject:
        return cast(JSONObject, views.revealed_view(state, seat))

    def summary(self, state: State) -> JSONObject:
        return cast(JSONObject, views.summary(state))

    # -- the result

    def projection(self, state: State) -> Projection:
        """Points stay hidden until the end: they would tell what the arks hold."""
        scores = tuple(score_ark(state.arks[s], state.crates[s]).points if state.finished
                       else None for s in range(state.seats))
        return Projection(finished=state.finished, scores=scores,
                          winners=tuple(rounds.final_winners(state)),
                          to_act=self.awaiting(state).players,
                          out=tuple(sorted(state.resigned)), end=state.end)

    # -- words

    def task_mail(self, state: State, task: Task) -> TurnMail:
        seat = task.seat
        if task.kind == "keep":
            drawn = state.drawn[seat]
            return TurnMail("keep a tile", "Your three tiles are " + ", ".join(drawn)
                            + ". Keep one on your ark, in secret; the other two go face up "
                            f"into the middle. Reply 'keep {drawn[0]}' or another of them.",
                            tuple(f"keep {t}" for t in drawn))
        groups = "; ".join(f"group {g}: " + " ".join(shown(group, state.face_down))
                           for g, group in enumerate(state.middle)) or "nothing"
        last = " This is your last turn of the round." if state.final_turn else ""
        actions = self.legal_actions(state, seat)
        # a take first, when one is possible: the first few of a list of splits would hide it
        takes = [i for i, a in enumerate(actions) if a["type"] == "take"][:1]
        rest = [i for i in range(len(actions)) if i not in takes]
        picked = [actions[i] for i in (takes + rest)[:EXAMPLES_IN_MAIL]]
        return TurnMail("your turn", f"Round {state.round}: the middle holds {groups}. "
                        f"You hold {state.crates[seat]} food "
                        f"crate{'' if state.crates[seat] == 1 else 's'}.{last} Split a group "
                        "(gaining a crate) or take one (a crate a tile): reply with your move "
                        "on the first line.", tuple(self.format_action(a) for a in picked))

    # -- bots and self-play

    def bot_action(self, state: State, seat: Seat, rng: random.Random,
                   policy: str = "random") -> Event:
        if policy == "greedy":
            return bots.greedy_action(state, seat, rng)
        return bots.random_action(state, seat, rng)

    def selfplay_stats(self, state: State) -> Mapping[str, float]:
        return {"rounds": state.round,
                "tiles on arks": sum(len(ark) for ark in state.arks),
                "tiles left": state.stack() + sum(len(g) for g in state.middle)}


GAME = AnimalsOnBoard()
