"""The campaign page: members, standings and battles (members only)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from campaign import selectors
from campaign.access import get_campaign_for_user

from ._common import page_number, render_page


@require_safe
@login_required
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, can_write = get_campaign_for_user(request.user, pk)
    overview = selectors.campaign_overview(campaign, can_write=can_write, page=page_number(request))
    context = {
        "campaign": campaign,
        "overview": overview,
        "my_forces": overview.forces_of(request.user),
        "invite_url": request.build_absolute_uri(
            reverse("join_campaign", args=[campaign.invite_code])
        ),
    }
    return render_page(request, "campaigns/detail.html", context)
