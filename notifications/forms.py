"""The settings page's forms."""

from django import forms

from notifications.models import WEBHOOK_URL_MAX_LENGTH, Policy, Webhook
from notifications.webhook_http import url_problem


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


class WebhookForm(forms.Form):
    url = forms.CharField(
        max_length=WEBHOOK_URL_MAX_LENGTH, label="Address",
        widget=forms.URLInput(attrs={"placeholder": "https://discord.com/api/webhooks/..."}),
        help_text="Called when it is your turn in any of your games.",
    )
    format = forms.ChoiceField(choices=Webhook.Format.choices, initial=Webhook.Format.JSON,
                               label="Format")

    def clean_url(self) -> str:
        url: str = self.cleaned_data["url"]
        problem = url_problem(url)
        if problem:
            raise forms.ValidationError(problem[:1].upper() + problem[1:] + ".")
        return url
