"""Sign up, and join a campaign with the invitation code an organiser shares."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaign import services
from campaign.forms.accounts import JoinCodeForm, SignupForm
from campaign.models import Campaign


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}! Start by creating your force.")
        return redirect("dashboard")
    return render(request, "accounts/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def join_with_code(request: HttpRequest) -> HttpResponse:
    form = JoinCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        return _join(request, form.cleaned_data["code"])
    return render(request, "accounts/join.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def join_campaign(request: HttpRequest, code: str) -> HttpResponse:
    campaign = Campaign.objects.filter(invite_code=code).first()
    if campaign is None:
        raise Http404("No campaign has that invitation code.")
    if request.method == "POST":
        return _join(request, campaign)
    member = campaign.memberships.filter(user=request.user).exists()
    return render(request, "accounts/join_confirm.html", {"campaign": campaign, "member": member})


def _join(request: HttpRequest, campaign: Campaign) -> HttpResponse:
    already = campaign.memberships.filter(user=request.user).exists()
    services.join_campaign(actor=request.user, user=request.user, campaign=campaign)
    if already:
        messages.info(request, f"You are already in {campaign.name}.")
    else:
        messages.success(request, f"You joined {campaign.name}. Create a force to take part.")
    return redirect("campaign_detail", pk=campaign.pk)
