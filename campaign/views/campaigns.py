"""The campaign page: members, standings and recent battles (members only)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from campaign import access, selectors


@require_safe
@login_required
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    campaign = access.get_campaign_for_user(request.user, pk)
    overview = selectors.campaign_overview(campaign)
    is_organiser = (
        any(m.user_id == request.user.pk and m.role == m.Role.ORGANISER for m in overview.members)
        or request.user.is_superuser
    )
    invite_url = request.build_absolute_uri(reverse("join_campaign", args=[campaign.invite_code]))
    return render(
        request,
        "campaigns/detail.html",
        {
            "campaign": campaign,
            "overview": overview,
            "is_organiser": is_organiser,
            "invite_url": invite_url,
            "has_force": any(s.force.player_id == request.user.pk for s in overview.standings),
        },
    )
