"""The tournaments API, mounted under /api/."""

from django.urls import path

from tournaments import api

urlpatterns = [
    path("tournaments/", api.TournamentList.as_view(), name="api-tournaments"),
    path("tournaments/<id:tournament_id>/", api.TournamentDetail.as_view(),
         name="api-tournament"),
    path("tournaments/<id:tournament_id>/events/", api.TournamentEvents.as_view(),
         name="api-tournament-events"),
    path("tournaments/<id:tournament_id>/join/", api.TournamentJoin.as_view(),
         name="api-tournament-join"),
    path("tournaments/<id:tournament_id>/leave/", api.TournamentLeave.as_view(),
         name="api-tournament-leave"),
    path("tournaments/<id:tournament_id>/start/", api.TournamentStart.as_view(),
         name="api-tournament-start"),
    path("tournaments/<id:tournament_id>/verify/", api.TournamentVerify.as_view(),
         name="api-tournament-verify"),
]
