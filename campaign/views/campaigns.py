"""Campaigns: a player starts one; the campaign page (members, standings and battles); its
organisers start its next phase; the invited user answers an invitation to join or
organise one."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaign import selectors, services
from campaign.access import (
    get_campaign_for_user,
    get_campaign_invitation_for_user,
    read_campaign_for_user,
)
from campaign.bounds import fits_column
from campaign.forms import add_service_errors
from campaign.forms.campaigns import CampaignStartForm
from campaign.models import Membership, Phase
from campaign.services.phases import UNCHECKED

from ._common import page_number, posted, render_page


@require_http_methods(["GET", "POST"])
@login_required
def campaign_create(request: HttpRequest) -> HttpResponse:
    """Any signed-in player starts a campaign and organises it, unless the site's owner
    turned that off (`CRUSADE_SELF_SERVICE_CAMPAIGNS`)."""
    if not settings.CRUSADE_SELF_SERVICE_CAMPAIGNS:
        return render_page(request, "campaigns/create_off.html", {}, status=403)
    form = CampaignStartForm(posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.start_campaign(actor=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request,
                f"{campaign.name} has started and you are its organiser. To invite players, "
                f"give them the code {campaign.invite_code} or the link below: they join "
                "with it and raise their forces. House rules, members and your campaign's "
                "own honours and scars are in the admin (Manage the campaign in the admin, "
                "below, or Admin at the top of every page).",
            )
            return redirect(campaign)
    return render_page(request, "campaigns/create.html", {"form": form})


@require_safe
@login_required
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    # The campaign and the viewer's forces in it, read together.
    campaign, can_write, (mine,) = read_campaign_for_user(
        request.user,
        pk,
        campaigns=selectors.campaign_page_campaigns,
        along=[selectors.my_forces_read(pk, request.user)],
    )
    overview = selectors.campaign_overview(
        campaign,
        user=request.user,
        my_forces=mine,
        can_write=can_write,
        page=page_number(request),
        standings_page=page_number(request, "standings"),
        phase=page_number(request, "phase"),
        phase_standings_page=page_number(request, "phase_standings"),
    )
    context = {
        "campaign": campaign,
        "overview": overview,
        "my_forces": overview.my_forces,
        "invite_url": request.build_absolute_uri(
            reverse("join_campaign", args=[campaign.invite_code])
        ),
    }
    return render_page(request, "campaigns/detail.html", context)


@require_POST
@login_required
def campaign_phase_advance(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser starts the campaign's next phase (the first one, to begin with). The
    form names the phase the organiser saw as current, so two clicks at once advance once."""
    campaign, _ = get_campaign_for_user(request.user, pk, write=True)
    seen = request.POST.get("from_phase", "")
    if seen and not fits_column(Phase._meta.pk, seen):
        messages.error(request, "That form is out of date: here is the campaign as it is now.")
        return redirect(campaign)
    try:
        phase = services.advance_phase(
            actor=request.user,
            campaign=campaign,
            reason=request.POST.get("reason", "")[:500],
            from_phase=(seen or None) if "from_phase" in request.POST else UNCHECKED,
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Phase {phase.position}, {phase.name}, has begun.")
    return redirect(campaign)


@require_POST
@login_required
def campaign_invitation_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """The invited user joins the campaign with the invited role (or, a member already,
    becomes its organiser): on to the campaign's page."""
    invitation = get_campaign_invitation_for_user(request.user, pk)
    campaign = invitation.campaign
    try:
        membership = services.accept_campaign_invitation(actor=request.user, invitation=invitation)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("dashboard")
    if membership.role == Membership.Role.ORGANISER:
        messages.success(
            request,
            f"You now organise {campaign.name}: run it in the admin (Admin at the top of "
            "every page).",
        )
    else:
        messages.success(request, f"You joined {campaign.name}. Now raise your force for it.")
    return redirect(campaign)


@require_POST
@login_required
def campaign_invitation_decline(request: HttpRequest, pk: int) -> HttpResponse:
    invitation = get_campaign_invitation_for_user(request.user, pk)
    try:
        services.decline_campaign_invitation(actor=request.user, invitation=invitation)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Declined: you are not joining {invitation.campaign.name}.")
    return redirect("dashboard")
