"""The pages of the tournaments app, mounted at the site root."""

from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_new, name="new"),
    path("tournaments/<id:tournament_id>/", views.tournament_detail, name="detail"),
    path("tournaments/<id:tournament_id>/join/", views.tournament_join, name="join"),
    path("tournaments/<id:tournament_id>/leave/", views.tournament_leave, name="leave"),
    path("tournaments/<id:tournament_id>/start/", views.tournament_start, name="start"),
]
