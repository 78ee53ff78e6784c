"""The changes before a game starts: a new game, its invitations, taking and
leaving a seat, and the start itself (the seat order, the seed, the deal)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from engine import fairness, registry
from engine.errors import BadOptions
from engine.protocol import read_options
from games.mail import Invited, game_mail
from games.models import Game, Invitation, Seat
from games.selectors import (
    rules_of,
)
from games.services.append import (
    Appender,
    append_automatic,
    game_lock,
    seat_of,
)
from web.errors import Conflict, Forbidden, Invalid, NotFound


def game_create(
    *,
    user: User,
    seats: int,
    game: str | None = None,
    options: Mapping[str, Any] | None = None,
    days_per_move: int | None = None,
    invite: Sequence[str] = (),
    url_for: Callable[[str], str] | None = None,
    **more_options: Any,
) -> Game:
    """A new open game of ``game`` (a registry key; the registry's default game
    without one) with its creator in the first seat. ``options`` are the game's
    declared options (defaults filled in; keyword arguments the service does not
    take are options too). With ``invite``, the invitations to those addresses too
    (see game_invite; ``url_for`` makes their links), in the same transaction: the
    game and its invitations, or nothing."""
    try:
        rules = registry.default() if game is None else registry.get(game)
    except registry.UnknownGame as e:
        raise Invalid(str(e), code="unknown_game", field="game") from None
    try:
        chosen = read_options(rules, {**(options or {}), **more_options}, seats)
    except BadOptions as e:
        raise Invalid(str(e), code="bad_config") from None
    if invite and url_for is None:
        raise ValueError("invitations need url_for to make their links")
    with transaction.atomic():
        _check_open_games(user)
        created = Game.objects.create(
            game=rules.key,
            options=chosen,
            seat_count=seats,
            days_per_move=days_per_move,
            created_by=user,
            rules_version=rules.rules_version,
        )
        Seat.objects.create(game=created, user=user, name=user.get_username())
        if invite and url_for is not None:  # (checked above: invitations have url_for)
            game_invite(game=created, user=user, emails=list(invite), url_for=url_for)
    return created


def game_start_seated(*, game: str, options: Mapping[str, Any], players: Sequence[User],
                      days_per_move: int | None, created_by: User) -> Game:
    """A game of ``game`` that starts at once with ``players`` in its seats in this
    order (a tournament's table, whose seat order its pairing decides), created on
    behalf of ``created_by``; the open games' limit is not theirs to meet, for
    nobody waits on it."""
    try:
        rules = registry.get(game)
        chosen = read_options(rules, dict(options), len(players))
    except (registry.UnknownGame, BadOptions) as e:
        raise Invalid(str(e), code="bad_config") from None
    if len({u.pk for u in players}) != len(players):
        raise Invalid("a player sits at a table once", code="player_twice")
    with transaction.atomic():
        created = Game.objects.create(
            game=rules.key, options=chosen, seat_count=len(players),
            days_per_move=days_per_move, created_by=created_by,
            rules_version=rules.rules_version)
        Seat.objects.bulk_create([Seat(game=created, user=u, name=u.get_username())
                                  for u in players])
        game_start(created, keep_order=True)
    return created


def _check_open_games(user: User) -> None:
    """Refuse a new game to a player who has started MARRAM_MAX_OPEN_GAMES games that
    still wait for players. Their user row stays locked until the transaction ends,
    so that simultaneous requests count one after the other (FOR NO KEY UPDATE: rows
    that only refer to the user, such as seats and events, do not wait for it)."""
    limit = settings.MARRAM_MAX_OPEN_GAMES
    list(get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk)
         .values_list("pk", flat=True))
    if Game.objects.filter(created_by=user, status=Game.Status.OPEN).count() >= limit:
        raise Conflict(
            f"you have started {limit} games that are still waiting for players, the most "
            "one player may have: wait until one of them starts, or leave one that "
            "nobody else has joined, before starting another",
            code="too_many_open_games",
            limit=limit,
        )


def invitation_refusal(invitation: Invitation, user: User) -> str:
    """Why ``user`` may not take the seat of this invitation, in words; '' if they
    may. A personal invitation is for its addressee alone, as a challenge on
    lichess or an invitation on Board Game Arena is: one by username for that
    player, one by mail for the account with that address (the person it was sent
    to, whatever account they held or make); a link to pass on is anybody's."""
    inviter = invitation.created_by.get_username()
    if invitation.invitee_id is not None and invitation.invitee_id != user.pk:
        invitee = invitation.invitee
        assert invitee is not None  # its id is set
        return (f"this invitation is for {invitee.get_username()}, and you are "
                f"signed in as {user.get_username()}: sign in as "
                f"{invitee.get_username()} to take the seat, or ask {inviter} "
                "for an invitation of your own")
    if invitation.email and not _same_address(invitation.email, user):
        return ("this invitation was mailed to another address than your account's: take it "
                "from the account with that address (or give this account that address in "
                f"your settings), or ask {inviter} for an invitation of your own")
    return ""


def _same_address(email: str, user: User) -> bool:
    return email.strip().lower() == user.email.strip().lower()


def _personal_invitation(game: Game, user: User) -> Invitation | None:
    """The user's own invitation to the game not answered yet (by username, or to
    their address), if any."""
    mine = Invitation.objects.filter(game=game, accepted_by__isnull=True)
    found = mine.filter(invitee=user).first()
    address = user.email.strip()
    if found is None and address:
        found = mine.filter(invitee__isnull=True, email__iexact=address).first()
    return found


def game_join(*, game: Game | int, user: User, token: str | None = None) -> Game:
    """Take a seat in an open game; the game starts when the last seat is taken.
    With an invitation's ``token``: only as its addressee (``invitation_refusal``)
    and if nobody has used it; a player who joins without one answers their own
    invitation to the game, if they had one."""
    with transaction.atomic():
        game = game_lock(game)
        invitation = None
        if token is not None:
            invitation = Invitation.objects.with_token(token).filter(game=game).first()
            if invitation is None:
                raise NotFound("this invitation does not exist for this game", code="bad_token")
            if invitation.accepted_by_id not in (None, user.pk):
                raise Conflict("this invitation has been used", code="invitation_used")
            refusal = invitation_refusal(invitation, user)
            if refusal:
                raise Forbidden(refusal, code="not_the_invitee")
        else:
            invitation = _personal_invitation(game, user)
        if game.status != Game.Status.OPEN:
            raise Conflict(f"the game is {game.status}: only open games can be joined",
                           code="game_not_open")
        if game.seats.filter(user=user).exists():
            raise Conflict("you already have a seat in this game", code="already_joined")
        taken = game.seats.count()
        if taken >= game.seat_count:
            raise Conflict("every seat is taken", code="game_full")
        Seat.objects.create(game=game, user=user, name=user.get_username())
        if invitation is not None and invitation.accepted_by_id is None:
            invitation.accepted_by = user
            invitation.accepted_at = timezone.now()
            invitation.save(update_fields=["accepted_by", "accepted_at"])
        if taken + 1 == game.seat_count:
            game_start(game)
    return game


def invitation_accept(*, token: str, user: User) -> Game:
    invitation = Invitation.objects.with_token(token).first()
    if invitation is None:
        raise NotFound("there is no such invitation", code="bad_token")
    return game_join(game=invitation.game_id, user=user, token=token)


def game_leave(*, game: Game | int, user: User) -> Game:
    """Give up a seat before the start; a game no person is left in (computer
    players aside) is abandoned."""
    with transaction.atomic():
        game = game_lock(game)
        if game.status != Game.Status.OPEN:
            raise Conflict("the game has started: resign instead", code="game_not_open")
        seat_of(game, user).delete()
        if not game.seats.filter(user__bot__isnull=True).exists():
            game.status = Game.Status.ABANDONED
            game.save(update_fields=["status"])
    return game


def game_start(game: Game, *, keep_order: bool = False) -> None:
    """Draw the seat order (``keep_order``: the order the seats were taken in) and
    the seed, publish the commitment, deal. The caller holds the game row locked
    and every seat is taken."""
    seats = list(game.seats.select_related("user").order_by("joined_at", "id"))
    if not keep_order:
        secrets.SystemRandom().shuffle(seats)
    for index, seat in enumerate(seats):
        assert seat.user is not None  # an open game's seats are taken by accounts
        seat.index = index
        seat.name = seat.user.get_username()
    Seat.objects.bulk_update(seats, ["index", "name"])
    seed = fairness.new_seed()
    rules = rules_of(game)
    game.seed = seed
    game.commitment = fairness.commitment(seed)
    game.config = rules.setup(game.options, [s.name for s in seats], seed)
    game.status = Game.Status.RUNNING
    game.started_at = timezone.now()
    game.save(update_fields=["seed", "commitment", "config", "status", "started_at"])
    app = Appender(game, rules.start(game.config))
    append_automatic(app, cause=None)
    app.commit()


def game_invite(
    *,
    game: Game | int,
    user: User,
    emails: list[str],
    url_for: Callable[[str], str],
    invitees: Sequence[User] = (),
) -> list[Invited]:
    """Invite people to an open game: by email (each address is mailed a join link,
    through games.mail: the notifications outbox), by username (``invitees``: each
    a join link of their own, which the ratings app mails them) or, with neither,
    one join link to pass on. A personal invitation is its addressee's alone
    (``invitation_refusal``)."""
    with transaction.atomic():
        game = game_lock(game)
        seat_of(game, user)
        if game.status != Game.Status.OPEN:
            raise Conflict("only an open game takes invitations", code="game_not_open")
        invited = []
        addressed = [(email, None) for email in emails] + [("", p) for p in invitees]
        for email, invitee in addressed or [("", None)]:
            invitation = Invitation.objects.create(
                game=game, email=email, invitee=invitee, token=secrets.token_urlsafe(24),
                created_by=user,
            )
            invited.append(Invited(invitation, url_for(invitation.token)))
        game_mail().invitations_made(game=game, user=user, invited=invited)
    return invited
