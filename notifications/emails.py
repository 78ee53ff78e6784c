"""What each mail says. Built from the game's events and state when the mail is
sent, so a mail that waited in the outbox still tells the game as it is."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse

from engine import marram as engine
from engine.marram.notation import describe_event
from engine.marram.rules import MOVES_PER_TURN
from engine.marram.state import GameState
from games.models import Event, Game
from marram_site.links import site_url
from notifications import board_mail, clocks, signing
from notifications.models import Clock, Notification
from notifications.selectors import games_waiting_for

MAX_CHANGES = 40


def game_url(game_id: int) -> str:
    return site_url(f"/games/{game_id}/")


def invitation_url(token: str) -> str:
    """The invitation's page: what a mailed invitation and a link to pass on both give."""
    return site_url(reverse("pages:invitation", args=[token]))


def unsubscribe_url(user_id: int) -> str:
    return site_url(reverse("notifications:unsubscribe", args=[signing.unsubscribe_token(user_id)]))


def duration_words(left: timedelta) -> str:
    hours = max(round(left.total_seconds() / 3600), 0)
    if hours >= 48:
        return f"{hours // 24} days"
    if hours >= 1:
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return "less than an hour"


def _names(game: Game) -> list[str]:
    return list(engine.config_from_json(game.config).players)


def _history(game: Game) -> tuple[list[Event], GameState]:
    """The game's events up to the seq its row was read at, and the state after
    them: a consistent picture, though moves may be made meanwhile (mail is
    written without the game's lock)."""
    events = list(Event.objects.filter(game=game, seq__lt=game.seq).order_by("seq"))
    replay = engine.record.replay_events(engine.config_from_json(game.config),
                                         [e.payload for e in events])
    return events, replay.state


def _since_last_move(events: list[Event], seat: int, names: list[str]) -> list[str]:
    """What happened since the seat's own last move."""
    own = [i for i, e in enumerate(events) if e.actor_id is not None and e.type != "resign"
           and e.payload.get("player") == seat]
    lines = [describe_event(e.payload, names, forced=e.actor_id is None and e.type == "pass")
             for e in events[own[-1] + 1 if own else 0:]]
    if len(lines) > MAX_CHANGES:
        lines = [f"... {len(lines) - MAX_CHANGES} earlier events ...", *lines[-MAX_CHANGES:]]
    return lines


def _scores(state: GameState, names: list[str]) -> list[dict[str, Any]]:
    return [{"name": name, "score": state.scores[i], "left": i in state.resigned,
             "winner": i in state.winners} for i, name in enumerate(names)]


def awaiting_words(wait: dict[str, Any]) -> str:
    if wait["kind"] == "guess":
        return (f"Guess how many hops the {wait['creature']} makes before it is caught, or "
                f"that it escapes: reply 'guess {wait['creature']} 7' or "
                f"'guess {wait['creature']} escape'.")
    return f"It is your turn: move {wait['move']} of {MOVES_PER_TURN}."


def _turn_context(n: Notification, game: Game, now: datetime) -> dict[str, Any]:
    events, state = _history(game)
    names = _names(game)
    seat = n.seat
    wait = engine.awaiting(state)
    yours = wait["player"] == seat and wait["kind"] in ("move", "guess")
    clock = Clock.objects.filter(game=game, seat=seat).first()
    left = clocks.clock_remaining(clock, now) if clock is not None else None
    return {
        "changes": _since_last_move(events, seat, names),
        "scores": _scores(state, names),
        "awaiting": awaiting_words(wait) if yours else "",
        "hand": state.hands[seat],
        "moves": [],
        **(board_mail.turn_details(game, state, seat, game.seq) if yours else {}),
        "time_left": duration_words(left) if left is not None else "",
        "reply_to": signing.reply_address(game.pk, seat, game.seq) if yours else "",
    }


def render_notification(n: Notification, now: datetime) -> None:
    """Fill in the subject, the bodies and the reply address of a mail written
    without them (the outbox rows the game's events make)."""
    game, user = n.game, n.user
    context: dict[str, Any] = {"user": user, **links(user_id=n.user_id, game=game)}
    kind = n.kind
    if kind in (Notification.Kind.YOUR_TURN, Notification.Kind.REMINDER):
        context.update(_turn_context(n, game, now))
        context["reminder"] = kind == Notification.Kind.REMINDER
        template = "turn"
        subject = (f"Marram game {game.pk}: {context['time_left']} left for your move"
                   if context["reminder"] else f"Marram game {game.pk}: your move")
        if "guess" in context["awaiting"]:
            subject = subject.replace("your move", "your guess")
        n.reply_to = context["reply_to"]
    elif kind == Notification.Kind.GAME_STARTED:
        names = _names(game)
        context.update(players=names, first=names[0], days_per_move=game.days_per_move)
        template, subject = "game_started", f"Marram game {game.pk} has begun"
    elif kind == Notification.Kind.GAME_OVER:
        _, state = _history(game)
        names = _names(game)
        context.update(scores=_scores(state, names),
                       winners=[names[i] for i in state.winners])
        template, subject = "game_over", f"Marram game {game.pk} is over"
    elif kind == Notification.Kind.DIGEST:
        waiting = games_waiting_for(user)
        context["games"] = [{"id": g.pk, "variant": g.get_variant_display(), "url": game_url(g.pk),
                             "scores": g.projection.get("scores", [])} for g in waiting]
        template = "digest"
        subject = f"Marram: {len(waiting)} game{'s' if len(waiting) != 1 else ''} wait for you"
    else:
        raise ValueError(f"a {kind} mail is written when it is queued")
    n.subject = subject
    n.body_text = render_to_string(f"notifications/email/{template}.txt", context).strip() + "\n"
    n.body_html = render_to_string(f"notifications/email/{template}.html", context)


def links(*, user_id: int | None, game: Game | None) -> dict[str, Any]:
    """What every mail's footer and links need."""
    found: dict[str, Any] = {"game": game,
                             "settings_url": site_url(reverse("notifications:settings"))}
    if game is not None:
        found.update(game_url=game_url(game.pk), variant=game.get_variant_display())
    if user_id is not None:
        found["unsubscribe_url"] = unsubscribe_url(user_id)
    return found


def render_bodies(*, template: str, context: dict[str, Any]) -> tuple[str, str]:
    """The plain and HTML bodies of a mail written as it is queued (the answers to
    replies, invitations)."""
    return (render_to_string(f"notifications/email/{template}.txt", context).strip() + "\n",
            render_to_string(f"notifications/email/{template}.html", context))
