"""The account pages, mounted at the site root: sign-up, sign-in and out, a new
address, the password's change and reset."""

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.login_view(
        next_page="pages:my-games", redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", views.logout_view(next_page="pages:home"), name="logout"),
    path("accounts/email/", views.email_change, name="email-change"),
    path("accounts/password/", views.PasswordChangeView.as_view(), name="password-change"),
    path("accounts/password/changed/", views.PasswordChangeDoneView.as_view(),
         name="password-change-done"),
    path("accounts/password/reset/", views.PasswordResetView.as_view(),
         name="password-reset"),
    path("accounts/password/reset/sent/", views.PasswordResetSentView.as_view(),
         name="password-reset-sent"),
    path("accounts/password/reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(),
         name="password-reset-confirm"),
    path("accounts/password/reset/done/", views.PasswordResetCompleteView.as_view(),
         name="password-reset-complete"),
]
