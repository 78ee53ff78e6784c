"""The ratings API: leaderboards, profiles, a game's rating changes, the people you
have played, rematches. Thin views over ratings.selectors and ratings.services;
errors are the services' (see web.http.exception_handler)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import signed_in_user
from games.models import Game
from games.selectors import invitation_url
from ratings import selectors, services
from ratings.serializers import (
    GameBrief,
    GameRatingsSerializer,
    InvitedUsersSerializer,
    InviteUsersSerializer,
    LeaderboardRow,
    LeaderboardSerializer,
    PlayedWithSerializer,
    PoolRating,
    ProfileSerializer,
    RatedChoiceSerializer,
    RematchAnswerSerializer,
    RematchSerializer,
)
from web.errors import NotFound
from web.serializers import ERROR, EmptySerializer, request_body, valid


def _game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(f"there is no game {game_id}", code="no_such_game")
    return game


def game_brief(game: Game) -> GameBrief:
    seats = sorted(game.seat_list(), key=lambda s: (s.index is None, s.index or 0))
    winners = (game.projection or {}).get("winners") or []
    return {"id": game.pk, "game": game.game, "title": game.title, "status": game.status,
            "players": [s.name for s in seats],
            "winners": [s.name for s in seats if s.index in winners],
            "finished_at": game.finished_at}


class Leaderboard(APIView):
    @extend_schema(responses={200: LeaderboardSerializer, 404: ERROR},
                   description="The game's ratings, best first (up to 100).")
    def get(self, request: Request, pool: str) -> Response:
        pool = selectors.pool_get(pool)
        rows = [LeaderboardRow(place, rating)
                for place, rating in enumerate(selectors.leaderboard(pool), 1)]
        return Response(LeaderboardSerializer({"game": pool, "title": selectors.pool_title(pool),
                                               "players": rows}).data)


class PlayerProfile(APIView):
    @extend_schema(responses={200: ProfileSerializer, 404: ERROR},
                   description="A player's ratings with their history, games played and won, "
                   "their finished and current games.")
    def get(self, request: Request, username: str) -> Response:
        player = selectors.user_get(username)
        counts = selectors.game_record_counts(player)
        ratings: list[PoolRating] = [
            {"game": h.pool, "title": h.title, "rating": h.rating.ordinal,
             "mu": h.rating.mu, "sigma": h.rating.sigma, "games": h.rating.games,
             "place": h.rank, "history": [{"at": at, "rating": value} for at, value in h.points]}
            for h in selectors.rating_histories(player)]
        return Response(ProfileSerializer({
            "username": player.get_username(), **counts, "ratings": ratings,
            "finished_games": [game_brief(g) for g in
                               selectors.player_games(player, Game.Status.FINISHED)],
            "current_games": [game_brief(g) for g in
                              selectors.player_games(player, Game.Status.RUNNING)],
        }).data)


class PlayedWith(APIView):
    @extend_schema(responses={200: PlayedWithSerializer(many=True)},
                   description="The people you have played, most games first: whom to "
                   "invite by username.")
    def get(self, request: Request) -> Response:
        played = selectors.people_played(signed_in_user(request))
        # many_init: what PlayedWithSerializer(played, many=True) calls, typed for a list
        return Response(PlayedWithSerializer.many_init(played).data)


class GameRatings(APIView):
    @extend_schema(responses={200: GameRatingsSerializer, 404: ERROR},
                   description="Each player's rating before and after the game, once it is "
                   "over and rated.")
    def get(self, request: Request, game_id: int) -> Response:
        game = _game(game_id)
        record = selectors.rated_game_of(game)
        return Response(GameRatingsSerializer({
            "game": game.pk, "rated": None if record is None else record.rated,
            "unrated_because": "" if record is None else record.unrated_because,
            "changes": selectors.game_rating_changes(game)}).data)


class GameRematch(APIView):
    @extend_schema(responses={200: RematchSerializer, 404: ERROR},
                   description="The rematch offered at the end of the game, and the answers.")
    def get(self, request: Request, game_id: int) -> Response:
        rematch = selectors.rematch_of(_game(game_id))
        if rematch is None:
            raise NotFound(f"no rematch of game {game_id} has been offered", code="no_rematch")
        return Response(RematchSerializer(rematch).data)

    @extend_schema(request=EmptySerializer,
                   responses={201: RematchSerializer, 403: ERROR, 404: ERROR, 409: ERROR},
                   description="Offer the players of this finished game a new game with the "
                   "same options (a new order of play and seed); the others are mailed.")
    def post(self, request: Request, game_id: int) -> Response:
        valid(EmptySerializer, request_body(request))
        services.rematch_offer(game_id=game_id, user=signed_in_user(request))
        return Response(RematchSerializer(selectors.rematch_of(game_id)).data,
                        status=status.HTTP_201_CREATED)


class GameRematchAnswer(APIView):
    @extend_schema(request=RematchAnswerSerializer,
                   responses={200: RematchSerializer, 400: ERROR, 403: ERROR, 404: ERROR,
                              409: ERROR},
                   description="Accept or decline the rematch; the new game starts with the "
                   "last acceptance (its id is then in new_game).")
    def post(self, request: Request, game_id: int) -> Response:
        data = valid(RematchAnswerSerializer, request_body(request))
        services.rematch_answer(game_id=game_id, user=signed_in_user(request),
                                accept=data["accept"])
        return Response(RematchSerializer(selectors.rematch_of(game_id)).data)


class GameInviteUsers(APIView):
    @extend_schema(request=InviteUsersSerializer,
                   responses={201: InvitedUsersSerializer, 400: ERROR, 403: ERROR, 404: ERROR,
                              409: ERROR},
                   description="Invite players by username to an open game: each is mailed a "
                   "join link of their own. One unknown name and nobody is invited.")
    def post(self, request: Request, game_id: int) -> Response:
        data = valid(InviteUsersSerializer, request_body(request))
        invited = services.game_invite_users(game_id=game_id, user=signed_in_user(request),
                                             usernames=data["usernames"],
                                             url_for=invitation_url)
        return Response({"invited": [u.get_username() for u in invited]},
                        status=status.HTTP_201_CREATED)


class GameRatedChoice(APIView):
    @extend_schema(responses={200: RatedChoiceSerializer, 404: ERROR},
                   description="Whether the game is rated should a computer player take part.")
    def get(self, request: Request, game_id: int) -> Response:
        game = _game(game_id)
        choice = getattr(game, "rated_choice", None)
        return Response({"rated": bool(choice and choice.rated)})

    @extend_schema(request=RatedChoiceSerializer,
                   responses={200: RatedChoiceSerializer, 400: ERROR, 403: ERROR, 404: ERROR,
                              409: ERROR},
                   description="The creator of an open game chooses whether it is rated "
                   "should a computer player take part (by default it is not).")
    def put(self, request: Request, game_id: int) -> Response:
        data = valid(RatedChoiceSerializer, request_body(request))
        choice = services.game_rated_choose(game_id=game_id, user=signed_in_user(request),
                                            rated=data["rated"])
        return Response({"rated": choice.rated})
