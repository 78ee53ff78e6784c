"""The account forms: sign-up and a new address."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User


class SignUpForm(UserCreationForm[User]):
    email = forms.EmailField(
        help_text="For invitations and, if you like, to be told when it is your turn.")

    class Meta:  # UserCreationForm.Meta's, with the address
        model = User
        fields = ("username", "email")
        field_classes = {"username": UsernameField}


class EmailChangeForm(forms.Form):
    """A new address for the user's mail, confirmed with their password: whoever
    holds the address can reset the password, so a borrowed session must not."""

    email = forms.EmailField(label="New email address")
    password = forms.CharField(
        label="Your password", strip=False, help_text="To confirm that it is you.",
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password: try again.")
        return password
