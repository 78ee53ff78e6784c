"""Writes of the ratings app: rating finished games, rebuilding every rating, and
rematches.

How ratings hear of a finished game: the games app's write path enqueues
``ratings.tasks.ratings_update`` by name once the transaction that finished the
game commits; the beat sweep (``ratings_sweep``) finds any game whose task was
lost. Either way ``pool_catch_up`` rates every finished game of the pool not yet
taken in, oldest first, with the pool's row locked: games are rated one at a
time, in one order, which ``RatedGame.id`` keeps for ``ratings_rebuild``.

Which games are rated (``unrated_because`` says why not):
- a finished game of two or more seats, each an account here;
- not imported (a record played elsewhere);
- not co-operative: in Make-a-snake's lollipop hunt everybody wins or loses
  together, so the result ranks no player above another and moves no rating
  (it still counts among the player's games played, and won when won);
- with a computer player only when it was started as a rated game (``RatedChoice``:
  the Rated box of the home page's "Play against the computer" or of the lobby,
  or the open game's page); the computer's account then has a rating of its
  own, like anybody's;
- not started as an unrated game (``RatedChoice`` saying so: a tournament's
  games when the tournament is not rated, or an open game's creator's word).
Ranks come from the game's standings (engine.protocol.standings), the same as
the end screen's: the winners the rules name first (whatever their score, as
after a Pond elimination), then the others by score as the game orders them
(Make-a-snake's distances lower first), ties sharing a rank, and a seat that
resigned or timed out last.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.utils import timezone

from engine.protocol import Projection, Standing, standings
from games import services as game_services
from games.models import Game, Seat
from games.panels import panels_changed
from notifications import emails
from notifications.models import Notification
from notifications.services import notifications_queue
from ratings import skill
from ratings.models import (
    Pool,
    RatedChoice,
    RatedGame,
    Rating,
    RatingChange,
    Rematch,
    RematchAnswer,
)
from web.errors import Conflict, Forbidden, Invalid, NotFound

SWEEP_BATCH = 200


def pool_of(game: Game) -> str:
    """The rating pool of a game: its key (every variant of a game shares one)."""
    return game.game


def game_standings(game: Game) -> list[Standing]:
    """The finished game's standings, from its stored projection."""
    p = game.projection or {}
    return standings(Projection(
        finished=bool(p.get("finished")), scores=tuple(p.get("scores") or ()),
        winners=tuple(p.get("winners") or ()), to_act=(), out=tuple(p.get("resigned") or ()),
        better=p.get("better") or "higher", cooperative=bool(p.get("cooperative"))))


def is_computer(user: User | None) -> bool:
    """A computer player's account (the bots app gives it a ``bot``)."""
    return user is not None and hasattr(user, "bot")


def unrated_because(game: Game, seats: list[Seat]) -> str:
    """Why the finished game is not rated; '' when it is."""
    if game.status != Game.Status.FINISHED:
        return "not finished"
    if game.started_at is not None and game.started_at == game.finished_at:
        return "imported: played elsewhere"
    if (game.projection or {}).get("cooperative"):
        return "co-operative: the players win or lose together"
    if len(seats) < 2:
        return "fewer than two players"
    if any(s.user_id is None or s.index is None for s in seats):
        return "a seat without an account here"
    if len((game.projection or {}).get("scores") or ()) != len(seats):
        return "no final standings for its seats"
    choice = RatedChoice.objects.filter(game=game).first()
    if choice is not None and not choice.rated:
        return "started as an unrated game"
    if choice is None and any(is_computer(s.user) for s in seats):
        return "a computer player took part, and the game was not started as a rated one"
    return ""


def _pending(pool: str) -> QuerySet[Game]:
    return (Game.objects.filter(game=pool, status=Game.Status.FINISHED, rated__isnull=True)
            .order_by("finished_at", "id"))


def pool_catch_up(pool: str) -> int:
    """Take in every finished game of the pool not yet taken in, in the order they
    finished; how many."""
    Pool.objects.get_or_create(key=pool)
    done = 0
    with transaction.atomic():
        Pool.objects.select_for_update().get(key=pool)  # one rater a pool at a time
        for game in _pending(pool)[:SWEEP_BATCH]:
            _take_in(game, pool)
            panels_changed(game.pk)  # its open pages show the rating changes
            done += 1
    return done


def ratings_update(game_id: int) -> int:
    """A game finished: rate it (and any game of its pool still waiting)."""
    game = Game.objects.filter(pk=game_id).only("game").first()
    return 0 if game is None else pool_catch_up(pool_of(game))


def ratings_sweep() -> int:
    """Rate the finished games whose task never ran (a broker outage)."""
    pools = set(Game.objects.filter(status=Game.Status.FINISHED, rated__isnull=True)
                .values_list("game", flat=True).distinct())
    return sum(pool_catch_up(pool) for pool in sorted(pools))


def _take_in(game: Game, pool: str) -> RatedGame:
    seats = list(game.seats.select_related("user").order_by("index"))
    why = unrated_because(game, seats)
    if game.finished_at is None:
        raise ValueError(f"game {game.pk} is finished but has no finished_at; the services "
                         "set both at once")
    record = RatedGame.objects.create(game=game, pool=pool, rated=not why,
                                      unrated_because=why, at=game.finished_at)
    if not why:
        _rate(record, seats, game_standings(game))
    return record


def _rated_players(seats: list[Seat]) -> list[tuple[int, int]]:
    """Each seat's (index, user id): a rated game's seats all have both (see
    unrated_because)."""
    players = [(s.index, s.user_id) for s in seats
               if s.index is not None and s.user_id is not None]
    if len(players) != len(seats):
        raise ValueError("a rated game's seats each have an index and an account")
    return players


def _rate(record: RatedGame, seats: list[Seat], places: list[Standing]) -> None:
    rank_of = {s.seat: s.rank for s in places}
    players = _rated_players(seats)
    users = [user_id for _, user_id in players]
    held = {r.user_id: r for r in Rating.objects.select_for_update()
            .filter(pool=record.pool, user_id__in=users)}
    ratings = [held.get(u) or Rating(user_id=u, pool=record.pool) for u in users]
    ranks = [rank_of[index] for index, _ in players]
    after = skill.rate([skill.Skill(r.mu, r.sigma) for r in ratings], ranks)
    changes = []
    for (index, user_id), rating, new, rank in zip(players, ratings, after, ranks, strict=True):
        changes.append(RatingChange(
            rated_game=record, user_id=user_id, pool=record.pool, seat=index,
            rank=rank, mu_before=rating.mu, sigma_before=rating.sigma,
            mu_after=new.mu, sigma_after=new.sigma, at=record.at))
        rating.mu, rating.sigma, rating.games = new.mu, new.sigma, rating.games + 1
        rating.save()
    RatingChange.objects.bulk_create(changes)


def ratings_rebuild() -> dict[str, int]:
    """Compute every rating again from the finished games: the games taken in so far
    in the order they were (RatedGame.id), then any not yet taken in. What counts as
    rated is decided again, so a changed rule applies to the past too."""
    with transaction.atomic():
        order = list(RatedGame.objects.order_by("id").values_list("game_id", "pool"))
        pools = sorted({pool for _, pool in order}
                       | set(Game.objects.filter(status=Game.Status.FINISHED)
                             .values_list("game", flat=True).distinct()))
        for pool in pools:
            Pool.objects.get_or_create(key=pool)
        list(Pool.objects.select_for_update().filter(key__in=pools))
        Rating.objects.all().delete()
        RatedGame.objects.all().delete()  # and their RatingChange rows
        games = Game.objects.in_bulk([game_id for game_id, _ in order])
        rated = 0
        for game_id, pool in order:
            if game_id in games:
                rated += _take_in(games[game_id], pool).rated
        for pool in pools:
            for game in _pending(pool):
                rated += _take_in(game, pool).rated
    return {"games": RatedGame.objects.count(), "rated": rated,
            "ratings": Rating.objects.count()}


def rated_choice_set(*, game: Game, rated: bool) -> RatedChoice:
    """The lobby's choice for a game with a computer player: rated or not."""
    choice, _ = RatedChoice.objects.update_or_create(game=game, defaults={"rated": rated})
    return choice


def game_rated_choose(*, game_id: int, user: User, rated: bool) -> RatedChoice:
    """The creator of an open game says whether it is rated: a game started as
    unrated is not, and one with a computer player in it is rated only if
    started as rated (``unrated_because``)."""
    with transaction.atomic():
        game = _game_of(game_id, lock=True)
        if game.created_by_id != user.pk:
            raise Forbidden("only the player who started the game chooses whether it is rated",
                            code="not_the_creator")
        if game.status != Game.Status.OPEN:
            raise Conflict("the game has started: whether it is rated was settled then",
                           code="game_not_open")
        return rated_choice_set(game=game, rated=rated)


# ---------------------------------------------------------------- rematch


def _game_of(game_id: int, *, lock: bool = False) -> Game:
    games = Game.objects.select_for_update() if lock else Game.objects
    game = games.filter(pk=game_id).first()
    if game is None:
        raise NotFound(f"there is no game {game_id}", code="no_such_game")
    return game


def _players_of(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").order_by("index"))


def rematch_offer(*, game_id: int, user: User) -> Rematch:
    """Offer the players of a finished game a new game with the same options (a new
    seat order and seed are drawn when it starts). The offer is the offerer's yes;
    computer players say yes; the others are mailed and answer."""
    with transaction.atomic():
        game = _game_of(game_id, lock=True)
        seats = _players_of(game)
        if not any(s.user_id == user.pk for s in seats):
            raise Forbidden("only the game's players can offer a rematch", code="not_a_player")
        if game.status != Game.Status.FINISHED:
            raise Conflict(f"the game is {game.status}: a rematch is offered once it is over",
                           code="game_not_finished")
        players = [s.user for s in seats if s.user is not None]
        if len(players) != len(seats):
            raise Conflict("a player of this game has no account here: no rematch",
                           code="player_without_account")
        if Rematch.objects.filter(game=game).exists():
            raise Conflict("a rematch of this game has already been offered: answer it "
                           "on the game's page", code="rematch_offered")
        rematch = Rematch.objects.create(game=game, offered_by=user)
        now = timezone.now()
        RematchAnswer.objects.bulk_create(
            RematchAnswer(rematch=rematch, user=p,
                          accepted=True if p.pk == user.pk or is_computer(p) else None,
                          answered_at=now if p.pk == user.pk or is_computer(p) else None)
            for p in players)
        _rematch_mail(rematch, [p for p in players
                                if p.pk != user.pk and not is_computer(p)])
        _rematch_start_if_agreed(rematch)
        panels_changed(game.pk)  # the game's open pages offer it
    return rematch


def rematch_answer(*, game_id: int, user: User, accept: bool) -> Rematch:
    """A player's yes or no to the rematch of a game. The new game starts with the last
    yes; the first no ends the offer."""
    with transaction.atomic():
        game = _game_of(game_id)
        rematch = Rematch.objects.select_for_update().filter(game=game).first()
        if rematch is None:
            raise NotFound(f"no rematch of game {game_id} has been offered",
                           code="no_rematch")
        answer = rematch.answers.filter(user=user).first()
        if answer is None:
            raise Forbidden("this rematch is offered to the game's players only",
                            code="not_a_player")
        if rematch.status != Rematch.Status.OPEN:
            raise Conflict(f"this rematch is over: {rematch.get_status_display().lower()}",
                           code="rematch_closed")
        if answer.accepted is not None:
            raise Conflict("you have already answered this rematch", code="already_answered")
        answer.accepted, answer.answered_at = accept, timezone.now()
        answer.save(update_fields=["accepted", "answered_at"])
        if not accept:
            rematch.status = Rematch.Status.DECLINED
            rematch.save(update_fields=["status"])
        else:
            _rematch_start_if_agreed(rematch)
        panels_changed(game.pk)  # the game's open pages show the answer
    return rematch


def _rematch_start_if_agreed(rematch: Rematch) -> None:
    answers = list(rematch.answers.select_related("user"))
    if not all(a.accepted for a in answers):
        return
    old = rematch.game
    first = rematch.offered_by
    new = game_services.game_create(user=first, game=old.game, options=old.options,
                                    seats=old.seat_count, days_per_move=old.days_per_move)
    if hasattr(old, "rated_choice"):  # the same options: rated or not too
        rated_choice_set(game=new, rated=old.rated_choice.rated)
    for answer in answers:
        if answer.user_id != first.pk:
            game_services.game_join(game=new, user=answer.user)  # the last one starts it
    rematch.new_game, rematch.status = new, Rematch.Status.STARTED
    rematch.save(update_fields=["new_game", "status"])


def _rematch_mail(rematch: Rematch, users: list[User]) -> None:
    """A mail to each player asked, through the outbox (sent after the commit)."""
    game = rematch.game
    offerer = rematch.offered_by.get_username()
    rows = []
    for user in users:
        context = {**emails.links(user_id=user.pk, game=game), "offerer": offerer,
                   "user": user, "url": emails.game_url(game.pk)}
        rows.append(Notification(
            user=user, game=game, kind=Notification.Kind.INVITATION,
            dedup_key=f"rematch:{rematch.pk}:{user.pk}",
            subject=f"{offerer} offers a rematch of {emails.game_title(game)} game {game.pk}",
            body_text=render_to_string("ratings/email/rematch.txt", context).strip() + "\n",
            body_html=render_to_string("ratings/email/rematch.html", context)))
    if rows:
        notifications_queue(rows)


# ---------------------------------------------------------------- invitations by username

MAX_USERNAMES = 10


def game_invite_users(*, game_id: int, user: User, usernames: list[str],
                      url_for: Callable[[str], str]) -> list[User]:
    """Invite players by their username to an open game: each is mailed a join link
    of their own, which only they can take (through the outbox, under their mail
    policy); the players invited.
    All the names are checked before anything is written: one bad name, no invitation."""
    names = list(dict.fromkeys(n.strip() for n in usernames if n.strip()))
    if not names:
        raise Invalid("name at least one player to invite", code="no_usernames",
                      field="usernames")
    if len(names) > MAX_USERNAMES:
        raise Invalid(f"invite at most {MAX_USERNAMES} players at once", field="usernames")
    found = {u.get_username(): u for u in
             get_user_model().objects.filter(username__in=[n[:150] for n in names])}
    unknown = [n for n in names if n not in found]
    if unknown:
        raise NotFound(f"there is no player {', '.join(repr(n[:40]) for n in unknown)}",
                       code="unknown_user", usernames=[n[:40] for n in unknown])
    with transaction.atomic():
        game = _game_of(game_id, lock=True)
        seated = set(game.seats.values_list("user_id", flat=True))
        if user.pk not in seated:
            raise Forbidden("only a player of the game can invite others to it",
                            code="not_a_player")
        if game.status != Game.Status.OPEN:
            raise Conflict("only an open game takes invitations", code="game_not_open")
        already = [n for n in names if found[n].pk in seated]
        if already:
            raise Conflict(f"{', '.join(already)} already sit{'s' if len(already) == 1 else ''}"
                           " in this game", code="already_joined")
        invited = [found[n] for n in names]
        # each an invitation of its own, which only that player can take
        links = game_services.game_invite(game=game, user=user, emails=[], invitees=invited,
                                          url_for=url_for)
        rows = []
        for player, link in zip(invited, links, strict=True):
            context = {**emails.links(user_id=player.pk, game=game), "user": player,
                       "inviter": user.get_username(), "url": link.url}
            rows.append(Notification(
                user=player, game=game, kind=Notification.Kind.INVITATION,
                dedup_key=f"invitation:{link.invitation.pk}",
                subject=f"{user.get_username()} invites you to a game of "
                        f"{emails.game_title(game)}"[:200],
                body_text=render_to_string("ratings/email/invite_user.txt", context).strip()
                + "\n",
                body_html=render_to_string("ratings/email/invite_user.html", context)))
        notifications_queue(rows)
    return invited
