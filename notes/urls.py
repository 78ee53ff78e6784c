"""The note's page form (at the site root) and its API (under /api/)."""

from django.urls import path

from notes import api, views

app_name = "notes"

urlpatterns = [
    path("games/<id:game_id>/note/", views.note_save, name="note-save"),
]

api_urlpatterns = [
    path("games/<id:game_id>/note/", api.GameNote.as_view(), name="api-game-note"),
]
