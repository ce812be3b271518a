"""Home page and the player's dashboard."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from campaign import selectors

from ._common import render_page


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render_page(request, "home.html", {})


@require_safe
@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """My forces, my campaigns, and everything waiting for me."""
    context = {
        "dash": selectors.dashboard(request.user),
        "can_start_campaigns": settings.CRUSADE_SELF_SERVICE_CAMPAIGNS,
    }
    return render_page(request, "dashboard.html", context)
