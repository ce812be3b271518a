"""The campaign's content page: the core rules and every pack it has enabled."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from campaign.access import get_campaign_for_user
from campaign.selectors.pack_page import campaign_pack_page

from ._common import render_page


@require_safe
@login_required
def campaign_packs(request: HttpRequest, pk: int) -> HttpResponse:
    """What the campaign's packs bring, for its members (and organisers) to read before a
    battle; anyone else gets a 404."""
    campaign, can_write = get_campaign_for_user(request.user, pk)
    context = {
        "campaign": campaign,
        "can_write": can_write,
        "sections": campaign_pack_page(campaign),
    }
    return render_page(request, "campaigns/packs.html", context)
