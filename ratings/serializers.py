"""The shapes of the ratings API's answers and bodies."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from rest_framework import serializers

from ratings.models import Rating, RatingChange, Rematch, RematchAnswer
from ratings.selectors import PlayedWith
from web.serializers import StrictSerializer


@dataclass(frozen=True)
class LeaderboardRow:
    place: int
    rating: Rating


class LeaderboardRowSerializer(serializers.Serializer[LeaderboardRow]):
    username = serializers.CharField(source="rating.user.username")
    pool = serializers.CharField(source="rating.pool")
    rating = serializers.FloatField(source="rating.ordinal",
                                    help_text="mu - 3 sigma, as shown.")
    mu = serializers.FloatField(source="rating.mu")
    sigma = serializers.FloatField(source="rating.sigma")
    games = serializers.IntegerField(source="rating.games", help_text="Rated games played.")
    place = serializers.IntegerField()


class Leaderboard(TypedDict):
    game: str
    title: str
    players: list[LeaderboardRow]


class LeaderboardSerializer(serializers.Serializer[Leaderboard]):
    game = serializers.CharField()
    title = serializers.CharField()
    players = LeaderboardRowSerializer(many=True)


class RatingChangeSerializer(serializers.Serializer[RatingChange]):
    username = serializers.CharField(source="user.username")
    seat = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="The seat's place in the final standings.")
    before = serializers.FloatField()
    after = serializers.FloatField()
    change = serializers.FloatField(source="delta")
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()


class GameRatings(TypedDict):
    game: int
    rated: bool | None
    unrated_because: str
    changes: list[RatingChange]


class GameRatingsSerializer(serializers.Serializer[GameRatings]):
    game = serializers.IntegerField()
    rated = serializers.BooleanField(allow_null=True,
                                     help_text="Null until the ratings have taken the game in.")
    unrated_because = serializers.CharField(allow_blank=True)
    changes = RatingChangeSerializer(many=True)


class HistoryPoint(TypedDict):
    at: datetime
    rating: float


class HistoryPointSerializer(serializers.Serializer[HistoryPoint]):
    at = serializers.DateTimeField()
    rating = serializers.FloatField()


class PoolRating(TypedDict):
    game: str
    title: str
    rating: float
    mu: float
    sigma: float
    games: int
    place: int
    history: list[HistoryPoint]


class PoolRatingSerializer(serializers.Serializer[PoolRating]):
    game = serializers.CharField()
    title = serializers.CharField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    place = serializers.IntegerField(help_text="On the game's leaderboard.")
    history = HistoryPointSerializer(many=True)


class GameBrief(TypedDict):
    id: int
    game: str
    title: str
    status: str
    players: list[str]
    winners: list[str]
    finished_at: datetime | None


class GameBriefSerializer(serializers.Serializer[GameBrief]):
    id = serializers.IntegerField()
    game = serializers.CharField()
    title = serializers.CharField()
    status = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    winners = serializers.ListField(child=serializers.CharField())
    finished_at = serializers.DateTimeField(allow_null=True)


class Profile(TypedDict):
    username: str
    played: int
    won: int
    current: int
    ratings: list[PoolRating]
    finished_games: list[GameBrief]
    current_games: list[GameBrief]


class ProfileSerializer(serializers.Serializer[Profile]):
    username = serializers.CharField()
    played = serializers.IntegerField(help_text="Finished games played.")
    won = serializers.IntegerField()
    current = serializers.IntegerField(help_text="Games being played now.")
    ratings = PoolRatingSerializer(many=True)
    finished_games = GameBriefSerializer(many=True)
    current_games = GameBriefSerializer(many=True)


class PlayedWithSerializer(serializers.Serializer[PlayedWith]):
    username = serializers.CharField()
    games = serializers.IntegerField(help_text="Started games played together.")


class RematchAnswerRowSerializer(serializers.Serializer[RematchAnswer]):
    username = serializers.CharField(source="user.username")
    accepted = serializers.BooleanField(allow_null=True)


class RematchSerializer(serializers.Serializer[Rematch]):
    game = serializers.IntegerField(source="game_id")
    offered_by = serializers.CharField(source="offered_by.username")
    status = serializers.CharField()
    new_game = serializers.IntegerField(source="new_game_id", allow_null=True)
    answers = RematchAnswerRowSerializer(many=True)


class StrictBooleanSerializer(StrictSerializer):
    """A body of one boolean field, true or false only (not DRF's "yes", 1 or "on")."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            wrong = [n for n, _ in self.fields.items()
                     if n in data and not isinstance(data[n], bool)]
            if wrong:
                raise serializers.ValidationError({n: ["must be true or false"] for n in wrong},
                                                  code="invalid")
        return super().to_internal_value(data)


class RematchAnswerSerializer(StrictBooleanSerializer):
    accept = serializers.BooleanField(help_text="true to accept, false to decline.")


class RatedChoiceSerializer(StrictBooleanSerializer):
    rated = serializers.BooleanField(
        help_text="Whether the game is rated should a computer player take a seat; a game "
        "between people only is always rated.")


class InviteUsersSerializer(StrictSerializer):
    usernames = serializers.ListField(child=serializers.CharField(max_length=150),
                                      min_length=1, max_length=10)


class InvitedUsers(TypedDict):
    invited: list[str]


class InvitedUsersSerializer(serializers.Serializer[InvitedUsers]):
    invited = serializers.ListField(child=serializers.CharField())
