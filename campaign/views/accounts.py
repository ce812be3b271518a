"""Sign up, and join a campaign with the invitation code an organiser shares."""

from __future__ import annotations

from smtplib import SMTPException

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from campaign import selectors, services
from campaign.forms.accounts import HonestPasswordResetForm, JoinCodeForm, LoginForm, SignupForm

from ._common import posted, render_page


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = SignupForm(posted(request))
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Start by creating your force.")
        return redirect("dashboard")
    return render_page(request, "accounts/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def join_with_code(request: HttpRequest) -> HttpResponse:
    form = JoinCodeForm(posted(request), user=request.user)
    if request.method == "POST" and form.is_valid():
        return _join(request, form.cleaned_data["code"])
    return render_page(request, "accounts/join.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def join_campaign(request: HttpRequest, code: str) -> HttpResponse:
    invitation = selectors.invitation(code, request.user)
    if invitation is None:
        raise Http404("No campaign has that invitation code.")
    if request.method == "POST":
        return _join(request, invitation)
    return render_page(request, "accounts/join_confirm.html", {"invitation": invitation})


def _join(request: HttpRequest, invitation: selectors.Invitation) -> HttpResponse:
    campaign = invitation.campaign
    services.join_campaign(actor=request.user, user=request.user, campaign=campaign)
    if invitation.member:
        messages.info(request, f"You are already in {campaign.name}.")
    else:
        messages.success(request, f"You joined {campaign.name}. Create a force to take part.")
    return redirect(campaign)


class LoginView(auth_views.LoginView):
    """Django's sign-in, with a username no longer than an account's (`LoginForm`)."""

    authentication_form = LoginForm


NOT_SENT = (
    "We couldn't send the email just now. Try again later, or ask your campaign's "
    "organiser to set a new password for you."
)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, honest about email: with no way to send mail it says so
    and points to the organiser, and a mail server's refusal is shown, never hidden."""

    form_class = HonestPasswordResetForm

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not settings.EMAIL_ENABLED:
            return render_page(request, "registration/password_reset_unavailable.html", {})
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form) -> HttpResponse:
        try:
            return super().form_valid(form)
        except (SMTPException, OSError):
            form.add_error(None, NOT_SENT)
            return self.form_invalid(form)
