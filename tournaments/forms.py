"""The new-tournament form of the pages (the API takes the same fields as JSON)."""

from __future__ import annotations

from typing import Any

from django import forms

from bots.models import Level
from engine import registry
from tournaments.models import Tournament


def option_field_names() -> list[str]:
    """Each game's options' fields: ``opt_<game>_<option>``."""
    return [f"opt_{g.key}_{o.name}" for g in registry.games() for o in g.options_declared]


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=80)
    game = forms.ChoiceField(choices=())
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    table_size = forms.TypedChoiceField(choices=[(2, "2 players"), (3, "3 players"),
                                                 (4, "4 players")], coerce=int, initial=2)
    rounds = forms.IntegerField(min_value=1, max_value=20, required=False, initial=4,
                                help_text="Swiss only.")
    best_of = forms.TypedChoiceField(choices=[(1, "1 game"), (3, "best of 3"),
                                              (5, "best of 5"), (7, "best of 7")],
                                     coerce=int, initial=1, help_text="Knockout only.")
    days_per_move = forms.IntegerField(min_value=1, max_value=30, required=False, initial=3)
    round_days = forms.IntegerField(min_value=1, max_value=60, required=False,
                                    help_text="Swiss only: pair the next round after this many "
                                              "days whether or not every game is over.")
    rated = forms.BooleanField(required=False, initial=True)
    by_invitation = forms.BooleanField(required=False)
    invited = forms.CharField(required=False, max_length=4000,
                              help_text="Usernames, apart by commas or spaces.")
    max_players = forms.IntegerField(min_value=2, max_value=1024, initial=8)
    start_at = forms.DateTimeField(required=False, widget=forms.DateTimeInput(
        attrs={"type": "datetime-local"}), help_text="Empty: it starts when full.")
    bots = forms.ChoiceField(choices=[("", "No computer players"), *Level.choices],
                             required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = registry.games()
        self.fields["game"].choices = [(g.key, g.title) for g in games]  # type: ignore[attr-defined]
        for g in games:
            for o in g.options_declared:
                self.fields[f"opt_{g.key}_{o.name}"] = forms.ChoiceField(
                    label=f"{g.title}: {o.label}",
                    choices=[(str(c.value), c.label) for c in o.choices], required=False)

    def create_fields(self) -> dict[str, Any]:
        """The service's arguments from the cleaned form."""
        data = dict(self.cleaned_data)
        rules = registry.get(data["game"])
        options = {}
        for o in rules.options_declared:
            picked = data.get(f"opt_{rules.key}_{o.name}")
            for c in o.choices:
                if picked and str(c.value) == picked:
                    options[o.name] = c.value
        names = str(data.get("invited") or "").replace(",", " ").split()
        return {k: data[k] for k in ("name", "game", "format", "table_size", "rounds",
                                      "best_of", "days_per_move", "round_days", "rated",
                                      "by_invitation", "max_players", "start_at")} | {
            "options": options, "invited": names, "bots": data.get("bots") or ""}
