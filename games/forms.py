"""The forms of the pages: sign-up, a new game, invitations, a new address."""

from __future__ import annotations

import re

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.validators import validate_email

from games.models import Length, Variant

MAX_INVITES = 20


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        help_text="For invitations and, if you like, to be told when it is your turn.")

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class EmailChangeForm(forms.Form):
    """A new address for the user's mail, confirmed with their password: whoever
    holds the address can reset the password, so a borrowed session must not."""

    email = forms.EmailField(label="New email address")
    password = forms.CharField(
        label="Your password", strip=False, help_text="To confirm that it is you.",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, user, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password: try again.")
        return password


class EmailListField(forms.CharField):
    """Email addresses separated by commas, spaces or new lines."""

    widget = forms.Textarea(attrs={"rows": 2})

    def to_python(self, value: str | None) -> list[str]:
        text = super().to_python(value) or ""
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


class GameCreateForm(forms.Form):
    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.CLASSIC,
                                widget=forms.RadioSelect)
    length = forms.ChoiceField(choices=Length.choices, initial=Length.LONG,
                               widget=forms.RadioSelect,
                               help_text="Animals is played as a long game only.")
    seats = forms.TypedChoiceField(label="Players", choices=[(n, str(n)) for n in (2, 3, 4)],
                                   coerce=int, initial=2, widget=forms.RadioSelect)
    days_per_move = forms.IntegerField(
        label="Days per move", min_value=1, max_value=60, required=False, initial=3,
        help_text="How long each player has for a move; leave empty for no limit.")
    emails = EmailListField(
        label="Invite by email", required=False,
        help_text="Optional: addresses to send a link to a seat in this game.")

    def clean(self):
        data = super().clean()
        if data.get("variant") == Variant.ANIMALS and data.get("length") == Length.SHORT:
            self.add_error("length", "Animals is played as a long game only: choose Long.")
        return data
