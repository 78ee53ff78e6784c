"""Template helpers of the pages."""

from django import template

from games.pages.reads import your_turn_count

register = template.Library()


@register.simple_tag(takes_context=True)
def your_turn(context) -> int:
    """How many games wait for the signed-in user (for the navigation badge)."""
    request = context.get("request")
    if request is None:
        return 0
    if not hasattr(request, "_your_turn_count"):
        request._your_turn_count = your_turn_count(request.user)
    return request._your_turn_count
