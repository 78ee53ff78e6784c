"""The tournaments API's bodies and answers."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from bots.models import Level
from tournaments.models import Tournament
from web.serializers import StrictSerializer


class TournamentCreateSerializer(StrictSerializer):
    """What a new tournament takes (tournaments.services.tournament_create checks
    each value against the game: its seat counts, its options)."""

    name = serializers.CharField(max_length=200)
    game = serializers.CharField(max_length=32, help_text="The game's key.")
    options = serializers.DictField(required=False, default=dict)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    table_size = serializers.IntegerField(min_value=2, max_value=4, default=2,
                                          help_text="Players at each game.")
    rounds = serializers.IntegerField(min_value=1, max_value=20, required=False,
                                      allow_null=True, default=None,
                                      help_text="A Swiss's number of rounds.")
    best_of = serializers.IntegerField(min_value=1, max_value=7, default=1,
                                       help_text="A knockout match's games (odd).")
    days_per_move = serializers.IntegerField(min_value=1, max_value=30, required=False,
                                             allow_null=True, default=None)
    round_days = serializers.IntegerField(min_value=1, max_value=60, required=False,
                                          allow_null=True, default=None,
                                          help_text="A Swiss's rounds on a calendar.")
    rated = serializers.BooleanField(default=True)
    by_invitation = serializers.BooleanField(default=False)
    invited = serializers.ListField(child=serializers.CharField(max_length=150),
                                    required=False, default=list, max_length=256)
    max_players = serializers.IntegerField(min_value=2, max_value=1024, default=8)
    start_at = serializers.DateTimeField(required=False, allow_null=True, default=None,
                                         help_text="Empty: it starts when full.")
    bots = serializers.ChoiceField(choices=["", *Level.values], required=False, default="",
                                   help_text="A computer level that fills the places left "
                                             "at the start.")


class TournamentBriefSerializer(serializers.ModelSerializer[Tournament]):
    entrants = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = ["id", "name", "game", "options", "format", "table_size", "rounds", "best_of",
                  "days_per_move", "round_days", "rated", "by_invitation", "max_players",
                  "start_at", "bots", "status", "created_at", "commitment", "entrants"]
        read_only_fields = fields

    def get_entrants(self, obj: Tournament) -> int:
        return len((obj.projection or {}).get("entrants") or ())


class TournamentSerializer(TournamentBriefSerializer):
    created_by = serializers.CharField(source="created_by.username")
    seed = serializers.SerializerMethodField(help_text="Revealed once it is over.")
    projection = serializers.JSONField(
        help_text="Entrants, seeding (with ratings), withdrawn players, each round's tables "
                  "with their games and places, the standings with their tie-breaks, the "
                  "winner.")
    tie_breaks = serializers.SerializerMethodField()

    class Meta(TournamentBriefSerializer.Meta):
        fields = [*TournamentBriefSerializer.Meta.fields, "created_by", "seed", "projection",
                  "tie_breaks"]
        read_only_fields = fields

    def get_seed(self, obj: Tournament) -> str:
        return obj.seed if obj.status == Tournament.Status.FINISHED else ""

    def get_tie_breaks(self, obj: Tournament) -> list[str]:
        from tournaments.scoring import TIE_BREAKS

        return list(TIE_BREAKS[obj.format])


class TournamentEventSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField()
    payload = serializers.JSONField()
