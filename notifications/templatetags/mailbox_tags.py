"""The mail page's tags: whether the page is on (for the site's header), and a
mail's text part with its links made links."""

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from notifications.mailbox import mailbox_by_address_enabled, mailbox_enabled

register = template.Library()

_URL = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
_TRAILING = ".,;:!?)]}"
"""Ends a sentence around a link rather than the link."""


@register.simple_tag
def mail_page_on() -> bool:
    return mailbox_enabled()


@register.simple_tag
def mail_by_address_on() -> bool:
    return mailbox_by_address_enabled()


@register.filter(is_safe=True)
def mail_text(text: str) -> SafeString:
    """A mail's text part for a ``<pre>``: escaped, then each http(s) address in it
    made a link (only those: no other scheme becomes one)."""
    text = str(text)
    parts, last = [], 0
    for found in _URL.finditer(text):
        url = found.group(0).rstrip(_TRAILING)
        if "://" not in url or url.endswith("://"):
            continue
        parts.append(escape(text[last:found.start()]))
        parts.append(format_html('<a href="{}" rel="noopener noreferrer">{}</a>', url, url))
        last = found.start() + len(url)
    parts.append(escape(text[last:]))
    return mark_safe("".join(parts))  # every part is escaped above
