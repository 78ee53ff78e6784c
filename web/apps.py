from django.apps import AppConfig
from django.urls import register_converter

from web.converters import RowId


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Web"

    def ready(self) -> None:
        register_converter(RowId, "id")  # <id:...> in every app's URLs
