"""The settings page's forms."""

from django import forms

from notifications.models import Policy


class PolicyForm(forms.Form):
    policy = forms.ChoiceField(
        choices=Policy.choices,
        widget=forms.RadioSelect,
        label="Mail about my games",
        help_text="Whatever you choose, you can always play by replying to a move mail, "
        "and nobody is mailed while they are looking at the game.",
    )


class VacationForm(forms.Form):
    days = forms.IntegerField(
        min_value=1, max_value=366, required=False, label="Days",
        help_text="Leave empty to use all the days you have left this year.",
    )
