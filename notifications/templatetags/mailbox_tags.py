"""Whether the mail page is on, for the site's header."""

from django import template

from notifications.mailbox import mailbox_enabled

register = template.Library()


@register.simple_tag
def mail_page_on() -> bool:
    return mailbox_enabled()
