"""Template helpers of the pages."""

from datetime import datetime
from typing import Any

from django import template
from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone
from django.utils.timesince import timesince

from games.pages.reads import game_cards, your_turn_count

register = template.Library()


@register.simple_tag
def site_name() -> str:
    """The site's own name (``MARRAM_SITE_NAME``), which pages and mail go by: a
    site serves several games, each with a title of its own."""
    return settings.MARRAM_SITE_NAME


@register.simple_tag(takes_context=True)
def your_turn(context: template.Context) -> int:
    """How many games wait for the signed-in user (for the navigation badge),
    counted once a request."""
    request: HttpRequest | None = context.get("request")
    if request is None:
        return 0
    counted: int | None = getattr(request, "_your_turn_count", None)
    if counted is None:
        counted = your_turn_count(request.user)
        # kept on the request for the page's other uses of the tag: an attribute of
        # this tag's own, which HttpRequest does not declare
        request._your_turn_count = counted  # type: ignore[attr-defined]
    return counted


@register.simple_tag
def game_notations(key: str | None = None) -> list[dict[str, Any]]:
    """Some moves in each game's notation for replies by mail, with the game's
    title and rules page (the one game ``key``'s when it is given)."""
    return [card for card in game_cards(pictures=False)
            if card["notation"] and (not key or key == card["key"])]


@register.filter
def score(value: object) -> str:
    """A seat's score in a list: "–" for none yet (a game that keeps its scores
    hidden until the end, or a distance not measured yet), a whole number without
    ".0"."""
    if value is None or value == "":
        return "–"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _under_a_minute(when: datetime | None) -> bool:
    return when is not None and (timezone.now() - when).total_seconds() < 60


@register.filter
def ago(when: datetime | None) -> str:
    """How long ago ``when`` was, in words: "just now" under a minute, never
    "0 minutes ago"."""
    if when is None:
        return ""
    return "just now" if _under_a_minute(when) else f"{timesince(when)} ago"


@register.filter
def lasting(since: datetime | None) -> str:
    """How long something has lasted since ``since``: "under a minute" rather than
    "0 minutes"."""
    if since is None:
        return ""
    return "under a minute" if _under_a_minute(since) else timesince(since)
