"""Template helpers of the pages."""

from django import template
from django.conf import settings

from games.pages.reads import game_cards, your_turn_count

register = template.Library()


@register.simple_tag
def site_name() -> str:
    """The site's own name (``MARRAM_SITE_NAME``), which pages and mail go by: a
    site serves several games, each with a title of its own."""
    return settings.MARRAM_SITE_NAME


@register.simple_tag(takes_context=True)
def your_turn(context) -> int:
    """How many games wait for the signed-in user (for the navigation badge)."""
    request = context.get("request")
    if request is None:
        return 0
    if not hasattr(request, "_your_turn_count"):
        request._your_turn_count = your_turn_count(request.user)
    return request._your_turn_count


@register.simple_tag
def game_notations(key: str | None = None) -> list[dict]:
    """Some moves in each game's notation for replies by mail, with the game's
    title and rules page (the one game ``key``'s when it is given)."""
    return [card for card in game_cards(pictures=False)
            if card["notation"] and (not key or key == card["key"])]
