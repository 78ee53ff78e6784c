"""The review's page form (at the site root) and its API (under /api/)."""

from django.urls import path

from reviews import api, views

app_name = "reviews"

urlpatterns = [
    path("games/<id:game_id>/review/", views.review_ask, name="review-ask"),
]

api_urlpatterns = [
    path("games/<id:game_id>/review/", api.GameReview.as_view(), name="api-game-review"),
]
