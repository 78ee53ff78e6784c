"""Mail in and out of the site: the inbound webhook, unsubscribe links, settings."""

from django.urls import path

from notifications import mailbox_views, provider_events, providers, push_views, views

app_name = "notifications"

urlpatterns = [
    path("mail/inbound/", views.mail_inbound, name="mail-inbound"),
    # a hosted provider's own form (Mailgun, SendGrid, Postmark, ...), read by anymail
    path("mail/inbound/<slug:provider>/", providers.provider_inbound,
         name="mail-inbound-provider"),
    # what the provider reports of our mail: bounces, complaints (provider_events)
    path("mail/events/<slug:provider>/", provider_events.provider_events,
         name="mail-events-provider"),
    # the mail page: development only (MARRAM_MAIL_INBOX_PAGE), a 404 elsewhere
    path("mail/", mailbox_views.mail_list, name="mailbox"),
    path("mail/<id:mail_id>/reply/", mailbox_views.mail_reply, name="mailbox-reply"),
    path("mail/<id:mail_id>/board.png", mailbox_views.mail_board, name="mailbox-board"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("settings/notifications/", views.mail_settings, name="settings"),
    # push notifications (notifications.push): the settings page's devices and kinds,
    # and a game's page open on a device
    path("settings/notifications/push/devices/", push_views.device_add, name="push-devices"),
    path("settings/notifications/push/devices/<id:device_id>/", push_views.device_change,
         name="push-device"),
    path("settings/notifications/push/kinds/", push_views.kinds, name="push-kinds"),
    path("push/open/", push_views.page_open, name="push-open"),
]
