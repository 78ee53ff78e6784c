from django.urls import path

from bots import views

app_name = "bots"

urlpatterns = [
    path("play/computer/", views.play_computer, name="play-computer"),
]
