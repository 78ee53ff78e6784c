from django.contrib import admin

from bots.models import Bot, GameBots, Takeover


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin[Bot]):
    list_display = ["level", "user"]


@admin.register(GameBots)
class GameBotsAdmin(admin.ModelAdmin[GameBots]):
    list_display = ["game", "takeover"]
    raw_id_fields = ["game"]


@admin.register(Takeover)
class TakeoverAdmin(admin.ModelAdmin[Takeover]):
    list_display = ["game", "seat", "player", "bot", "seq", "created_at"]
    raw_id_fields = ["game", "player"]
