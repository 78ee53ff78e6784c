"""Mail in and out of the site: the inbound webhook, unsubscribe links, settings."""

from django.urls import path

from notifications import views

app_name = "notifications"

urlpatterns = [
    path("mail/inbound/", views.mail_inbound, name="mail-inbound"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("settings/notifications/", views.mail_settings, name="settings"),
]
