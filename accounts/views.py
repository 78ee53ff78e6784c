"""The account pages: sign-up, sign-in and out, a new email address (confirmed
with the password), and Django's own password change and reset by mail, in the
site's templates.

Mail links are built from the site's own address (``notifications.emails``, from
settings.MARRAM_BASE_URL) as every other mail's are, never from the Host header a
request brings: a forged Host would otherwise put an attacker's address in front
of a real reset token."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods
from django.views.generic.edit import FormView

from accounts import services, throttles
from accounts.auth import page_user
from accounts.forms import EmailChangeForm, SignUpForm
from web.bodies import form_post
from web.errors import ServiceError, sentence


def _next_page(request: HttpRequest) -> str | None:
    """The page to go on to (``?next=``, or the form's ``next``) if it is one of
    this site's: an invitation that sent a visitor to sign up, say."""
    wanted = request.POST.get("next") or request.GET.get("next")
    if wanted and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()},
                                                 require_https=request.is_secure()):
        return wanted
    return None


@form_post("username", "email", "password1", "password2", "next")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("pages:my-games")
    form = SignUpForm(request.POST or None)
    next_page = _next_page(request)
    context = {"form": form, "next": next_page}
    if request.method == "POST" and (refused := throttles.check(throttles.SignupThrottle, request)):
        form.add_error(None, sentence(refused))
        return render(request, "registration/signup.html", context, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="accounts.signin.ThrottledModelBackend")
        if next_page:  # where the visitor was going: an invitation, say
            messages.success(request, f"Welcome, {user.get_username()}.")
            return redirect(next_page)
        messages.success(request, f"Welcome, {user.get_username()}: find a game in the lobby "
                         "or start one.")
        return redirect("pages:lobby")
    return render(request, "registration/signup.html", context,
                  status=400 if form.is_bound else 200)


class LoginView(auth_views.LoginView):
    """Django's sign-in; a refused one is a 400, the form shown again with why."""

    def form_invalid(self, form: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


def login_view(*fields: str, **options: Any) -> Callable[..., HttpResponseBase]:
    """The sign-in page (the site's, or the browsable API's with its template and
    its named submit button in ``fields``)."""
    return form_post("username", "password", "next", *fields)(LoginView.as_view(**options))


def logout_view(**options: Any) -> Callable[..., HttpResponseBase]:
    return form_post()(auth_views.LogoutView.as_view(**options))


@login_required
@require_http_methods(["GET", "POST"])
def email_change(request: HttpRequest) -> HttpResponse:
    user = page_user(request)
    form = EmailChangeForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            address = services.user_email_change(user=user,
                                                 email=form.cleaned_data["email"])
        except ServiceError as e:
            form.add_error("email", sentence(e.message))
        else:
            messages.success(request, f"Your mail now goes to {address}.")
            return redirect("accounts:email-change")
    return render(request, "accounts/email_change.html", {"form": form},
                  status=400 if form.is_bound else 200)


class RefusedIs400(FormView[BaseForm]):
    """A refused form is a 400, shown again with why, as every form of the site's."""

    def form_invalid(self, form: BaseForm) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class PasswordChangeView(RefusedIs400, auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:password-change-done")


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class PasswordResetView(RefusedIs400, auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    subject_template_name = "accounts/password_reset_subject.txt"
    email_template_name = "accounts/password_reset_mail.txt"
    success_url = reverse_lazy("accounts:password-reset-sent")

    def form_valid(self, form: BaseForm) -> HttpResponse:
        try:
            throttles.PasswordResetThrottle().allow_request(self.request, None)
        except throttles.Refused as refused:
            form.add_error(None, f"{str(refused.detail)[:1].upper()}{str(refused.detail)[1:]}.")
            answer = self.render_to_response(self.get_context_data(form=form), status=429)
            answer["Retry-After"] = str(refused.wait)
            return answer
        if throttles.check(throttles.PasswordResetMailThrottle, self.request):
            # the same answer as when a mail goes, so that the limit tells nobody
            # whether the address has an account: the mails already sent will do
            return redirect(self.get_success_url())
        # read here, not at import: the site's address is a setting
        self.extra_email_context = {"site_url": settings.MARRAM_BASE_URL}
        return super().form_valid(form)


class PasswordResetSentView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_sent.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        days = max(settings.PASSWORD_RESET_TIMEOUT // 86400, 1)
        return {**super().get_context_data(**kwargs), "timeout_days": days}


class PasswordResetConfirmView(RefusedIs400, auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password-reset-complete")

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        if not context.get("validlink"):  # a link used, expired or made up
            kwargs["status"] = 400
        return super().render_to_response(context, **kwargs)


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"
