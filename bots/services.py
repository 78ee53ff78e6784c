"""Computer players on the service: games started with them, and their moves.
(Their accounts are bots.accounts'; the takeover of a seat out of time, called
by the games app, is bots.hooks'.)

A bot acts through the same service as a person (games.services.action_submit,
with its account as the actor). Its move is made by a task enqueued after each
commit that leaves one of its seats awaited (bots.after_move.ComputerMoves, a
follower of the change: games.after_move), and by the beat sweep for a task
that was lost (bots.tasks.bots_sweep). The task may run twice, or late: it submits with the seq it
was enqueued for and an idempotency key made of game, seq and seat, so the game
row's lock decides, and a position gets at most one move.

The bot's choice is deterministic given the game's seed and seq (its random
generator is seeded from them, on the server only); the bot itself sees only its
seat's view: engine.bots works on a determinization of the state."""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from bots.accounts import bot_accounts
from bots.models import GameBots, Level
from bots.selectors import bot_seats
from engine import bots as engine_bots
from games import services as games_services
from games.models import Game
from games.selectors import game_state_get, rules_of
from ratings.services import rated_choice_set
from web.errors import Conflict, Forbidden, Invalid

logger = logging.getLogger(__name__)

# ---------------------------------------------------------------- games with bots


def _check_levels(bots: Any, seats: int, takeover: Any) -> list[str]:
    """The bots' levels, refused (400, nothing written) if they do not fit."""
    if not isinstance(bots, (list, tuple)) or not all(isinstance(b, str) for b in bots):
        raise Invalid("'bots' is a list of levels, such as [\"strong\"]", code="bad_bots",
                      field="bots")
    levels = list(bots)
    unknown = [b for b in levels if b not in Level.values]
    if unknown:
        raise Invalid(f"no computer level {unknown[0][:20]!r}: the levels are "
                      f"{', '.join(Level.values)}", code="unknown_level", field="bots")
    if len(levels) > seats - 1:
        raise Invalid(f"a game of {seats} seat{'s' if seats != 1 else ''} takes at most "
                      f"{seats - 1} computer player{'s' if seats != 2 else ''}: one seat is "
                      "yours", code="too_many_bots", field="bots")
    if takeover not in (None, ""):
        if takeover not in Level.values:
            raise Invalid(f"no computer level {str(takeover)[:20]!r} to take over seats: the "
                          f"levels are {', '.join(Level.values)}", code="unknown_level",
                          field="takeover")
        if seats < 3:
            raise Invalid("a computer player takes over a seat only in a game of 3 or more "
                          "players", code="takeover_needs_three", field="takeover")
    return levels


def game_create(*, user: User, seats: int, bots: Sequence[str] = (),
                takeover: str | None = None, rated: bool = False, **create: Any) -> Game:
    """games.services.game_create, with computer players of ``bots`` (levels, in any
    mix, a level more than once too) in seats and the ``takeover`` option, in one
    transaction: all of it or nothing. The game starts at once when the bots take
    the last seats. ``rated``: the game is rated even with a computer player in it
    (one seated now, or one that takes a seat over later)."""
    levels = _check_levels(bots, seats, takeover)
    if create.get("invite") and levels and len(levels) >= seats - 1:
        raise Invalid("every seat but yours goes to a computer player: there is none left to "
                      "invite anyone to", code="no_seat_to_invite", field="emails")
    with transaction.atomic():
        game = games_services.game_create(user=user, seats=seats, **create)
        if takeover:
            GameBots.objects.create(game=game, takeover=takeover)
        if rated:  # settled before the game can start
            rated_choice_set(game=game, rated=True)
        for account in bot_accounts(levels):  # two of a level: two of its accounts
            games_services.game_join(game=game, user=account)
    game.refresh_from_db()
    return game


def play_the_computer(*, user: User, game: str, levels: Sequence[str],
                      options: Mapping[str, Any] | None = None, rated: bool = False) -> Game:
    """A game of ``game`` with ``options`` (its defaults for those left out)
    between the user and a computer player of each of ``levels``: every seat
    taken, it starts at once; ``rated`` or not."""
    return game_create(user=user, game=game, options=options, seats=1 + len(levels),
                       bots=levels, rated=rated)


# ---------------------------------------------------------------- moves


def bot_rng(seed: str, seq: int, seat: int) -> random.Random:
    """The bot's generator for a position: from the game's secret seed (it never
    leaves the server) and the position, so a move can be replayed."""
    digest = hashlib.sha256(f"marram-bot:{seed}:{seq}:{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def bot_key(game_id: int, seq: int, seat: int) -> str:
    return f"bot:{game_id}:{seq}:{seat}"


def bot_move(game_id: int, seq: int) -> games_services.ActionResult | None:
    """Play the move of a bot the game awaits at ``seq``, if it still does; None if
    there is nothing to do (the game moved on, is over, waits for chance or for
    people only). Safe to run twice: the second run finds the seq gone, or its
    idempotency key used (the same answer, nothing written)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING or game.seq != seq:
        return None
    state = game_state_get(game)
    rules = rules_of(game)
    wait = rules.awaiting(state)
    if wait.finished or wait.chance is not None:
        return None
    seated = bot_seats(game, wait.players)
    if not seated:
        return None
    seat = min(seated)  # another awaited bot moves after this, at the next seq
    bot = seated[seat]
    move = engine_bots.choose(rules, state, seat, bot.level, bot_rng(game.seed, seq, seat))
    try:
        # written only if the game is still at this seq (action_submit's guarded
        # write), so still this seat's turn
        return games_services.action_submit(
            game=game_id, user=bot.user, action=dict(move.action), expected_seq=seq,
            idempotency_key=bot_key(game_id, seq, seat))
    except (Conflict, Forbidden) as e:  # moved on meanwhile: someone else's to play
        logger.info("bot move in game %s at seq %s not made: %s", game_id, seq, e.message)
        return None
