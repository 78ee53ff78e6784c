"""The chat's page forms (at the site root) and its API (under /api/)."""

from django.urls import path

from chat import api, views

app_name = "chat"

urlpatterns = [
    path("games/<id:game_id>/chat/", views.chat_post, name="post"),
    path("games/<id:game_id>/chat/mute/", views.chat_mute, name="mute"),
]

api_urlpatterns = [
    path("games/<id:game_id>/chat/", api.GameChat.as_view(), name="api-game-chat"),
    path("games/<id:game_id>/chat/mute/", api.GameChatMute.as_view(), name="api-game-chat-mute"),
]
