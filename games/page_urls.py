"""The web pages, mounted at the site root (the API lives under /api/)."""

from django.urls import path

from games.pages import views

app_name = "pages"

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("games/", views.my_games, name="my-games"),
    path("games/finished/", views.finished_games, name="finished-games"),
    path("games/<id:game_id>/", views.game, name="game"),
    path("games/<id:game_id>/state.json", views.game_state, name="game-state"),
    path("games/<id:game_id>/stream.json", views.game_stream, name="game-stream"),
    path("games/<id:game_id>/panels.json", views.game_panels, name="game-panels"),
    path("games/<id:game_id>/actions/", views.GameActionsPage.as_view(),
         name="game-actions"),
    path("games/<id:game_id>/join/", views.game_join, name="game-join"),
    path("games/<id:game_id>/leave/", views.game_leave, name="game-leave"),
    path("games/<id:game_id>/invite/", views.game_invite, name="game-invite"),
    path("games/<id:game_id>/invite/link/", views.game_invite_link, name="game-invite-link"),
    path("games/<id:game_id>/resign/", views.game_resign, name="game-resign"),
    path("games/<id:game_id>/replay/", views.game_replay, name="replay"),
    path("games/<id:game_id>/replay/steps.json", views.game_replay_steps,
         name="replay-steps"),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    path("rules/", views.rules_index, name="rules-index"),
    path("rules/<slug:game>/", views.rules, name="rules"),
]
