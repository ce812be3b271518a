"""Forces: create, the Order of Battle page, edit, join a campaign, banner, history, force
requisitions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaign import rules, selectors, services
from campaign.access import (
    campaigns_for_user,
    get_force_for_user,
    offered_campaigns,
    picked_campaign,
)
from campaign.forms import add_service_errors
from campaign.forms.forces import BannerForm, ForceCampaignForm, ForceCreateForm, ForceDetailsForm
from campaign.models import CrusadeForce

from ._common import (
    Editing,
    edit_details,
    page_number,
    posted,
    render_page,
    render_part,
    save_picture,
)

DETAIL = "forces/detail.html"


@require_http_methods(["GET", "POST"])
@login_required
def force_create(request: HttpRequest) -> HttpResponse:
    """A new force; ``?campaign=<pk>`` (from joining a campaign) starts in that campaign."""
    offered = offered_campaigns(request.user)
    chosen = picked_campaign(request.user, request.GET.get("campaign"), offered)
    form = ForceCreateForm(posted(request), campaigns=offered, initial={"campaign": chosen})
    if request.method == "POST" and form.is_valid():
        try:
            force = services.create_force(
                actor=request.user, player=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request,
                f"{force.name} is ready: {force.supply_limit} points of Supply Limit "
                f"and {force.rp}RP to spend. Add your first unit.",
            )
            return redirect(force)
    context = {"form": form, "campaign": chosen}
    if chosen is not None:
        context["outside"] = selectors.forces_outside_campaigns(request.user)
    return render_page(request, "forces/create.html", context)


def _detail_context(force: CrusadeForce, can_write: bool, *, fetched=False, **extra) -> dict:
    oob = selectors.order_of_battle(force, can_write=can_write, fetched=fetched)
    return {"force": oob.force, "oob": oob, "banner_form": BannerForm(), **extra}


@require_safe
@login_required
def force_detail(request: HttpRequest, pk: int) -> HttpResponse:
    force, can_write = get_force_for_user(request.user, pk, forces=selectors.ORDER_OF_BATTLE_FORCE)
    return render_page(request, DETAIL, _detail_context(force, can_write, fetched=True))


FORCE_DETAILS = Editing(
    ForceDetailsForm, services.update_force_details, "force", "forces/edit.html"
)


@require_http_methods(["GET", "POST"])
@login_required
def force_edit(request: HttpRequest, pk: int) -> HttpResponse:
    force, _ = get_force_for_user(request.user, pk, write=True)
    return edit_details(request, force, FORCE_DETAILS)


@require_POST
@login_required
def force_banner(request: HttpRequest, pk: int) -> HttpResponse:
    force, can_write = get_force_for_user(request.user, pk, write=True)
    form = BannerForm(request.POST, request.FILES)

    def save(picture, thumbnail) -> None:
        services.set_force_banner(
            actor=request.user, force=force, banner=picture, thumbnail=thumbnail
        )

    if save_picture(request, form, save, "New banner saved."):
        return redirect(force)
    context = _detail_context(force, can_write, banner_form=form)
    return render_page(request, DETAIL, context, status=400)


@require_http_methods(["GET", "POST"])
@login_required
def force_campaign(request: HttpRequest, pk: int) -> HttpResponse:
    """Bring a force raised outside any campaign into one its player has joined."""
    force, _ = get_force_for_user(request.user, pk, write=True)
    if force.campaign_id is not None:
        messages.info(request, f"{force.name} is already in {force.campaign.name}.")
        return redirect(force)
    chosen = picked_campaign(request.user, request.GET.get("campaign"))
    form = ForceCampaignForm(
        posted(request), campaigns=campaigns_for_user(request.user), initial={"campaign": chosen}
    )
    if request.method == "POST" and form.is_valid():
        campaign = form.cleaned_data["campaign"]
        try:
            force = services.bring_force_into_campaign(
                actor=request.user, force=force, campaign=campaign
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request,
                f"{force.name} is now in {campaign.name}: {force.supply_limit} points of "
                f"Supply Limit and {force.rp}RP. You can start battles against its players.",
            )
            return redirect(force)
    return render_page(request, "forces/campaign.html", {"force": force, "form": form})


@require_safe
@login_required
def force_history(request: HttpRequest, pk: int) -> HttpResponse:
    force, _ = get_force_for_user(request.user, pk)
    history = selectors.force_history(force, page=page_number(request))
    return render_page(request, "forces/history.html", {"force": force, "history": history})


@require_POST
@login_required
def force_requisition(request: HttpRequest, pk: int, requisition: str) -> HttpResponse:
    force, can_write = get_force_for_user(request.user, pk, write=True)
    if requisition != rules.Requisition.INCREASE_SUPPLY_LIMIT:
        raise Http404("Not a requisition for the whole force.")
    try:
        purchase = services.increase_supply_limit(actor=request.user, force=force)
    except ValidationError as error:
        message, status = " ".join(error.messages), 400
        context = {"requisition_error": message}
    else:
        message, status = None, 200
        context = {
            "notice": f"Bought {purchase.get_requisition_display()} for {purchase.cost}RP: "
            f"your Supply Limit is now {purchase.force.supply_limit}."
        }
    if request.htmx:
        return _summary_regions(request, force, can_write, context, status=status)
    if message:
        messages.error(request, message)
    else:
        messages.success(request, context["notice"])
    return redirect(force)


def _summary_regions(
    request: HttpRequest, force: CrusadeForce, can_write: bool, extra: dict, *, status: int
) -> HttpResponse:
    """The force summary (supply, RP) and, out of band, the requisitions region."""
    context = _detail_context(force, can_write, **extra)
    summary = render_part(request, f"{DETAIL}#force-summary", context)
    requisitions = render_part(request, f"{DETAIL}#force-requisitions", {**context, "oob_swap": 1})
    return HttpResponse(summary + requisitions, status=status)
