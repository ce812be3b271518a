"""Crusade cards to print: the whole Order of Battle, two cards to a page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from campaign import selectors
from campaign.access import get_force_for_user

from ._common import render_page


@require_safe
@login_required
def force_print(request: HttpRequest, pk: int) -> HttpResponse:
    """Anyone who may see the force may print its cards (static/css/print.css lays them
    out on paper)."""
    force, _ = get_force_for_user(request.user, pk)
    return render_page(request, "forces/print.html", {"sheet": selectors.cards_to_print(force)})
