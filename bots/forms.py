"""The pages' forms for computer players: "Play against the computer" on the home
page, and the lobby's fields for bots (added to the new-game form)."""

from __future__ import annotations

from django import forms

from bots.models import Level
from engine import registry

DEFAULT_LEVEL = "medium"

LEVEL_CHOICES = [("easy", "Easy"), ("medium", "Medium"), ("strong", "Strong")]
assert [value for value, _ in LEVEL_CHOICES] == list(Level.values)


def two_player_games() -> list[tuple[str, str]]:
    return [(g.key, g.title) for g in registry.games() if 2 in g.seat_counts]


class PlayComputerForm(forms.Form):
    """A 2-player game against the computer, with the game's default options."""

    game = forms.ChoiceField(label="Game")
    level = forms.ChoiceField(label="Level", choices=LEVEL_CHOICES, initial=DEFAULT_LEVEL)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = two_player_games()
        self.fields["game"].initial = registry.default().key


def bot_fields() -> dict[str, forms.Field]:
    """The lobby's fields: bots in seats, and the takeover option."""
    return {
        "bots": forms.MultipleChoiceField(
            label="Computer players", required=False, choices=LEVEL_CHOICES,
            widget=forms.CheckboxSelectMultiple,
            help_text="Seat computer players of these levels (one of each at most): with "
            "every seat taken, the game starts at once."),
        "takeover": forms.ChoiceField(
            label="A player out of time twice", required=False,
            choices=[("", "Resigns the seat"),
                     *((value, f"Is replaced by the {value} computer")
                       for value, _ in LEVEL_CHOICES)],
            widget=forms.RadioSelect, initial="",
            help_text="For 3- and 4-player games: a computer player takes the seat, so "
            "that the others' game keeps its balance."),
    }
