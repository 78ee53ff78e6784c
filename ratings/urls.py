"""The pages of the ratings app, mounted at the site root."""

from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<slug:pool>/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views.profile, name="profile"),
    path("games/<id:game_id>/rematch/", views.rematch_offer, name="rematch-offer"),
    path("games/<id:game_id>/rematch/answer/", views.rematch_answer, name="rematch-answer"),
    path("games/<id:game_id>/rated/", views.game_rated_choose, name="rated-choice"),
    path("games/<id:game_id>/invite/users/", views.game_invite_users, name="invite-users"),
]
