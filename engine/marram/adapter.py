"""Marram as the platform sees it: the Game protocol (``engine.protocol``) over
the rules modules of this package, which it only calls. Nothing here decides a
rule; it translates between the protocol's vocabulary and Marram's."""
from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from typing import cast

from ..errors import BadOptions, IllegalAction
from ..fairness import deck_from_seed
from ..protocol import (
    EXAMPLES_IN_MAIL,
    JSON,
    Awaiting,
    Chance,
    Choice,
    Game,
    JSONObject,
    ModuleSnapshots,
    Option,
    Options,
    Projection,
    Query,
    SearchSettings,
    Seat,
    Task,
    TurnMail,
    query_action,
)
from . import actions, bots, creatures, game, notation, preview, selfplay, snapshot
from . import view as views
from .catalogue import standard
from .events import ACTION_SCHEMA, MarramEvent, Pass
from .record import FORMAT, VERSION, config_from_json, config_to_json
from .rules import CREATURE_MAX_HOPS, MOVES_PER_TURN, RULES_VERSION, rules_for
from .state import GameState

VARIANTS = (Choice("classic", "Classic"), Choice("pitchfork", "Pitchfork"),
            Choice("animals", "Animals"))
LENGTHS = (Choice("long", "Long game"), Choice("short", "Short game (to a target score)"))
MOVES_WITH_CLAIMS = ("place", "flip")
"""The actions a claim goes with: what the claims and score previews are asked of."""


def _view_of_all(state: GameState) -> views.PlayerView:
    seen = views.player_view(state, None)
    # row by row, the same however the game got there (as the API has always given it)
    seen["board"].sort(key=lambda tile: (tile["at"][1], tile["at"][0]))
    return seen


def _seat_view(state: GameState, seat: Seat | None) -> views.PlayerView:
    # every seat sees the same but for ``you`` (hands are public): made once a state
    return {**state.once("view", _view_of_all), "you": seat}


# What the game awaits, made once for each case (a move asks about ten times):
# an Awaiting and its tasks are never changed.
_OVER = Awaiting.over()


@functools.cache
def _awaiting_draw(event: str, creature: str) -> Awaiting:
    return Awaiting.draw(f"where the {creature} {'appears' if event == 'appear' else 'hops'}")


@functools.cache
def _awaiting_guess(seat: Seat, creature: str) -> Awaiting:
    return Awaiting.seats(Task(
        seat, "guess", f"guess how many hops the {creature} makes before it is caught, or "
        "that it escapes", {"creature": creature}, f"guess the {creature}'s hops"))


@functools.cache
def _awaiting_move(seat: Seat, move: int) -> Awaiting:
    return Awaiting.seats(Task(
        seat, "move", f"make move {move} of {MOVES_PER_TURN}: lay a tile, flip one, or pass "
        "when no tile fits", {"move": move}, "move"))


class Marram(ModuleSnapshots[GameState], Game[GameState, MarramEvent]):
    key = "marram"
    title = "Marram"
    rules_version = RULES_VERSION
    record_format = FORMAT
    record_version = VERSION
    seat_counts = (2, 3, 4)
    options_declared = (
        Option("variant", "Variant", VARIANTS, "classic"),
        Option("length", "Length", LENGTHS, "long", help="Animals is played long only"),
    )
    event_types = game.EVENT_TYPES
    has_chance = True  # the deck, and the creatures' hops
    hidden_information = True  # the deck's order
    action_schema = ACTION_SCHEMA
    bot_policies = selfplay.POLICIES
    action_fields = {
        "place": ("type", "player", "tile", "face", "at", "rotation", "claim"),
        "flip": ("type", "player", "at", "rotation", "claim"),
        "pass": ("type", "player"),
        "guess": ("type", "player", "creature", "hops"),
        "resign": ("type", "player"),
    }
    action_defaults: Mapping[str, JSONObject] = {"place": {"claim": None},
                                                 "flip": {"claim": None}}
    search = SearchSettings(playouts=300, cpu_seconds=2.0, rollout_moves=0, width=12,
                            ranked_depth=2, evaluation_scale=5.0, exploration=0.15,
                            margin_weight=0.3, margin_scale=30.0)
    """A selective search: the twelve actions the one-ply evaluation likes best
    at the root and at the next action (the turn's other move, or the reply),
    each line judged by ``evaluate`` at once (far cheaper than a random playout
    and not blurred by random moves), over determinized decks. The
    evaluation is nearly exact for a line within a turn, so the exploration is
    small: the search spends its playouts on the lines that score. At scale 5
    a lead of 25 points is a sure win (99.3%) and 10 points more add almost
    nothing, so 30% of each reward is the lead at scale 30: far ahead, a
    bigger score still counts."""

    # -- members that are functions of the rules modules as they stand

    snapshot_module = snapshot
    fold = staticmethod(game.step)
    determinize = staticmethod(bots.determinize)
    evaluate = staticmethod(bots.evaluate)

    def __init__(self) -> None:
        self.queries: Mapping[str, Query[GameState]] = {
            "claims": self._claims, "score_preview": self._score_preview,
            "guess_odds": self._guess_odds}

    # -- options and the start

    def check_options(self, options: Options, seats: int) -> None:
        try:
            rules_for(str(options["variant"]), str(options["length"]), seats)
        except ValueError as e:
            raise BadOptions(str(e)) from None

    def setup(self, options: Options, players: Sequence[str], seed: str) -> JSONObject:
        deck = deck_from_seed(seed, standard().deck_ids())
        config = game.make_config(str(options["variant"]), str(options["length"]), players,
                                  deck=deck)
        return config_to_json(config)

    def start(self, config: Mapping[str, JSON]) -> GameState:
        return game.new_game(config_from_json(config))

    def config(self, state: GameState) -> JSONObject:
        return config_to_json(state.config)

    # -- events

    def normalise_event(self, raw: Mapping[str, object]) -> JSONObject:
        return cast(JSONObject, actions.normalise_event(dict(raw)))

    # -- who acts

    def awaiting(self, state: GameState) -> Awaiting:
        wait = game.awaiting(state)
        if wait["kind"] == "finished":
            return _OVER
        if wait["kind"] == "chance":
            return _awaiting_draw(wait["event"], wait["creature"])
        if wait["kind"] == "guess":
            return _awaiting_guess(wait["player"], wait["creature"])
        return _awaiting_move(wait["player"], wait["move"])

    def legal_actions(self, state: GameState, seat: Seat) -> list[MarramEvent]:
        if seat not in self.awaiting(state).players:
            return []
        return cast(list[MarramEvent], actions.legal_actions(state))

    def chance(self, state: GameState) -> Chance[MarramEvent] | None:
        odds = game.chance_odds(state)
        if odds is None:
            return None
        what = self.awaiting(state).chance or "chance"
        # sorted by position: the order fairness has always drawn Marram's outcomes in
        return Chance(what, tuple((cast(MarramEvent, game.chance_event(state, pos)), odds[pos])
                                  for pos in sorted(odds)))

    def automatic(self, state: GameState) -> MarramEvent | None:
        """The pass the player to move must make when nothing else is legal."""
        wait = game.awaiting(state)
        if wait["kind"] != "move":
            return None
        if game.first_placement(state, wait["player"]) is not None:
            return None  # some tile fits, so no pass (the legal moves reuse its index)
        only_pass = Pass(type="pass", player=wait["player"])
        return only_pass if actions.legal_actions(state) == [only_pass] else None

    # -- what people see

    # The views are TypedDicts of JSON values (engine.marram.view): JSON objects,
    # which mypy does not take a TypedDict for.

    def view(self, state: GameState, seat: Seat | None) -> JSONObject:
        return cast(JSONObject, _seat_view(state, seat))

    def view_revealed(self, state: GameState, seat: Seat | None) -> JSONObject:
        # the deck is the only secret (hands are public): its order, next tile first
        seen: views.PlayerView = {**_seat_view(state, seat), "revealed": True,
                                  "deck": list(state.config.deck[state.drawn:])}
        return cast(JSONObject, seen)

    def summary(self, state: GameState) -> JSONObject:
        return cast(JSONObject, views.summary(state))

    def view_tables(self) -> Mapping[str, JSONObject]:
        return {"drawings": cast(JSONObject, views.drawings(standard()))}

    def projection(self, state: GameState) -> Projection:
        left_alone = state.finished and len(state.active_seats()) == 1 and bool(state.resigned)
        return Projection(
            finished=state.finished, scores=tuple(state.scores),
            winners=tuple(state.winners), to_act=self.awaiting(state).players,
            out=tuple(sorted(state.resigned)), end="resign" if left_alone else None)

    def _claims(self, state: GameState, seat: Seat | None, args: Mapping[str, JSON]) -> JSON:
        """The claims that may go with a place or flip (``{"action": ...}``)."""
        action = query_action(args, seat, MOVES_WITH_CLAIMS)
        return cast(JSON, actions.claim_options(state, action))

    def _score_preview(self, state: GameState, seat: Seat | None,
                       args: Mapping[str, JSON]) -> JSON:
        """What a move (``{"action": ...}``, claim included) would score at once:
        the points each seat gains and the awards, as the score log writes them."""
        action = query_action(args, seat, MOVES_WITH_CLAIMS)
        return cast(JSON, preview.score_preview(state, self.read_event(action)))

    def _guess_odds(self, state: GameState, seat: Seat | None,
                    args: Mapping[str, JSON]) -> JSON:
        """How a guess (``{"action": {"type": "guess", "creature", "hops"}}``)
        pays: for each fate of the creature, its chance on the board as it lies
        (``creatures.fate_odds``) and the points the guess would bring against
        the guesses made so far (``creatures.guess_payouts``), with every
        guess's expected points. The asking seat's due guess only."""
        action = query_action(args, seat, ("guess",))
        wait = game.awaiting(state)
        name = action.get("creature")
        if wait["kind"] != "guess" or wait["creature"] != name:
            raise IllegalAction("bad_query", f"no guess of the {name} is due now")
        guesser = wait["player"] if seat is None else seat
        creature = state.creatures[str(name)]
        odds = creatures.fate_odds(state, creature)
        hops = action.get("hops")
        guess: creatures.Outcome = hops if isinstance(hops, int | str) else 0
        if not (guess == "escape" or (isinstance(guess, int) and 1 <= guess <= CREATURE_MAX_HOPS)):
            raise IllegalAction("bad_query", f"a guess is a number of hops from 1 to "
                                f"{CREATURE_MAX_HOPS} or \"escape\", got {hops!r}")
        pays = creatures.guess_payouts(state, creature, guesser, [guess])[guess]
        expected = creatures.expected_points(state, creature, guesser)
        return {"creature": creature.name, "guess": guess,
                "guesses": {str(s): g for s, g in creature.guesses.items()},
                "fates": [{"fate": fate, "chance": round(p, 4), "points": pays[fate]}
                          for fate, p in odds.items()],
                "expected": round(expected[guess], 2),
                "expected_by_guess": [{"guess": g, "expected": round(v, 2)}
                                      for g, v in expected.items()]}

    # -- words

    def parse_action(self, text: str, seat: Seat) -> MarramEvent:
        return cast(MarramEvent, notation.parse_action(text, seat))

    def format_action(self, action: MarramEvent) -> str:
        return notation.format_action(dict(action))

    def describe_event(self, event: MarramEvent, names: Sequence[str], *,
                       forced: bool = False) -> str:
        return notation.describe_event(dict(event), list(names), forced=forced)

    def task_mail(self, state: GameState, task: Task) -> TurnMail:
        if task.kind == "guess":
            creature = task.detail["creature"]
            return TurnMail("your guess", f"Guess how many hops the {creature} makes before "
                            f"it is caught, or that it escapes: reply 'guess {creature} 7' or "
                            f"'guess {creature} escape'.",
                            (f"guess {creature} 7", f"guess {creature} escape"))
        examples = tuple(self.format_action(a)
                         for a in self.legal_actions(state, task.seat)[:EXAMPLES_IN_MAIL])
        return TurnMail("your move", f"It is your turn: move {task.detail['move']} of "
                        f"{MOVES_PER_TURN}. Reply with your move on the first line.", examples)

    # -- bots and self-play

    def bot_action(self, state: GameState, seat: Seat, rng: random.Random,
                   policy: str = "random") -> MarramEvent:
        return cast(MarramEvent, selfplay.random_action(state, rng, policy))

    def bot_candidates(self, state: GameState, seat: Seat) -> list[MarramEvent]:
        wait = game.awaiting(state)
        if wait["kind"] == "guess" and wait["player"] == seat:
            # every guess evaluates alike until the creature's fate: the one
            # worth most by the odds of the board (creatures.best_guess)
            name = wait["creature"]
            hops = creatures.best_guess(state, state.creatures[name], seat)
            return [cast(MarramEvent, {"type": "guess", "player": seat, "creature": name,
                                       "hops": hops})]
        if seat not in self.awaiting(state).players or state.pending:
            return self.legal_actions(state, seat)  # nothing
        return cast(list[MarramEvent], bots.candidates(state))

    def selfplay_stats(self, state: GameState) -> Mapping[str, float]:
        kinds = ("grass", "sand", "blue", "orange", "worm", "freak")
        return {"tiles laid": len(state.board), "tiles discarded": len(state.discarded),
                **{f"completed {k}": state.completed.get(k, 0) for k in kinds}}


GAME = Marram()
