"""The accounts' API, mounted under /api/: throttled per address."""

from django.urls import path

from accounts import api
from accounts.throttles import SignupThrottle, TokenThrottle

urlpatterns = [
    path("auth/signup/", api.Signup.as_view(throttle_classes=[SignupThrottle]),
         name="api-signup"),
    path("auth/token/", api.TokenObtain.as_view(throttle_classes=[TokenThrottle]),
         name="api-token"),
]
