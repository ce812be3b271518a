"""Sign up, and join a campaign with the invitation code an organiser shares."""

from __future__ import annotations

from smtplib import SMTPException

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from campaign import once, selectors, services
from campaign.forms.accounts import HonestPasswordResetForm, JoinCodeForm, LoginForm, SignupForm

from ._common import posted, render_page


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = SignupForm(posted(request))
    next_url = _safe_next(request)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            once.claim()  # a new account writes no history: the sign-up form is used here
            user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if next_url:  # e.g. the invitation link that brought them here
            messages.success(request, f"Welcome, {user.username}!")
            return redirect(next_url)
        messages.success(
            request,
            f"Welcome, {user.username}! First join your campaign with the invitation code "
            "your organiser gave you; then raise your force in it.",
        )
        return redirect("dashboard")
    return render_page(request, "accounts/signup.html", {"form": form, "next": next_url})


def _safe_next(request: HttpRequest) -> str:
    """Where to go after signing up (``next``), if it is a page of this site."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if safe else ""


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
    """Join, then straight on to raising a force for the campaign."""
    campaign = invitation.campaign
    services.join_campaign(actor=request.user, user=request.user, campaign=campaign)
    if invitation.member:
        messages.info(request, f"You are already in {campaign.name}.")
        return redirect(campaign)
    messages.success(request, f"You joined {campaign.name}. Now raise your force for it.")
    return redirect(f"{reverse('force_create')}?campaign={campaign.pk}")


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
            # Sent twice, the form would send the email twice; a failure frees it again.
            with transaction.atomic():
                once.claim()
                return super().form_valid(form)
        except (SMTPException, OSError):
            form.add_error(None, NOT_SENT)
            return self.form_invalid(form)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change, applied once: sent twice, the second would be refused
    for an "old password" that the first has just replaced."""

    def form_valid(self, form) -> HttpResponse:
        with transaction.atomic():
            once.claim()
            return super().form_valid(form)
