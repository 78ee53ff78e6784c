"""The games API, mounted under /api/."""

from django.urls import path

from accounts.throttles import InviteThrottle
from games import api
from web.database_out import needs_no_database

urlpatterns = [
    # a move and a game's reads first: the busiest addresses are found soonest
    path("games/<id:game_id>/actions/", api.GameActions.as_view(), name="api-game-actions"),
    path("games/<id:game_id>/", api.GameDetail.as_view(), name="api-game"),
    path("games/<id:game_id>/events/", api.GameEvents.as_view(), name="api-game-events"),
    path("games/<id:game_id>/stream/", api.GameStream.as_view(), name="api-game-stream"),
    path("ping/", needs_no_database(api.Ping.as_view()), name="api-ping"),
    # Throttled: invitations per player (accounts and tokens: accounts.api_urls).
    path("games/", api.GameList.as_view(), name="api-games"),
    path("games/import/", api.GameImport.as_view(), name="api-game-import"),
    path("games/<id:game_id>/join/", api.GameJoin.as_view(), name="api-game-join"),
    path("games/<id:game_id>/leave/", api.GameLeave.as_view(), name="api-game-leave"),
    path("games/<id:game_id>/resign/", api.GameResign.as_view(), name="api-game-resign"),
    path("games/<id:game_id>/invite/", api.GameInvite.as_view(throttle_classes=[InviteThrottle]),
         name="api-game-invite"),
    path("games/<id:game_id>/query/<str:name>/", api.GameQuery.as_view(),
         name="api-game-query"),
    path("games/kinds/", api.GameKinds.as_view(), name="api-game-kinds"),
    path("games/kinds/<slug:kind>/tables/<slug:name>/", api.GameViewTable.as_view(),
         name="api-game-view-table"),
    path("games/<id:game_id>/preview/", api.GameScorePreview.as_view(),
         name="api-game-preview"),
    path("games/<id:game_id>/record/", api.GameRecord.as_view(), name="api-game-record"),
    path("invitations/<str:token>/", api.InvitationDetail.as_view(), name="api-invitation"),
]

named_query_urlpatterns = [
    # after every app's addresses under a game: any other name is one of the
    # game's named queries about a move (the address keeps the name the game gives it)
    path("games/<id:game_id>/<slug:name>/", api.GameNamedQuery.as_view(),
         name="api-game-named-query"),
]
