"""The pages' forms for computer players: "Play against the computer" on the home
page, and the lobby's fields for bots (added to the new-game form). Either takes
computers in any mix of levels, a level more than once too."""

from __future__ import annotations

from typing import Any

from django import forms

from bots.models import Level
from engine import registry
from engine.errors import BadOptions
from engine.protocol import read_options
from games.forms import (
    ChoiceOfGames,
    choice_field,
    chosen_options,
    game_option_fields,
    games_words,
    option_field_name,
)

DEFAULT_LEVEL = "medium"

LEVEL_CHOICES = [("easy", "Easy"), ("medium", "Medium"), ("strong", "Strong")]
assert [value for value, _ in LEVEL_CHOICES] == list(Level.values)


def rated_field() -> forms.BooleanField:
    """Whether a game with a computer player is rated, asked where it is started
    (the home page's form and the lobby's): a game between people is rated
    whatever this says."""
    return forms.BooleanField(
        label="Rated", required=False,
        help_text="Tick for the result to move your rating (and the computer's own); "
        "a game with a computer player is unrated otherwise.")


def computer_fields() -> list[str]:
    """The names of the fields of the computer players, one for each seat beside
    the player's in the game with the most."""
    most = max(n for g in registry.games() for n in g.seat_counts)
    return [f"computer_{n}" for n in range(1, most)]


class PlayComputerForm(forms.Form):
    """A game against computer players that starts at once: the game, its own
    options (those the game declares; the page shows the chosen game's) and a
    level for each computer player, in any mix. The first is required; each
    further one may be left out ("none"), up to the seats of the game with the
    most. The game's seats are the player's and the computers'."""

    game = forms.ChoiceField(label="Game")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = registry.games()
        game = choice_field(self, "game")
        game.choices = [(g.key, g.title) for g in games]
        game.initial = registry.default().key
        self.fields.update(game_option_fields(games))
        self.computer_fields = computer_fields()
        for n, name in enumerate(self.computer_fields, 1):
            self.fields[name] = ChoiceOfGames(
                label=f"Computer player {n}", required=n == 1,
                choices=LEVEL_CHOICES if n == 1 else [("", "None"), *LEVEL_CHOICES],
                initial=DEFAULT_LEVEL if n == 1 else "",
                help_text="; ".join(str(label) for label in Level.labels) if n == 1 else "",
                # shown for the games that seat this many computers beside the player
                games=games_words(g.key for g in games if max(g.seat_counts) > n))
        self.fields["rated"] = rated_field()

    @staticmethod
    def field_names() -> list[str]:
        """Every field the form may be sent."""
        return ["game", *(option_field_name(g.key, o.name) for g in registry.games()
                          for o in g.options_declared), *computer_fields(), "rated"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        key = data.get("game")
        if not key:
            return data
        rules = registry.get(key)
        levels = [data[name] for name in self.computer_fields if data.get(name)]
        data["levels"] = levels
        data["options"] = chosen = chosen_options(rules, data)
        try:
            read_options(rules, chosen, 1 + len(levels))
        except BadOptions as e:
            computers = f"{len(levels)} computer player{'s' if len(levels) != 1 else ''}"
            self.add_error(None, f"{e} (you and {computers})")
        return data


class LevelSeats(forms.Widget):
    """The lobby's computer players: a select of the level (or none) for each seat
    a game may give a computer, every one sent under the field's name, so that
    the field reads the levels chosen in any mix, a level twice being two
    computers of it (``bots=medium&bots=medium``, as the API's list)."""

    template_name = "bots/widgets/level_seats.html"

    def __init__(self, seats: int, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs)
        self.seats = seats

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None
                    ) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        values = value if isinstance(value, (list, tuple)) else [value]
        chosen = [str(v) for v in values if v]
        chosen += [""] * (self.seats - len(chosen))
        base = context["widget"]["attrs"].get("id") or f"id_{name}"
        context["widget"]["levels"] = [("", "None"), *LEVEL_CHOICES]
        context["widget"]["seats"] = [
            {"id": f"{base}_{n}", "label": f"Computer player {n + 1}", "value": chosen[n]}
            for n in range(self.seats)]
        context["widget"]["attrs"]["aria_describedby"] = context["widget"]["attrs"].get(
            "aria-describedby", "")
        return context

    def id_for_label(self, id_: str) -> str:
        return f"{id_}_0" if id_ else id_

    def value_from_datadict(self, data: Any, files: Any, name: str) -> list[str]:
        values = data.getlist(name) if hasattr(data, "getlist") else data.get(name)
        if values is None:
            return []
        if isinstance(values, str):
            values = [values]
        return [value for value in values if value]  # "None" sends an empty value

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return False  # no select left set is no computer player, not a field left out


def bot_fields() -> dict[str, forms.Field]:
    """The lobby's fields: bots in seats, and the takeover option."""
    return {
        "bots": forms.MultipleChoiceField(
            label="Computer players", required=False, choices=LEVEL_CHOICES,
            widget=LevelSeats(len(computer_fields())),
            help_text="A level for each computer player to seat, in any mix (two of one "
            "level too): with every seat taken, the game starts at once."),
        "takeover": forms.ChoiceField(
            label="A player out of time twice", required=False,
            choices=[("", "Resigns the seat"),
                     *((value, f"Is replaced by the {value} computer")
                       for value, _ in LEVEL_CHOICES)],
            widget=forms.RadioSelect, initial="",
            help_text="For 3- and 4-player games: a computer player takes the seat, so "
            "that the others' game keeps its balance."),
        "rated": rated_field(),
    }
