"""The ratings API, mounted under /api/."""

from django.urls import path

from accounts.throttles import InviteThrottle
from ratings import api

urlpatterns = [
    path("leaderboards/<slug:pool>/", api.Leaderboard.as_view(), name="api-leaderboard"),
    path("players/me/played/", api.PlayedWith.as_view(), name="api-played-with"),
    path("players/<str:username>/", api.PlayerProfile.as_view(), name="api-player"),
    path("games/<id:game_id>/ratings/", api.GameRatings.as_view(), name="api-game-ratings"),
    path("games/<id:game_id>/rated/", api.GameRatedChoice.as_view(), name="api-game-rated"),
    path("games/<id:game_id>/rematch/", api.GameRematch.as_view(), name="api-game-rematch"),
    path("games/<id:game_id>/rematch/answer/", api.GameRematchAnswer.as_view(),
         name="api-game-rematch-answer"),
    path("games/<id:game_id>/invite/users/",
         api.GameInviteUsers.as_view(throttle_classes=[InviteThrottle]),
         name="api-game-invite-users"),
]
