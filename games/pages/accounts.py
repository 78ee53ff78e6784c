"""The account pages: a new email address (confirmed with the password), and
Django's own password change and reset by mail, in the site's templates.

Mail links are built from the site's own address (``notifications.emails``, from
settings.MARRAM_BASE_URL) as every other mail's are, never from the Host header a
request brings: a forged Host would otherwise put an attacker's address in front
of a real reset token."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_http_methods
from django.views.generic.edit import FormView

from games import services, throttles
from games.auth import page_user
from games.errors import ServiceError
from games.forms import EmailChangeForm


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
            form.add_error("email", e.message[:1].upper() + e.message[1:] + ".")
        else:
            messages.success(request, f"Your mail now goes to {address}.")
            return redirect("pages:email-change")
    return render(request, "accounts/email_change.html", {"form": form},
                  status=400 if form.is_bound else 200)


class RefusedIs400(FormView[BaseForm]):
    """A refused form is a 400, shown again with why, as every form of the site's."""

    def form_invalid(self, form: BaseForm) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class PasswordChangeView(RefusedIs400, auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("pages:password-change-done")


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "accounts/password_change_done.html"


class PasswordResetView(RefusedIs400, auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    subject_template_name = "accounts/password_reset_subject.txt"
    email_template_name = "accounts/password_reset_mail.txt"
    success_url = reverse_lazy("pages:password-reset-sent")

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
    success_url = reverse_lazy("pages:password-reset-complete")

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        if not context.get("validlink"):  # a link used, expired or made up
            kwargs["status"] = 400
        return super().render_to_response(context, **kwargs)


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"
