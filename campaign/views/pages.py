"""Home page and the player's dashboard."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from campaign import selectors
from campaign.selectors import live

from ._common import render_page, unchanged, watched


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render_page(request, "home.html", {})


@require_safe
@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """My forces, my campaigns, and everything waiting for me."""
    watch = live.waiting_watch(request.user)  # before what it covers: see battle_detail
    context = {
        "dash": selectors.dashboard(request.user),
        "can_start_campaigns": settings.CRUSADE_SELF_SERVICE_CAMPAIGNS,
        "watch": watch,
    }
    return render_page(request, "dashboard.html", context)


@require_safe
@login_required
def dashboard_live(request: HttpRequest) -> HttpResponse:
    """The poll of the dashboard's *Waiting for you*: a 304 while nothing in it changed
    (one query), else the list as it is now (a new invitation, a battle to record)."""
    watch = live.waiting_watch(request.user)
    if (same := unchanged(request, watch)) is not None:
        return same
    context = {"dash": selectors.dashboard(request.user), "watch": watch}
    return watched(render_page(request, "dashboard.html#waiting", context), watch)
