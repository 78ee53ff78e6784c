"""What each mail says. Built from the game's events and state when the mail is
sent, so a mail that waited in the outbox still tells the game as it is."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse

from engine.protocol import standings
from games import clocks
from games.models import Clock, Event, Game
from games.selectors import game_state_get, rules_of
from notifications import board_mail, signing
from notifications.models import Notification
from notifications.selectors import games_waiting_for
from web.links import site_url

MAX_CHANGES = 40


def game_url(game_id: int) -> str:
    return site_url(f"/games/{game_id}/")


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
    return game.config_players()


def _history(game: Game) -> tuple[list[Event], Any]:
    """The game's events up to the seq its row was read at, and the state after
    them: a consistent picture, though moves may be made meanwhile (mail is
    written without the game's lock). The state is the one a move would read
    (games.selectors.game_state_get: this process's cache, a snapshot and the
    events after it), not a replay of the whole game."""
    events = list(Event.objects.filter(game=game, seq__lt=game.seq).order_by("seq"))
    return events, game_state_get(game)


def _since_last_move(game: Game, state: Any, events: list[Event], seat: int,
                     names: list[str]) -> list[str]:
    """What happened since the seat's own last move (leaving is not a move)."""
    rules = rules_of(game)
    leaving = {e["type"] for e in rules.resign(state, seat)}
    own = [i for i, e in enumerate(events) if e.actor_id is not None and e.type not in leaving
           and e.payload.get("player") == seat]
    lines = [rules.describe_event(e.payload, names, forced=e.actor_id is None
                                  and e.payload.get("player") is not None)
             for e in events[own[-1] + 1 if own else 0:]]
    if len(lines) > MAX_CHANGES:
        lines = [f"... {len(lines) - MAX_CHANGES} earlier events ...", *lines[-MAX_CHANGES:]]
    return lines


def _scores(game: Game, state: Any, names: list[str]) -> list[dict[str, Any]]:
    p = rules_of(game).projection(state)
    return [{"name": name, "score": p.scores[i], "left": i in p.out,
             "winner": i in p.winners} for i, name in enumerate(names)]


def awaiting_words(game: Game, state: Any, seat: int) -> str:
    """What the game asks of the seat now, in the game's words; '' for nothing."""
    asked = rules_of(game).turn_mail(state, seat)
    return asked.prompt if asked is not None else ""


def _turn_context(n: Notification, game: Game, now: datetime) -> dict[str, Any]:
    events, state = _history(game)
    names = _names(game)
    seat = n.seat
    if seat is None:
        raise ValueError(f"a {n.kind} mail is to a seat; row {n.pk} names none")
    rules = rules_of(game)
    yours = seat in rules.awaiting(state).players
    clock = Clock.objects.filter(game=game, seat=seat).first()
    left = clocks.clock_remaining(clock, now) if clock is not None else None
    asked = rules.turn_mail(state, seat) if yours else None
    return {
        "changes": _since_last_move(game, state, events, seat, names),
        "scores": _scores(game, state, names),
        "awaiting": asked.prompt if asked is not None else "",
        "asked": asked.subject if asked is not None else "your move",
        "hand": [],
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
    if kind == Notification.Kind.DIGEST:
        if user is None:
            raise ValueError(f"a digest is a player's; row {n.pk} names none")
        waiting = games_waiting_for(user)
        context["games"] = [{"id": g.pk, "title": g.title, "url": game_url(g.pk),
                             "scores": g.projection.get("scores", [])} for g in waiting]
        template = "digest"
        subject = (f"{settings.MARRAM_SITE_NAME}: {len(waiting)} "
                   f"game{'s' if len(waiting) != 1 else ''} wait for you")
    elif game is None:
        raise ValueError(f"a {kind} mail without a game is written when it is queued")
    elif kind in (Notification.Kind.YOUR_TURN, Notification.Kind.REMINDER):
        context.update(_turn_context(n, game, now))
        context["reminder"] = kind == Notification.Kind.REMINDER
        template = "turn"
        asked = context["asked"]
        subject = subject_for(game, f"{context['time_left']} left for {asked}"
                              if context["reminder"] else asked)
        n.reply_to = context["reply_to"]
    elif kind == Notification.Kind.GAME_STARTED:
        names = _names(game)
        context.update(players=names, first=names[0], days_per_move=game.days_per_move,
                       chat_reply=_chat_reply(n))
        template, subject = "game_started", subject_for(game, "the game has begun")
        n.reply_to = context["chat_reply"]
    elif kind == Notification.Kind.GAME_OVER:
        state = game_state_get(game)
        names = _names(game)
        p = rules_of(game).projection(state)
        context.update(scores=_scores(game, state, names),
                       winners=[names[s.seat] for s in standings(p) if s.won],
                       chat_reply=_chat_reply(n))
        template, subject = "game_over", subject_for(game, "the game is over")
        n.reply_to = context["chat_reply"]
    else:
        raise ValueError(f"a {kind} mail is written when it is queued")
    n.subject = subject
    n.body_text = render_to_string(f"notifications/email/{template}.txt", context).strip() + "\n"
    n.body_html = render_to_string(f"notifications/email/{template}.html", context)


def subject_stem(game: Game) -> str:
    """What every mail of a game's subject starts with ("Marram game 12"): mail
    clients that group a conversation by its subject keep a game together, the
    subject's changing part after it. Thread-Topic carries it alone (Outlook)."""
    return f"{rules_of(game).title} game {game.pk}"


def subject_for(game: Game, rest: str) -> str:
    """A subject of the game's mail: its stem, then what this mail is about."""
    return f"{subject_stem(game)}: {rest}"


def _chat_reply(n: Notification) -> str:
    """The reply address of a mail that asks for no move: a reply to it is said in
    the game's chat (signing.command_address); '' when the seat is not known or
    the site has no chat command."""
    if n.game_id is None or n.seat is None or "say" not in settings.MARRAM_MAIL_COMMANDS:
        return ""
    return signing.command_address(n.game_id, n.seat, "say")


def game_title(game: Game) -> str:
    """The game's own title: mail names a game by it."""
    return rules_of(game).title


def game_choices(game: Game) -> str:
    """The labels of the game's chosen options ("Classic · Long game")."""
    return game.title.partition(" · ")[2]


def links(*, user_id: int | None, game: Game | None) -> dict[str, Any]:
    """What every mail's footer and links need."""
    found: dict[str, Any] = {"game": game,
                             "settings_url": site_url(reverse("notifications:settings"))}
    if game is not None:
        found.update(game_url=game_url(game.pk), game_title=game_title(game),
                     kind=game_choices(game))
    if user_id is not None:
        found["unsubscribe_url"] = unsubscribe_url(user_id)
    return found


def render_bodies(*, template: str, context: dict[str, Any]) -> tuple[str, str]:
    """The plain and HTML bodies of a mail written as it is queued (the answers to
    replies, invitations)."""
    return (render_to_string(f"notifications/email/{template}.txt", context).strip() + "\n",
            render_to_string(f"notifications/email/{template}.html", context))
