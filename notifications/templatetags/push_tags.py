"""The settings page's push section (notifications.push): this device's button,
the player's devices and the kinds switched on."""

from __future__ import annotations

from typing import Any

from django import template

from notifications import push
from notifications.models import PushSubscription

register = template.Library()


@register.inclusion_tag("notifications/push_settings.html", takes_context=True)
def push_settings(context: template.Context) -> dict[str, Any]:
    user = context["request"].user
    off = push.kinds_off(user.pk)
    return {
        "public_key": push.public_key(),
        "devices": list(PushSubscription.objects.filter(user=user)),
        "kinds": [(kind, label, kind not in off) for kind, label in push.LABELS.items()],
        "csrf_token": context.get("csrf_token"),
    }
