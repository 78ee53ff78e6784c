"""The forms of the games pages: a new game, invitations."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.core.validators import validate_email

from engine import registry
from engine.errors import BadOptions
from engine.protocol import AnyGame, read_options
from games.seating import seat_players

MAX_INVITES = 20


class EmailListField(forms.Field):
    """Email addresses separated by commas, spaces or new lines."""

    widget = forms.Textarea(attrs={"rows": 2})

    def to_python(self, value: Any) -> list[str]:
        text = "" if value in self.empty_values else str(value).strip()
        return [part for part in re.split(r"[\s,;]+", text) if part]

    def validate(self, value: list[str]) -> None:
        super().validate(value)
        for address in value:
            try:
                validate_email(address)
            except forms.ValidationError:
                raise forms.ValidationError(f"{address!r} is not an email address") from None
        if len(value) > MAX_INVITES:
            raise forms.ValidationError(f"invite at most {MAX_INVITES} people at a time")


class InviteForm(forms.Form):
    emails = EmailListField(
        label="Invite by email",
        help_text="One or more addresses; each gets a link that takes a seat in this game.")


def option_field_name(game: str, option: str) -> str:
    return f"{game}__{option}"


def games_words(keys: Iterable[str]) -> str:
    """The value of a ``data-games`` attribute: the games (keys) a part of a
    new-game form belongs to. The page's script (games/game_form.js) shows that
    part only while one of them is the chosen game, and knows no rule itself."""
    return " ".join(keys)


class ChoiceOfGames(forms.ChoiceField):
    """A choice that belongs to some games of a new-game form: ``games``
    (``games_words``), which form_fields.html writes as the field's ``data-games``."""

    def __init__(self, *, games: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.games = games


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field ``name``, which it declares a choice."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"the field {name!r} is not a choice")
    return field


class ChoicesByGame(forms.RadioSelect):
    """Radio buttons each marked (``data-games``) with the games it is a choice
    of: the seat counts of each game."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games_of: dict[str, str] = {}

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if str(value) in self.games_of:
            option["attrs"]["data-games"] = self.games_of[str(value)]
        return option


def game_option_fields(games: Iterable[AnyGame]) -> dict[str, forms.Field]:
    """A field for each option each game declares (``option_field_name``),
    marked with its game (``games``, which form_fields.html writes as the
    field's ``data-games``)."""
    fields: dict[str, forms.Field] = {}
    for g in games:
        for option in g.options_declared:
            fields[option_field_name(g.key, option.name)] = ChoiceOfGames(
                label=option.label, required=False, widget=forms.RadioSelect,
                choices=[(str(c.value), c.label) for c in option.choices],
                initial=str(option.default), help_text=option.help,
                games=games_words([g.key]))
    return fields


def chosen_options(rules: AnyGame, data: Mapping[str, Any]) -> dict[str, Any]:
    """The options of the game ``rules`` given in a form's cleaned ``data``
    (those left out take their defaults later)."""
    chosen: dict[str, Any] = {}
    for option in rules.options_declared:
        raw = data.get(option_field_name(rules.key, option.name))
        if raw in (None, ""):
            continue
        chosen[option.name] = next(c.value for c in option.choices if str(c.value) == raw)
    return chosen


class GameCreateForm(forms.Form):
    """A new game: which game, its own options (built from what each registered
    game declares; the page shows the chosen game's), the seats, the days per
    move and invitations. Its options may also come by their bare names for the
    registry's default game, as the form took them before it offered several."""

    game = forms.ChoiceField(label="Game", widget=forms.RadioSelect)
    seats = forms.TypedChoiceField(label="Players", coerce=int, widget=ChoicesByGame)
    days_per_move = forms.IntegerField(
        label="Days per move", min_value=1, max_value=60, required=False, initial=3,
        help_text="How long each player has for a move; leave empty for no limit.")
    emails = EmailListField(
        label="Invite by email", required=False,
        help_text="Optional: addresses to send a link to a seat in this game.")

    def __init__(self, data: Any = None, *args: Any, **kwargs: Any) -> None:
        games = registry.games()
        default = registry.default()
        if data is not None and "game" not in data:
            data = data.copy()
            data["game"] = default.key
            for option in default.options_declared:
                if option.name in data:
                    data[option_field_name(default.key, option.name)] = data[option.name]
        super().__init__(data, *args, **kwargs)
        game = choice_field(self, "game")
        game.choices = [(g.key, g.title) for g in games]
        game.initial = default.key
        counts = sorted({n for g in games for n in g.seat_counts})
        seats = choice_field(self, "seats")
        seats.choices = [(n, str(n)) for n in counts]
        seats.initial = min(default.seat_counts)
        assert isinstance(seats.widget, ChoicesByGame)  # as declared
        seats.widget.games_of = {str(n): games_words(g.key for g in games if n in g.seat_counts)
                                 for n in counts}
        # the options right after the choice of game
        ordered = {"game": self.fields.pop("game"), **game_option_fields(games)}
        extra = seat_players().create_fields()  # computer players' (games.seating)
        self.extra_fields = list(extra)
        self.fields = {**ordered, **self.fields, **extra}

    @staticmethod
    def field_names() -> list[str]:
        """Every option field of every registered game, and the default game's
        options by their bare names (the form's old shape), and the fields that
        games.seating adds."""
        games = registry.games()
        return [*(option_field_name(g.key, o.name) for g in games for o in g.options_declared),
                *(o.name for o in registry.default().options_declared),
                *seat_players().create_fields()]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        key = data.get("game")
        if not key:
            return data
        rules = registry.get(key)
        data["options"] = chosen = chosen_options(rules, data)
        if data.get("seats") is not None:
            try:
                read_options(rules, chosen, data["seats"])
            except BadOptions as e:
                self.add_error(None, str(e))
        return data
