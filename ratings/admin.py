"""Admin views of ratings (read only: they are rebuilt from the games, see
rebuild_ratings) and of rematch offers."""

from django.contrib import admin

from ratings.models import RatedGame, Rating, RatingChange, Rematch, RematchAnswer


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ["user", "pool", "shown", "mu", "sigma", "games", "updated_at"]
    list_filter = ["pool"]
    search_fields = ["user__username"]

    @admin.display(description="rating (mu - 3 sigma)")
    def shown(self, obj: Rating) -> str:
        return f"{obj.ordinal:.2f}"


class RatingChangeInline(admin.TabularInline):
    model = RatingChange
    extra = 0
    can_delete = False
    fields = ["seat", "user", "rank", "mu_before", "sigma_before", "mu_after", "sigma_after"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(RatedGame)
class RatedGameAdmin(ReadOnly):
    list_display = ["id", "game", "pool", "rated", "unrated_because", "at"]
    list_filter = ["pool", "rated"]
    raw_id_fields = ["game"]
    inlines = [RatingChangeInline]


class RematchAnswerInline(admin.TabularInline):
    model = RematchAnswer
    extra = 0
    can_delete = False
    fields = ["user", "accepted", "answered_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Rematch)
class RematchAdmin(ReadOnly):
    list_display = ["game", "offered_by", "status", "new_game", "created_at"]
    list_filter = ["status"]
    raw_id_fields = ["game", "new_game", "offered_by"]
    inlines = [RematchAnswerInline]
