"""Admin views of ratings (read only: they are rebuilt from the games, see
rebuild_ratings) and of rematch offers."""

from typing import TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from ratings.models import RatedGame, Rating, RatingChange, Rematch, RematchAnswer

_M = TypeVar("_M", bound=Model)


class ReadOnly(admin.ModelAdmin[_M]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly[Rating]):
    list_display = ["user", "pool", "shown", "mu", "sigma", "games", "updated_at"]
    list_filter = ["pool"]
    search_fields = ["user__username"]

    @admin.display(description="rating (mu - 3 sigma)")
    def shown(self, obj: Rating) -> str:
        return f"{obj.ordinal:.2f}"


class RatingChangeInline(admin.TabularInline[RatingChange, RatedGame]):
    model = RatingChange
    extra = 0
    can_delete = False
    fields = readonly_fields = ("seat", "user", "rank", "mu_before", "sigma_before", "mu_after",
                                "sigma_after")

    def has_add_permission(self, request: HttpRequest, obj: RatedGame | None = None) -> bool:
        return False


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnly[RatedGame]):
    list_display = ["id", "game", "pool", "rated", "unrated_because", "at"]
    list_filter = ["pool", "rated"]
    raw_id_fields = ["game"]
    inlines = [RatingChangeInline]


class RematchAnswerInline(admin.TabularInline[RematchAnswer, Rematch]):
    model = RematchAnswer
    extra = 0
    can_delete = False
    fields = readonly_fields = ("user", "accepted", "answered_at")

    def has_add_permission(self, request: HttpRequest, obj: Rematch | None = None) -> bool:
        return False


@admin.register(Rematch)
class RematchAdmin(ReadOnly[Rematch]):
    list_display = ["game", "offered_by", "status", "new_game", "created_at"]
    list_filter = ["status"]
    raw_id_fields = ["game", "new_game", "offered_by"]
    inlines = [RematchAnswerInline]
